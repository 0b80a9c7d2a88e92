package publicsse

import (
	"framescope/decode"
	"framescope/invariants"
)

// readStamp hands the timing the event's server_timestamp
// (docs/timing.md; v1.md §6.1: the required
// envelope field, an ISO 8601 date-time the server sets as it emits the
// event). One that does not parse is ignored here: payload-malformed
// judges the envelope.
func readStamp(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	m.StampRFC3339(invariants.StampMember(f, "server_timestamp"))
}
