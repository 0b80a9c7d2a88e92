package report

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// Stats is the distribution of the turns' timing figures over many
// captures (framescope stats, docs/timing.md "Comparing deploys"): for
// each dialect and flavor, the p50, p95 and max of every figure of the
// JSON report's turns[].timing, so a team can set two providers or two
// deploys side by side. A capture whose turns carry no timing (raw SSE,
// NDJSON dumps) is counted and named, never folded in as zeros.
type Stats struct {
	Captures   int      // reports added
	Untimed    []string // sources of reports with turns but no timing
	NoTurns    []string // sources of reports without a turn (plain SSE, empty)
	Unreadable []string // inputs that could not be read (AddUnreadable)
	groups     map[statsKey]*StatsGroup
}

type statsKey struct{ dialect, flavor string }

// StatsGroup is one dialect and flavor's distribution.
type StatsGroup struct {
	Dialect, Flavor string
	Captures        int // its reports with timed turns
	Turns           int // their turns
	TimedTurns      int // those with timing figures
	figs            [len(statsFigures)]figureSample
}

// statsFigure is one figure of a turn's timing: its JSON key (the
// report's), its text label, whether it is a duration, and its value
// where the turn has one (the same nulls as the JSON report).
type statsFigure struct {
	key, label string
	dur        bool
	of         func(t *invariants.TurnTiming) (float64, bool)
}

func msOf(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

var statsFigures = [...]statsFigure{
	{"time_to_first_byte_ms", "first byte", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.FirstByte), t.HasFirstByte }},
	{"time_to_first_frame_ms", "first frame", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.FirstFrame), true }},
	{"time_to_first_chunk_ms", "first content", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.FirstContent), t.HasContent }},
	{"duration_ms", "duration", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.Duration), true }},
	{"time_per_output_chunk_ms", "per delta", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.PerChunk), t.Chunks > 1 }},
	{"gap_p95_ms", "gap p95", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.GapP95), t.Chunks > 1 }},
	{"gap_max_ms", "gap max", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.GapMax), t.Chunks > 1 }},
	{"last_chunk_to_end_ms", "tail", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.Tail), t.HasContent }},
	{"chunks_per_s", "deltas/s", false, func(t *invariants.TurnTiming) (float64, bool) {
		return t.ChunksPerSec, t.Chunks > 1 && t.ChunksPerSec > 0
	}},
	{"chars_per_s", "chars/s", false, func(t *invariants.TurnTiming) (float64, bool) {
		return t.CharsPerSec, t.Chunks > 1 && t.ChunksPerSec > 0
	}},
	{"tokens_per_s", "tokens/s", false, func(t *invariants.TurnTiming) (float64, bool) {
		return t.TokensPerSec, t.HasUsage && t.ContentSpan > 0
	}},
	{"server_tokens_per_s", "server tok/s", false, func(t *invariants.TurnTiming) (float64, bool) {
		return t.ServerTokensPerSec, t.HasUsage && t.HasGenTime
	}},
	{"stall_ms", "stalled", true, func(t *invariants.TurnTiming) (float64, bool) { return msOf(t.StallTotal), true }},
}

// figureSample keeps a figure's values: every one up to statsExact, then a
// uniform reservoir of that many (the quantiles approximate, the max and
// count exact), so a million turns cost a few MB.
type figureSample struct {
	vals []float64
	n    int
	max  float64
	rng  *rand.Rand
}

const statsExact = 1 << 16

func (f *figureSample) add(v float64) {
	f.n++
	if f.n == 1 || v > f.max {
		f.max = v
	}
	if len(f.vals) < statsExact {
		f.vals = append(f.vals, v)
		return
	}
	if f.rng == nil {
		f.rng = rand.New(rand.NewPCG(1, 2)) // fixed: the same inputs give the same output
	}
	if i := f.rng.IntN(f.n); i < statsExact {
		f.vals[i] = v
	}
}

// quantile is the q-quantile (nearest rank) of the values kept.
func (f *figureSample) quantile(q float64) float64 {
	if len(f.vals) == 0 {
		return 0
	}
	if !sort.Float64sAreSorted(f.vals) {
		slices.Sort(f.vals)
	}
	rank := int(math.Ceil(q*float64(len(f.vals)))) - 1
	return f.vals[max(0, min(rank, len(f.vals)-1))]
}

// Add folds one report's turns into the statistics.
func (s *Stats) Add(r *Report) error {
	s.Captures++
	if r.NumTurns() == 0 {
		s.NoTurns = append(s.NoTurns, r.Source)
		return nil
	}
	if !r.Timed() {
		s.Untimed = append(s.Untimed, r.Source)
		return nil
	}
	if s.groups == nil {
		s.groups = map[statsKey]*StatsGroup{}
	}
	k := statsKey{r.Dialect, r.Flavor}
	g := s.groups[k]
	if g == nil {
		g = &StatsGroup{Dialect: r.Dialect, Flavor: r.Flavor}
		s.groups[k] = g
	}
	g.Captures++
	return r.eachTurn(func(_ int, t *invariants.Turn) error {
		g.Turns++
		if !t.Timing.Timed {
			return nil
		}
		g.TimedTurns++
		for i := range statsFigures {
			if v, ok := statsFigures[i].of(&t.Timing); ok {
				g.figs[i].add(v)
			}
		}
		return nil
	})
}

