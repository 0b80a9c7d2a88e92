package invariants

import (
	"time"

	"framescope/decode"
)

// What a mapper tells the timing beyond moves (docs/timing.md): the
// server's timestamp of the frame (Stamp) and the output tokens the
// dialect reports for the turn (Usage, GenerationTime). The Engine takes
// them in timeFrame; a frame without them costs one flag test.

// mappedTiming flags what the mapping said of the frame.
type mappedTiming uint8

const (
	mappedStamp mappedTiming = 1 << iota
	mappedUsage
	mappedGenTime
)

// WantsTiming reports whether the check times the stream (not
// Options.NoTiming): a mapper reads stamps and usage only then.
func (m *Mapping) WantsTiming() bool { return m.e == nil || !m.e.opts.NoTiming }

// Stamp records the server's timestamp of the frame being mapped;
// resolution is how coarse the field is (0 for a fraction of a second,
// time.Second for OpenAI chat's whole-second created). A stamp that did
// not parse is not passed: it is ignored for timing.
func (m *Mapping) Stamp(at Instant, resolution time.Duration) {
	m.stamp, m.stampRes = at, resolution
	m.has |= mappedStamp
}

// StampRFC3339 records the frame's stamp from a JSON string holding an
// RFC 3339 date-time (StampRFC3339, through a cache of the last stamp's
// minute); one that does not parse is ignored.
func (m *Mapping) StampRFC3339(r decode.Raw) {
	if at, ok := m.stampCache.rfc3339(r); ok {
		m.Stamp(at, 0)
	}
}

// StampUnixMillis records the frame's stamp from a JSON number of Unix
// milliseconds (StampUnixMillis); one that does not parse is ignored.
func (m *Mapping) StampUnixMillis(r decode.Raw) {
	if at, ok := StampUnixMillis(r); ok {
		m.Stamp(at, 0)
	}
}

// RFC3339 parses a JSON string holding an RFC 3339 date-time
// (ParseRFC3339) through the mapping's cache of the last stamp's minute,
// without recording it: for a mapper that checks a date-time member
// before it stamps the frame with it.
func (m *Mapping) RFC3339(r decode.Raw) (Instant, bool) { return m.stampCache.rfc3339(r) }

// Usage records the output tokens the dialect reports for the turn of the
// frame being mapped (OpenTelemetry GenAI gen_ai.usage.output_tokens):
// reasoning tokens included where the dialect counts them apart (Gemini's
// thoughtsTokenCount). Reports are cumulative: the latest wins.
func (m *Mapping) Usage(outputTokens int64) {
	if outputTokens < 0 {
		return
	}
	m.usage = outputTokens
	m.has |= mappedUsage
}

// GenerationTime records the server's own time generating the turn's
// output tokens (Ollama's eval_duration): the server-side rate is shown
// beside the one framescope measures.
func (m *Mapping) GenerationTime(d time.Duration) {
	if d <= 0 {
		return
	}
	m.genTime = d
	m.has |= mappedGenTime
}

// Stamp is the server's timestamp of the frame last observed
// (invariants.Stamped), when its mapper read one finer than a second: the
// inspector times the rows of a capture without arrival times by it, and
// whole seconds would put every row of a turn at the same instant.
func (e *Engine) Stamp() (time.Time, bool) {
	if e.m.has&mappedStamp == 0 || e.m.stampRes >= time.Second {
		return time.Time{}, false
	}
	return e.m.stamp.Time(), true
}

// takeUsage hands the usage the mapping read to turn t's timing, also
// after the turn's terminal and after its figures were settled. A frame of
// the stream (Gemini's usage-only chunk after the finish) reports the
// latest turn's.
func (e *Engine) takeUsage(t int) {
	if e.m.has&(mappedUsage|mappedGenTime) == 0 {
		return
	}
	if t < 0 && e.m.Stream {
		t = e.cur
	}
	if t < 0 {
		return
	}
	st := e.stateOf(t)
	if st == nil {
		return
	}
	if e.m.has&mappedUsage != 0 {
		st.timing.Usage(e.m.usage)
	}
	if e.m.has&mappedGenTime != 0 {
		st.timing.GenerationTime(e.m.genTime)
	}
	if i := t - e.base; st.timed && i >= 0 && i < len(e.turns) {
		st.timing.usageInto(&e.turns[i].Timing)
	}
}

// takeStamp records the frame's stamp in turn t's spread (a timed frame of
// the open turn).
func (e *Engine) takeStamp(st *turnState, f *decode.Frame) {
	st.stamps.lastAt = f.Arrival
	if e.m.has&mappedStamp != 0 && f.Decoded() {
		st.stamps.add(e.m.stamp, e.m.stampRes)
	}
}

// Usage records the output tokens reported for the turn (the latest
// report wins: they are cumulative).
func (t *Timing) Usage(outputTokens int64) {
	t.outTokens, t.hasUsage = outputTokens, true
}

// GenerationTime records the server's own generation time for them.
func (t *Timing) GenerationTime(d time.Duration) {
	t.genTime, t.hasGenTime = d, true
}

// usageInto fills the usage figures of s (a Summary of t).
func (t *Timing) usageInto(s *TurnTiming) {
	s.HasUsage, s.OutputTokens = t.hasUsage, t.outTokens
	s.HasGenTime, s.GenTime = t.hasGenTime, t.genTime
	s.TokensPerSec, s.ServerTokensPerSec = 0, 0
	if !t.hasUsage {
		return
	}
	if s.ContentSpan > 0 {
		s.TokensPerSec = float64(t.outTokens) / s.ContentSpan.Seconds()
	}
	if t.hasGenTime {
		s.ServerTokensPerSec = float64(t.outTokens) / t.genTime.Seconds()
	}
}
