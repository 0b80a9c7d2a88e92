package agui

import "framescope/decode"

// evType is one event of @ag-ui/core's EventType (packages/core/src/events.ts).
type evType uint8

const (
	evNone evType = iota
	evRunStarted
	evRunFinished
	evRunError
	evStepStarted
	evStepFinished
	evTextStart
	evTextContent
	evTextEnd
	evTextChunk
	evToolStart
	evToolArgs
	evToolEnd
	evToolChunk
	evToolResult
	evThinkingStart
	evThinkingEnd
	evThinkingMsgStart
	evThinkingMsgContent
	evThinkingMsgEnd
	evStateSnapshot
	evStateDelta
	evMessagesSnapshot
	evActivitySnapshot
	evActivityDelta
	evRaw
	evCustom
	evReasoningStart
	evReasoningMsgStart
	evReasoningMsgContent
	evReasoningMsgEnd
	evReasoningMsgChunk
	evReasoningEnd
	evReasoningEncrypted
)

// eventTypes is the whole EventType enum: any other type fails the client's
// EventSchemas parse.
var eventTypes = map[string]evType{
	"RUN_STARTED":                   evRunStarted,
	"RUN_FINISHED":                  evRunFinished,
	"RUN_ERROR":                     evRunError,
	"STEP_STARTED":                  evStepStarted,
	"STEP_FINISHED":                 evStepFinished,
	"TEXT_MESSAGE_START":            evTextStart,
	"TEXT_MESSAGE_CONTENT":          evTextContent,
	"TEXT_MESSAGE_END":              evTextEnd,
	"TEXT_MESSAGE_CHUNK":            evTextChunk,
	"TOOL_CALL_START":               evToolStart,
	"TOOL_CALL_ARGS":                evToolArgs,
	"TOOL_CALL_END":                 evToolEnd,
	"TOOL_CALL_CHUNK":               evToolChunk,
	"TOOL_CALL_RESULT":              evToolResult,
	"THINKING_START":                evThinkingStart,
	"THINKING_END":                  evThinkingEnd,
	"THINKING_TEXT_MESSAGE_START":   evThinkingMsgStart,
	"THINKING_TEXT_MESSAGE_CONTENT": evThinkingMsgContent,
	"THINKING_TEXT_MESSAGE_END":     evThinkingMsgEnd,
	"STATE_SNAPSHOT":                evStateSnapshot,
	"STATE_DELTA":                   evStateDelta,
	"MESSAGES_SNAPSHOT":             evMessagesSnapshot,
	"ACTIVITY_SNAPSHOT":             evActivitySnapshot,
	"ACTIVITY_DELTA":                evActivityDelta,
	"RAW":                           evRaw,
	"CUSTOM":                        evCustom,
	"REASONING_START":               evReasoningStart,
	"REASONING_MESSAGE_START":       evReasoningMsgStart,
	"REASONING_MESSAGE_CONTENT":     evReasoningMsgContent,
	"REASONING_MESSAGE_END":         evReasoningMsgEnd,
	"REASONING_MESSAGE_CHUNK":       evReasoningMsgChunk,
	"REASONING_END":                 evReasoningEnd,
	"REASONING_ENCRYPTED_VALUE":     evReasoningEncrypted,
}

// kindOf looks a type up without allocating (the map index on a
// string(bytes) conversion does not copy); escaped names are decoded.
func kindOf(typ decode.Raw) evType {
	if typ.Kind() != decode.KindString || len(typ) < 2 {
		return evNone
	}
	in := typ[1 : len(typ)-1]
	for _, c := range in {
		if c == '\\' {
			s, _ := typ.Str()
			return eventTypes[s]
		}
	}
	return eventTypes[string(in)]
}

// closesChunk: the events before which the client's chunk transformer
// (client/src/chunks/transform.ts) closes a pending TEXT_MESSAGE_CHUNK,
// TOOL_CALL_CHUNK or REASONING_MESSAGE_CHUNK; RAW, ACTIVITY_* and
// REASONING_ENCRYPTED_VALUE pass through and leave it open.
func closesChunk(t evType) bool {
	switch t {
	case evNone, evRaw, evActivitySnapshot, evActivityDelta, evReasoningEncrypted,
		evTextChunk, evToolChunk, evReasoningMsgChunk:
		return false
	}
	return true
}
