package gobus

import "framescope/decode"

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
)

var wantNames = [...]string{"anything", "a string", "an integer", "a boolean", "an object", "an array"}

type field struct {
	name string
	want want
}

// fields lists the Event struct's JSON names with their types (time.Time
// members unmarshal from an RFC 3339 string).
var fields = [...]field{
	{"id", wString}, {"streamId", wString}, {"conversationId", wString}, {"turnId", wString},
	{"messageId", wString}, {"eventSeq", wInt}, {"agentIdUsed", wString}, {"agentName", wString},
	{"assistantMessageId", wString}, {"parentMessageId", wString}, {"requestId", wString},
	{"responseId", wString}, {"operationId", wString}, {"toolCallId", wString}, {"toolMessageId", wString},
	{"requestPayloadId", wString}, {"responsePayloadId", wString}, {"providerRequestPayloadId", wString},
	{"providerResponsePayloadId", wString}, {"streamPayloadId", wString}, {"linkedConversationId", wString},
	{"linkedConversationAgentId", wString}, {"linkedConversationTitle", wString}, {"executionRole", wString},
	{"phase", wString}, {"pageId", wString}, {"mode", wString}, {"type", wString}, {"op", wString},
	{"patch", wObject}, {"content", wString}, {"narration", wString}, {"narrationSource", wString},
	{"toolName", wString}, {"skillName", wString}, {"skillExecutionId", wString}, {"arguments", wObject},
	{"error", wString}, {"status", wString}, {"iteration", wInt}, {"pageIndex", wInt}, {"pageCount", wInt},
	{"latestPage", wBool}, {"finalResponse", wBool}, {"model", wObject}, {"toolCallsPlanned", wArray},
	{"createdAt", wString}, {"elicitationId", wString}, {"elicitationData", wObject}, {"callbackUrl", wString},
	{"responsePayload", wObject}, {"completedAt", wString}, {"startedAt", wString}, {"userMessageId", wString},
	{"queueSeq", wInt}, {"startedByMessageId", wString}, {"modelCallId", wString}, {"provider", wString},
	{"modelName", wString}, {"feedId", wString}, {"feedTitle", wString}, {"feedItemCount", wInt},
	{"plannerTrigger", wString}, {"plannerStaticProfile", wString}, {"plannerStrategyFamily", wString},
	{"plannerAttempt", wInt}, {"plannerValidated", wBool}, {"plannerSecondPolicy", wString},
	{"plannerOutputPayloadId", wString}, {"usageInputTokens", wInt}, {"usageOutputTokens", wInt},
	{"usageEmbeddingTokens", wInt}, {"usageTotalTokens", wInt},
}

// badField returns the first member of the frame whose JSON type the Event
// struct cannot take, and the type it wants.
func badField(f *decode.Frame) (name string, got decode.Raw, w want) {
	for i := range f.Members {
		m := &f.Members[i]
		if m.KeyEsc || m.Value.Kind() == decode.KindNull {
			continue
		}
		for j := range fields {
			if string(m.Key) != fields[j].name {
				continue
			}
			if !fits(m.Value, fields[j].want) {
				return fields[j].name, m.Value, fields[j].want
			}
			break
		}
	}
	return "", nil, wAny
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
