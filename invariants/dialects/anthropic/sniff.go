package anthropic

import (
	"framescope/decode"
	"framescope/invariants"
)

// sniff: the message_* and content_block_* types are Anthropic's alone; an
// error whose error object has type and message (typed-lines has
// error.code, the AI SDK errorText) is too. {"type":"ping"} is shared with
// typed-lines and only keeps the dialect in the running.
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	if foreign.In(f) {
		return invariants.No
	}
	typ := f.Get("type")
	ev := eventOf(typ)
	if typ == nil && f.HasType {
		// The SDKs route by the SSE event: name and fill a missing type
		// from it: such a frame could be ours, but says little.
		if eventNamed(f.Event.Type) != evUnknown && f.Event.Type != "error" {
			return invariants.Maybe
		}
		return invariants.No
	}
	switch ev {
	case evMessageStart, evMessageDelta, evMessageStop, evBlockStart, evBlockDelta, evBlockStop:
		return invariants.Yes
	case evPing:
		return invariants.Maybe
	case evError:
		e := f.Get("error")
		if e.Kind() != decode.KindObject || e.Get("code") != nil || f.Get("errorText") != nil {
			return invariants.No
		}
		if e.Get("type").Kind() == decode.KindString && e.Get("message").Kind() == decode.KindString {
			return invariants.Yes
		}
		return invariants.Maybe
	}
	return invariants.No
}
