// Package dialecttest runs SSE text through a dialect's checker for table
// tests, fuzz targets and mutation tests of every dialect. It is imported
// by tests only.
package dialecttest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// Result is what one stream produced.
type Result struct {
	Alarms []invariants.Alarm
	Turns  []invariants.Turn
	// Moves holds every frame's moves, rendered "kind key name text" for
	// assertions (one slice per frame).
	Moves  [][]string
	Frames int
}

// Run checks an SSE body (untimed) with the dialect and ends it at EOF.
func Run(d invariants.Dialect, body string) Result {
	return RunOpts(d, body, invariants.Options{})
}

// RunOpts is Run with checker options.
func RunOpts(d invariants.Dialect, body string, opts invariants.Options) Result {
	chk := d.NewChecker(opts)
	var res Result
	dec := decode.Decoder{Keys: invariants.IndexKeysOf(d)}
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		switch {
		case ev.Dispatched():
			f := dec.Decode(ev, 0, false)
			res.Alarms = append(res.Alarms, chk.Observe(f)...)
			var mv []string
			for _, m := range chk.Moves() {
				mv = append(mv, MoveString(m))
			}
			res.Moves = append(res.Moves, mv)
		case ev.Truncated && ev.HasData:
			res.Alarms = append(res.Alarms, chk.Truncated(ev)...)
		default:
			chk.Block(ev, 0, false)
		}
	}
	fr.Feed([]byte(body), emit)
	fr.Close(emit)
	res.Alarms = append(res.Alarms, chk.End(invariants.End{Kind: invariants.EndEOF})...)
	res.Turns = append(res.Turns, chk.Turns()...)
	res.Frames = dec.NextIndex()
	return res
}

// MoveString renders a move for assertions: its kind, then the fields set.
func MoveString(m invariants.Move) string {
	parts := []string{m.Kind.String()}
	if m.Span != invariants.SpanNone {
		parts = append(parts, "span="+m.Span.String())
	}
	add := func(name string, r decode.Raw) {
		if r != nil {
			parts = append(parts, name+"="+string(r))
		}
	}
	add("key", m.Key)
	add("name", m.Name)
	add("text", m.Text)
	add("code", m.Code)
	if m.Outcome != "" {
		parts = append(parts, "outcome="+m.Outcome)
	}
	if m.Kind == invariants.MoveSeq {
		parts = append(parts, fmt.Sprintf("seq=%d", m.Seq))
	}
	return strings.Join(parts, " ")
}

// Lines renders alarms as sorted "rule severity frame" lines (frame "-"
// when none), the format of the testdata .want files.
func Lines(as []invariants.Alarm) []string {
	out := make([]string, 0, len(as))
	for _, a := range as {
		fr := "-"
		if a.Frame != invariants.NoFrame {
			fr = fmt.Sprint(a.Frame)
		}
		out = append(out, a.Rule+" "+string(a.Severity)+" "+fr)
	}
	sort.Strings(out)
	return out
}

// Serious counts error and warn alarms.
func Serious(as []invariants.Alarm) int {
	n := 0
	for _, a := range as {
		if a.Severity != invariants.SevInfo {
			n++
		}
	}
	return n
}

// Blocks splits an SSE body into its event blocks (each with its blank
// line), for mutation tests. Only LF bodies.
func Blocks(body string) []string {
	var out []string
	for _, b := range strings.SplitAfter(body, "\n\n") {
		if strings.TrimSpace(b) != "" {
			out = append(out, b)
		}
	}
	return out
}

// FuzzMaxInput bounds the bodies a dialect's fuzz target looks at: a
// longer one is cut (with min, which adds no coverage edge: an early
// return would be new coverage for the engine to minimize). The Go engine
// minimizes every input that finds new coverage before going on, counting
// no executions meanwhile ("0 execs/sec"): removing every subset of its
// bytes costs len² runs, up to -fuzzminimizetime (60 s) an input. Seeded
// with whole valid streams (2–4 KB), the targets stalled for most of a
// run; a few frames reach every mapping and rule.
const FuzzMaxInput = 1 << 10

// fuzzSeedMax is the largest seed added as it is; a longer one (a whole
// valid stream) is added as runs of consecutive blocks of at most this
// size, so that every frame of it still seeds the engine.
const fuzzSeedMax = 512

