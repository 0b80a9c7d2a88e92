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
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	typ := f.Get("type")
	k := classify(typ)
	if k == kUnknown || foreign.In(f) {
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
