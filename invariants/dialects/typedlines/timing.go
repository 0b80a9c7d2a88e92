package typedlines

import (
	"framescope/decode"
	"framescope/invariants"
)

// readStamp hands the timing a frame's timestamp
// (docs/timing.md): the spec's "SSE Event Types"
// examples give log events a timestamp in Unix milliseconds
// ({"type":"log","content":…,"timestamp":1734567890123}); text, data and
// done carry none in the examples, so the stamps span the log phase; a
// server that stamps every frame is read on every frame.
func readStamp(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	m.StampUnixMillis(f.Get("timestamp"))
}
