package gobus

import (
	"framescope/decode"
	"framescope/invariants"
)

// sniff: a type from the bus vocabulary together with one of the bus
// envelope members (eventSeq, turnId, streamId, conversationId) is the
// signature. The vocabulary alone is only Maybe: a lone
// {"type":"error",...} or {"type":"usage"} could be someone else's. Frames
// carrying another dialect's envelope are No whatever their type.
func sniff(f *decode.Frame) invariants.Verdict {
	typ := f.Get("type")
	k := classify(typ)
	if k == kUnknown || foreign(f) {
		return invariants.No
	}
	if k == kError {
		// go-bus errors carry a string; Anthropic's and typed-lines'
		// an object, the AI SDK's an errorText.
		if e := f.Get("error"); e != nil && e.Kind() != decode.KindString && e.Kind() != decode.KindNull {
			return invariants.No
		}
	}
	if isInt64(f.Get("eventSeq")) || f.Get("turnId").IsNonEmptyStr() || f.Get("streamId").IsNonEmptyStr() ||
		f.Get("conversationId").IsNonEmptyStr() {
		return invariants.Yes
	}
	return invariants.Maybe
}

// foreign: members that name another dialect's envelope (PC3 event_type,
// OpenAI sequence_number / object, public-sse-v1 schema, chunk-framed
// seq_no and JSON event, the AI SDK's errorText). An SSE event: field
// proves nothing either way: the reference handler never writes one.
func foreign(f *decode.Frame) bool {
	for _, k := range foreignKeys {
		if f.Get(k) != nil {
			return true
		}
	}
	return false
}

var foreignKeys = [...]string{"event_type", "sequence_number", "object", "schema", "seq_no", "errorText", "event"}