// Fuzz is the body of a dialect's fuzz target: any bytes, no panic, and
// every alarm names a rule the dialect lists.
func Fuzz(f *testing.F, d invariants.Dialect, seeds ...string) {
	for _, s := range seeds {
		for _, part := range seedParts(s) {
			f.Add(part)
		}
	}
	rules := map[string]bool{}
	for _, r := range d.Rules() {
		rules[r.Name] = true
	}
	f.Fuzz(func(t *testing.T, body string) {
		body = body[:min(len(body), FuzzMaxInput)]
		check := func(as []invariants.Alarm) {
			for _, a := range as {
				if !rules[a.Rule] {
					t.Fatalf("alarm %s (%s) is not among the dialect's rules", a.Rule, a.Message)
				}
			}
		}
		// Run's work without rendering every move (Run's tables need it,
		// a fuzz execution does not).
		chk := d.NewChecker(invariants.Options{})
		dec := decode.Decoder{Keys: invariants.IndexKeysOf(d)}
		fr := decode.NewFramer()
		emit := func(ev *decode.Event) {
			switch {
			case ev.Dispatched():
				f := dec.Decode(ev, 0, false)
				// The timeline's labels read every frame too.
				_ = d.Label(f)
				if rl, ok := d.(interface{ RowLabel(*decode.Frame) string }); ok {
					_ = rl.RowLabel(f)
				}
				check(chk.Observe(f))
				_ = chk.Moves()
			case ev.Truncated && ev.HasData:
				check(chk.Truncated(ev))
			default:
				chk.Block(ev, 0, false)
			}
		}
		fr.Feed([]byte(body), emit)
		fr.Close(emit)
		check(chk.End(invariants.End{Kind: invariants.EndEOF}))
	})
}

// seedParts cuts a seed longer than fuzzSeedMax into runs of consecutive
// blocks of at most that size (a longer block is a part by itself).
func seedParts(s string) []string {
	if len(s) <= fuzzSeedMax {
		return []string{s}
	}
	var parts []string
	cur := ""
	for _, b := range Blocks(s) {
		if cur != "" && len(cur)+len(b) > fuzzSeedMax {
			parts = append(parts, cur)
			cur = ""
		}
		cur += b
	}
	if cur != "" {
		parts = append(parts, cur)
	}
	return parts
}

// Detect feeds a body's frames to a detector and returns what it decided
// before the end of the body (nil: still undecided).
func Detect(d *invariants.Detector, body string) invariants.Dialect {
	var got invariants.Dialect
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if got != nil || !ev.Dispatched() {
			return
		}
		if c, ok := d.Feed(decode.DecodeFrame(ev, 0)); ok {
			got = c
		}
	}
	fr.Feed([]byte(body), emit)
	return got
}

// TerminalMutations returns variants of a valid body around the block at
// index term (its terminal): dropped, duplicated, and moved to the front.
func TerminalMutations(body string, term int) map[string]string {
	bs := Blocks(body)
	join := func(parts []string) string { return strings.Join(parts, "") }
	without := append(append([]string(nil), bs[:term]...), bs[term+1:]...)
	dup := append(append(append([]string(nil), bs[:term+1]...), bs[term]), bs[term+1:]...)
	front := append([]string{bs[term]}, without...)
	return map[string]string{"drop terminal": join(without), "duplicate terminal": join(dup), "terminal first": join(front)}
}

// HotPathAllocs checks a dialect's hot path: after the prefix stream (a
// turn opened and warm), observing the hot frame again and again (a text
// delta, say) must allocate nothing, mapping and generic rules together.
func HotPathAllocs(t *testing.T, d invariants.Dialect, prefix, hot string) {
	t.Helper()
	chk := d.NewChecker(invariants.Options{})
	dec := decode.Decoder{Keys: invariants.IndexKeysOf(d)}
	fr := decode.NewFramer()
	var hotEv *decode.Event
	fr.Feed([]byte(prefix), func(ev *decode.Event) {
		if ev.Dispatched() {
			chk.Observe(dec.Decode(ev, 0, false))
		}
	})
	decode.NewFramer().Feed([]byte(hot), func(ev *decode.Event) {
		if hotEv == nil && ev.Dispatched() {
			c := ev.Clone()
			hotEv = &c
		}
	})
	if hotEv == nil {
		t.Fatal("the hot frame is not a dispatched SSE event")
	}
	var alarms int
	n := testing.AllocsPerRun(200, func() {
		alarms += len(chk.Observe(dec.Decode(hotEv, 0, false)))
	})
	if alarms > 0 {
		t.Fatalf("the hot frame raises %d alarms; pick a valid one", alarms)
	}
	if n != 0 {
		t.Errorf("observing the hot frame allocates %.1f times per frame, want 0", n)
	}
}

// WantMoves checks a run's moves frame by frame: want[i] is frame i's
// moves as MoveString renders them, joined by "; " ("" for none).
func WantMoves(t *testing.T, res Result, want []string) {
	t.Helper()
	if len(res.Moves) != len(want) {
		t.Errorf("%d frames, want %d", len(res.Moves), len(want))
	}
	for i := 0; i < min(len(want), len(res.Moves)); i++ {
		if got := strings.Join(res.Moves[i], "; "); got != want[i] {
			t.Errorf("frame %d moves\n got  %q\n want %q", i, got, want[i])
		}
	}
}

// Capture reads testdata/dialects/DIALECT/NAME from a dialect room's tests
// (three folders below the repository's root).
func Capture(t testing.TB, dialect, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "dialects", dialect, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
