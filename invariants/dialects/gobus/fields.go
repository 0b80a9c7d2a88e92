package gobus

import (
	"framescope/decode"
	"framescope/invariants"
)

// The JSON type each member of the bus Event struct unmarshals from. The
// reference client (sdk/http.go readLoop) json.Unmarshals every frame into
// streaming.Event and silently drops the frame when that fails, so a member
// of the wrong JSON type loses the whole event: payload-malformed. null is
// accepted everywhere (encoding/json leaves the zero value); members the
// struct does not know are ignored, as encoding/json does.
type want uint8

const (
	wAny want = iota
	wString
	wInt
	wBool
	wObject
	wArray
	wTime
)

var wantNames = [...]string{"anything", "a string", "an integer", "a boolean", "an object", "an array",
	"an RFC 3339 date-time as Go's time.Time reads it (time.Parse with time.RFC3339: T, seconds 00-59, a zone of Z or ±hh:mm)"}

// wantOf is the JSON type the Event struct's member key unmarshals from
// (time.Time members from an RFC 3339 string: time_fields.go); ok false
// for a member the struct does not know. A switch, not a table walk: it
// runs for every member of every frame.
func wantOf(key []byte) (w want, ok bool) {
	switch string(key) {
	case "id", "streamId", "conversationId", "turnId", "messageId", "agentIdUsed", "agentName",
		"assistantMessageId", "parentMessageId", "requestId", "responseId", "operationId",
		"toolCallId", "toolMessageId", "requestPayloadId", "responsePayloadId",
		"providerRequestPayloadId", "providerResponsePayloadId", "streamPayloadId",
		"linkedConversationId", "linkedConversationAgentId", "linkedConversationTitle",
		"executionRole", "phase", "pageId", "mode", "type", "op", "content", "narration",
		"narrationSource", "elicitationId", "callbackUrl", "userMessageId", "startedByMessageId",
		"modelCallId", "provider", "modelName", "feedId", "feedTitle", "plannerTrigger",
		"plannerStaticProfile", "plannerStrategyFamily", "plannerSecondPolicy", "plannerOutputPayloadId",
		"toolName", "skillName", "skillExecutionId", "error", "status":
		return wString, true
	case "eventSeq", "queueSeq", "feedItemCount", "plannerAttempt",
		"usageInputTokens", "usageOutputTokens", "usageEmbeddingTokens", "usageTotalTokens",
		"iteration", "pageIndex", "pageCount":
		return wInt, true
	case "plannerValidated", "latestPage", "finalResponse":
		return wBool, true
	case "patch", "elicitationData", "responsePayload", "arguments", "model":
		return wObject, true
	case "toolCallsPlanned":
		return wArray, true
	case "createdAt", "completedAt", "startedAt":
		return wTime, true
	}
	return wAny, false
}

// badField returns the first member of the frame whose JSON value the
// Event struct cannot take, and the type it wants; createdAt is the
// frame's createdAt as the client reads it (ok false when absent, null or
// refused).
func badField(f *decode.Frame, m *invariants.Mapping) (name string, got decode.Raw, w want, createdAt invariants.Instant, ok bool) {
	for i := range f.Members {
		mb := &f.Members[i]
		if mb.KeyEsc || mb.Value.Kind() == decode.KindNull {
			continue
		}
		want, known := wantOf(mb.Key)
		switch {
		case !known:
		case want == wTime:
			at, fine := goTime(mb.Value, m)
			if !fine {
				if name == "" {
					name, got, w = string(mb.Key), mb.Value, wTime
				}
				continue
			}
			if string(mb.Key) == "createdAt" {
				createdAt, ok = at, true
			}
		case name == "" && !fits(mb.Value, want):
			name, got, w = string(mb.Key), mb.Value, want
		}
	}
	return name, got, w, createdAt, ok
}

func fits(v decode.Raw, w want) bool {
	switch w {
	case wString:
		return v.Kind() == decode.KindString
	case wInt:
		return isInt64(v)
	case wBool:
		return v.Kind() == decode.KindBool
	case wObject:
		return v.Kind() == decode.KindObject
	case wArray:
		return v.Kind() == decode.KindArray
	}
	return true
}

// isInt64 reports whether a JSON number is an integer that fits in int64
// (what encoding/json accepts for an int field: no fraction, no exponent).
func isInt64(v decode.Raw) bool {
	if v.Kind() != decode.KindNumber {
		return false
	}
	digits := v
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 19 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	if len(digits) == 19 {
		max := "9223372036854775807"
		if v[0] == '-' {
			max = "9223372036854775808"
		}
		return string(digits) <= max
	}
	return true
}
