package gobus

import (
	"framescope/decode"
	"framescope/invariants"
)

// readStamp hands the timing the event's createdAt
// (docs/timing.md; runtime/streaming/event.go
// Event.CreatedAt, a time.Time the runtime sets as it publishes the event,
// RFC 3339 with a fraction on the wire). The usage event is not read as
// the turn's output tokens: PatchConversations publishes the
// conversation's running totals, not a turn's.
func readStamp(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	m.StampRFC3339(invariants.StampMember(f, "createdAt"))
}