// AddUnreadable counts an input that could not be read.
func (s *Stats) AddUnreadable(name string) { s.Unreadable = append(s.Unreadable, name) }

// Groups are the dialect and flavor groups, by dialect then flavor.
func (s *Stats) Groups() []*StatsGroup {
	out := make([]*StatsGroup, 0, len(s.groups))
	for _, g := range s.groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dialect != out[j].Dialect {
			return out[i].Dialect < out[j].Dialect
		}
		return out[i].Flavor < out[j].Flavor
	})
	return out
}

// statsNum renders a figure's value: milliseconds to the microsecond, a
// rate to three decimals.
func statsNum(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, math.Round(v*1000)/1000, 'f', -1, 64)
}

// WriteJSON writes the statistics as one JSON object (docs/timing.md).
func (s *Stats) WriteJSON(w io.Writer) error {
	b := fmt.Appendf(nil, `{"captures":%d`, s.Captures)
	list := func(key string, names []string) {
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":[`...)
		for i, n := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = decode.AppendJSONString(b, n)
		}
		b = append(b, ']')
	}
	list("untimed", s.Untimed)
	list("no_turns", s.NoTurns)
	list("unreadable", s.Unreadable)
	b = append(b, `,"groups":[`...)
	for gi, g := range s.Groups() {
		if gi > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"dialect":`...)
		b = decode.AppendJSONString(b, g.Dialect)
		b = append(b, `,"flavor":`...)
		if g.Flavor == "" {
			b = append(b, "null"...)
		} else {
			b = decode.AppendJSONString(b, g.Flavor)
		}
		b = fmt.Appendf(b, `,"captures":%d,"turns":%d,"timed_turns":%d,"figures":{`, g.Captures, g.Turns, g.TimedTurns)
		for i := range statsFigures {
			if i > 0 {
				b = append(b, ',')
			}
			f := &g.figs[i]
			b = fmt.Appendf(b, `"%s":{"n":%d`, statsFigures[i].key, f.n)
			for _, q := range [...]struct {
				k string
				v float64
			}{{"p50", f.quantile(0.5)}, {"p95", f.quantile(0.95)}, {"max", f.max}} {
				b = append(b, `,"`...)
				b = append(b, q.k...)
				b = append(b, `":`...)
				if f.n == 0 {
					b = append(b, "null"...)
				} else {
					b = statsNum(b, q.v)
				}
			}
			b = append(b, '}')
		}
		b = append(b, "}}"...)
	}
	b = append(b, "]}\n"...)
	_, err := w.Write(b)
	return err
}

// WriteText writes the statistics as a table per group.
func (s *Stats) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", plural(s.Captures, "capture"))
	timed := 0
	for _, g := range s.groups {
		timed += g.Captures
	}
	fmt.Fprintf(&b, ", %d timed", timed)
	if n := len(s.Untimed); n > 0 {
		fmt.Fprintf(&b, "; %s untimed (no arrival times: not counted): %s", plural(n, "capture"), names(s.Untimed))
	}
	if n := len(s.NoTurns); n > 0 {
		fmt.Fprintf(&b, "; %s without a turn: %s", plural(n, "capture"), names(s.NoTurns))
	}
	if n := len(s.Unreadable); n > 0 {
		fmt.Fprintf(&b, "; %s unreadable: %s", plural(n, "input"), names(s.Unreadable))
	}
	b.WriteString("\n")
	for _, g := range s.Groups() {
		label := g.Dialect
		if g.Flavor != "" {
			label += " (" + decode.Sanitize(g.Flavor) + ")"
		}
		fmt.Fprintf(&b, "\n%s: %s, %s timed of %d\n", label, plural(g.Captures, "capture"), plural(g.TimedTurns, "turn"), g.Turns)
		fmt.Fprintf(&b, "  %-14s %7s %10s %10s %10s\n", "figure", "turns", "p50", "p95", "max")
		for i := range statsFigures {
			sf, f := &statsFigures[i], &g.figs[i]
			if f.n == 0 {
				fmt.Fprintf(&b, "  %-14s %7d %10s %10s %10s\n", sf.label, 0, "-", "-", "-")
				continue
			}
			v := func(x float64) string {
				if sf.dur {
					return invariants.FormatDur(time.Duration(x * float64(time.Millisecond)))
				}
				return strconv.FormatFloat(math.Round(x*10)/10, 'f', 1, 64)
			}
			fmt.Fprintf(&b, "  %-14s %7d %10s %10s %10s\n", sf.label, f.n, v(f.quantile(0.5)), v(f.quantile(0.95)), v(f.max))
		}
	}
	if len(s.groups) == 0 {
		b.WriteString("no timed turn: record or connect to capture arrival times (framescope record URL)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// names lists sources for the text summary (the first few, sanitized).
func names(ns []string) string {
	const show = 5
	var out []string
	for i, n := range ns {
		if i == show {
			out = append(out, fmt.Sprintf("and %d more", len(ns)-show))
			break
		}
		out = append(out, decode.Sanitize(n))
	}
	return strings.Join(out, ", ")
}
