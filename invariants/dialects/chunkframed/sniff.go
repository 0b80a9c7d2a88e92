package chunkframed

import (
	"framescope/decode"
	"framescope/invariants"
)

// sniff: a stream.begin / stream.chunk / stream.end event (SSE event: or
// JSON event) that carries a string message_id is the dialect's signature —
// no other dialect framescope reads names its events stream.* or keys them
// by message_id. The same event name without a message_id could still be a
// damaged frame of this dialect (Maybe). Every other frame is No: the
// protocol has no other event (no heartbeat frame, no typed envelope), so
// pc3's event_type, the type-discriminated dialects, public-sse-v1's schema
// and OpenAI Chat's object never belong here.
func sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	if eventOf(f) < evBegin {
		return invariants.No
	}
	if f.Get("event_type") != nil || f.Get("type") != nil || f.Get("schema") != nil || f.Get("object") != nil {
		// Another dialect's envelope under a stream.* SSE name: not ours
		// to claim on this frame alone.
		return invariants.Maybe
	}
	if f.Get("message_id").IsNonEmptyStr() {
		return invariants.Yes
	}
	return invariants.Maybe
}
