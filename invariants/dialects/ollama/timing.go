package ollama

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// readTiming hands the timing what an Ollama line says of time
// (docs/timing.md): every line's created_at (api/types.go
// ChatResponse.CreatedAt / GenerateResponse.CreatedAt, a Go time.Time:
// RFC 3339 with nanoseconds, stamped as the server writes the line), and on
// the done line eval_count (the output tokens, api/types.go Metrics) and
// eval_duration (nanoseconds the server spent generating them: Ollama's
// own rate, shown beside the one measured on arrival). ollama.com's cloud
// leaves eval_duration out: then only the measured rate.
func readTiming(f *decode.Frame, m *invariants.Mapping, done bool) {
	if !m.WantsTiming() {
		return
	}
	m.StampRFC3339(invariants.StampMember(f, "created_at"))
	if !done {
		return
	}
	if n, ok := invariants.Int(f.Get("eval_count")); ok {
		m.Usage(n)
	}
	if d, ok := invariants.Int(f.Get("eval_duration")); ok {
		m.GenerationTime(time.Duration(d))
	}
}
