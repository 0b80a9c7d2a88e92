package gobus

import "framescope/invariants"

// stamp hands the timing the event's createdAt (docs/timing.md;
// runtime/streaming/event.go Event.CreatedAt, a time.Time the runtime sets
// as it publishes the event, RFC 3339 with a fraction on the wire). The
// check reads it on every frame anyway (time_fields.go: a createdAt the
// client's time.Time refuses drops the event), so the timing parses
// nothing of its own. The usage event is not read as the turn's output
// tokens: PatchConversations publishes the conversation's running totals,
// not a turn's.
func stamp(m *invariants.Mapping, at invariants.Instant) {
	if m.WantsTiming() {
		m.Stamp(at, 0)
	}
}
