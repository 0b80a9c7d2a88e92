package agui

import (
	"framescope/decode"
	"framescope/invariants"
)

// readStamp hands the timing an event's timestamp
// (docs/timing.md; events.ts BaseEventSchema: timestamp,
// an optional number, Unix milliseconds as the TypeScript servers set it
// with Date.now()). Most servers leave it out. AG-UI reports no usage.
func readStamp(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	m.StampUnixMillis(f.Get("timestamp"))
}
