package publicsse

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// envelope checks the fields every event shares (v1.md §6.1) and keeps the
// ones that must not change within a stream (envelope-drift).
type envelope struct {
	schema, stream, conv fixed
}

// fixed is an envelope value the stream must keep: the bytes of the last
// value seen, in a buffer the mapper owns and reuses.
type fixed struct {
	name  string
	val   []byte
	known bool
}

func newEnvelope() envelope {
	mk := func(name string) fixed { return fixed{name: name, val: make([]byte, 0, 96)} }
	return envelope{schema: mk("schema"), stream: mk("stream_id"), conv: mk("conversation_id")}
}

// check: schema, event_id (an integer), stream_id, server_timestamp and kind
// are required (§6.1 and the schema's PublicSseEventBase); the context
// fields are recommended and "may be null early in the stream" (§6.2), so
// only their drift is checked.
func (e *envelope) check(f *decode.Frame, m *invariants.Mapping, fs *faults) {
	schema := f.Get("schema")
	fs.want(schema, decode.KindString, "schema")
	fs.wantInt(f.Get("event_id"), "event_id")
	stream := f.Get("stream_id")
	fs.want(stream, decode.KindString, "stream_id")
	fs.want(f.Get("server_timestamp"), decode.KindString, "server_timestamp")
	fs.want(f.Get("kind"), decode.KindString, "kind")

	e.schema.see(m, schema)
	e.stream.see(m, stream)
	// A conversation_id of "unknown" is the reference routers' placeholder
	// until the service names the conversation (chat/router.py
	// last_conversation_id): not yet known, like null.
	if conv := f.Get("conversation_id"); !conv.StrEq("unknown") {
		e.conv.see(m, conv)
	}
}

// see raises envelope-drift on the frame where a string value differs from
// the one before it, then follows the new value (one alarm per change).
// Absent, null and non-string values say nothing (payload-malformed covers
// the required ones). response_id is not tracked: it is null early and a
// workflow stream carries one per step.
func (x *fixed) see(m *invariants.Mapping, v decode.Raw) {
	if v.Kind() != decode.KindString {
		return
	}
	if x.known && !bytes.Equal(x.val, v) {
		m.Raise("envelope-drift", invariants.SevError, "%s changed from %s to %s within the stream",
			x.name, decode.Clip(string(x.val), 60), decode.Clip(string(v), 60))
	}
	x.val = append(x.val[:0], v...)
	x.known = true
}

// leak raises internal-leak for raw provider objects at the top level of
// an event (§3 "no payload, no raw_event"; §7.2). A null carries nothing
// and is not a leak.
func leak(f *decode.Frame, m *invariants.Mapping) {
	raw, payload := present(f.Get("raw_event")), present(f.Get("payload"))
	switch {
	case raw && payload:
		m.Raise("internal-leak", invariants.SevError, "the event carries raw_event and payload; public streams are derived-only")
	case raw:
		m.Raise("internal-leak", invariants.SevError, "the event carries raw_event; public streams are derived-only")
	case payload:
		m.Raise("internal-leak", invariants.SevError, "the event carries payload; public streams are derived-only")
	}
}

func present(r decode.Raw) bool { return r.Kind() != decode.KindNone && r.Kind() != decode.KindNull }

// leakedKind: a kind that is a raw provider event type — the Responses API's
// response.* (e.g. response.reasoning_text.delta, the full reasoning the
// milestone keeps server-only) or the Agents SDK's raw_response_event.
func leakedKind(kind decode.Raw) bool {
	k := inner(kind)
	return bytes.HasPrefix(k, []byte("response.")) || string(k) == "raw_response_event"
}
