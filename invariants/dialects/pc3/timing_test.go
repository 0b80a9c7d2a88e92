package pc3

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// checkTimed runs a stream whose frame i arrived at at(i) and returns its
// alarms ("rule severity frame: message") and turns.
func checkTimed(t *testing.T, stream string, opts invariants.Options, at func(i int) time.Duration) ([]string, []invariants.Turn) {
	t.Helper()
	c := New(opts)
	dec := decode.Decoder{Keys: Keys}
	var got []string
	add := func(as []invariants.Alarm) {
		for _, a := range as {
			got = append(got, fmt.Sprintf("%s %s %d: %s", a.Rule, a.Severity, a.Frame, a.Message))
		}
	}
	fm := decode.NewFramer()
	i := 0
	fm.Feed([]byte(stream), func(ev *decode.Event) {
		if ev.Dispatched() {
			add(c.Observe(dec.Decode(ev, at(i), true)))
			i++
		}
	})
	add(c.End(eof()))
	return got, c.Turns()
}

func delivery(alarms []string) []string {
	var d []string
	for _, a := range alarms {
		if strings.HasPrefix(a, "delivery-") || strings.HasPrefix(a, "budget-") {
			d = append(d, a)
		}
	}
	return d
}

func textTurn(b *turnBuilder, n int) *turnBuilder {
	b.open().f("status", `"data":{"event_id":"searching_offers","message":"Searching..."}`)
	for i := range n {
		b.f("text", fmt.Sprintf(`"chunk":"word%d "`, i))
	}
	return b.completed().done()
}

func TestTimingPacedTurnIsFedAndQuiet(t *testing.T) {
	// 0 response_id, 1 status (not content), 2..11 text, 12 completed, 13 [DONE].
	stream := textTurn(newTurn("r1"), 10).String()
	alarms, turns := checkTimed(t, stream, invariants.Options{}, func(i int) time.Duration {
		return time.Duration(i+1) * 100 * time.Millisecond
	})
	if d := delivery(alarms); len(d) > 0 {
		t.Fatalf("a paced turn raised %v", d)
	}
	tm := turns[0].Timing
	if !tm.Timed || !tm.FromResponse || tm.Chunks != 10 || tm.Frames != 13 || !tm.HasTerminal {
		t.Fatalf("timing = %+v", tm)
	}
	if tm.FirstContent != 300*time.Millisecond { // frame 2, not the status at frame 1
		t.Errorf("first content %s, want 300ms (the first text frame)", tm.FirstContent)
	}
	if tm.Chars != 60 {
		t.Errorf("chars %d, want 60", tm.Chars)
	}
}

func TestTimingUntimedFeedsNothing(t *testing.T) {
	got := check(t, textTurn(newTurn("r1"), 10).String(), invariants.Options{MaxFirstContent: time.Nanosecond}, eof())
	if d := delivery(got); len(d) > 0 {
		t.Fatalf("untimed stream raised %v", d)
	}
}

func TestTimingBufferedByArrival(t *testing.T) {
	stream := textTurn(newTurn("r1"), 10).String()
	alarms, _ := checkTimed(t, stream, invariants.Options{}, func(int) time.Duration { return 3 * time.Second })
	d := delivery(alarms)
	if len(d) != 1 || !strings.HasPrefix(d[0], "delivery-buffered warn -1: its 13 frames arrived in one read though the turn took 3s") {
		t.Fatalf("got %q", d)
	}
}

func TestTimingBufferedByServerStamps(t *testing.T) {
	// The second turn counts from its own first frame, so by arrival alone
	// it took a millisecond; the server stamped it over 6.5 s.
	first := textTurn(newTurn("r1"), 3).String()
	second := textTurn(&turnBuilder{rid: "r2", version: "0.5", ms: 10000, step: 500}, 10).String()
	at := func(i int) time.Duration {
		if i < 7 { // the first turn, paced
			return time.Duration(i+1) * 100 * time.Millisecond
		}
		return 2 * time.Second
	}
	alarms, turns := checkTimed(t, first+second, invariants.Options{}, at)
	d := delivery(alarms)
	if len(d) != 1 || !strings.Contains(d[0], "delivery-buffered warn -1: its 13 frames arrived in one read though the server stamped them over 6s and they came 1.3s after the frame before") {
		t.Fatalf("got %q", d)
	}
	if len(turns) != 2 || !turns[1].Timing.Timed || turns[1].Timing.FromResponse {
		t.Fatalf("second turn's timing missing: %+v", turns)
	}

	// The same arrival with stamps as close as the arrivals: a server that
	// wrote the turn at once (no spread to hold back) is not diagnosed.
	quiet := textTurn(&turnBuilder{rid: "r2", version: "0.5", ms: 10000, step: 1}, 10).String()
	if d := delivery(must(checkTimed(t, first+quiet, invariants.Options{}, at))); len(d) > 0 {
		t.Fatalf("a turn stamped within ms raised %v", d)
	}

	// A replay sending a recording's turns at once, without waiting: the
	// old stamps are spread, but nothing was held on the way.
	fast := func(i int) time.Duration { return time.Duration(i) * time.Microsecond }
	if d := delivery(must(checkTimed(t, first+second, invariants.Options{}, fast))); len(d) > 0 {
		t.Fatalf("a fast replay raised %v", d)
	}
}

func must(a []string, _ []invariants.Turn) []string { return a }

func TestTimingStallAndBudgets(t *testing.T) {
	stream := textTurn(newTurn("r1"), 4).String() // text at frames 2..5
	at := func(i int) time.Duration {
		d := time.Duration(i+1) * 100 * time.Millisecond
		if i >= 4 {
			d += 6 * time.Second // no content between frames 3 and 4
		}
		return d
	}
	opts := invariants.Options{MaxFirstContent: 200 * time.Millisecond, MaxGap: 2 * time.Second}
	d := delivery(must(checkTimed(t, stream, opts, at)))
	want := []string{
		"delivery-stall warn 4: no content for 6.1s (after frame 3) inside the turn (stall bound 5s)",
		"budget-first-content error 2: the first content arrived 300ms after the response started (budget 200ms)",
		"budget-gap error 4: no content for 6.1s between frames 3 and 4 (budget 2s)",
	}
	if strings.Join(d, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(d, "\n"), strings.Join(want, "\n"))
	}

	// The same silence past the idle window is idle-gap's alone.
	opts = invariants.Options{Idle: 3 * time.Second}
	alarms, _ := checkTimed(t, stream, opts, at)
	if d := delivery(alarms); len(d) > 0 || !strings.Contains(strings.Join(alarms, "\n"), "idle-gap warn 4") {
		t.Fatalf("got %q", alarms)
	}
}

// contentOf reads from the type whether AppendMoves maps a frame to
// content, and the turn's characters (counted by contentOf or, for text
// and reasoning, by the payload check) are the moves' characters.
func TestTimingContentOfMatchesMoves(t *testing.T) {
	stream := newTurn("r1").open().f("status", `"data":{"event_id":"searching_offers","message":"Searching..."}`).
		f("thinking", ``).f("thinking", `"content":"hmm","role":"reasoning"`).f("reasoning", `"chunk":"so"`).f("text", `"chunk":"h\u00e9llo \"x\""`).
		f("text", `"chunk":" wörld"`).f("text", `"chunk":" plain ascii"`).
		f("tool_call", `"tool_call":{"id":"c1","name":"search","type":"mcp"}`).
		f("tool_completed", `"tool_call":{"id":"c1","name":"search","type":"mcp"}`).
		f("usage", `"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}`).completed().done().String()
	dec := decode.Decoder{Keys: Keys}
	fm := decode.NewFramer()
	n, chars := 0, 0
	fm.Feed([]byte(stream), func(ev *decode.Event) {
		if !ev.Dispatched() {
			return
		}
		f := dec.Decode(ev, 0, false)
		wc, wn := invariants.ContentOf(AppendMoves(nil, f))
		chars += wn
		if gc, _ := contentOf(f); gc != wc {
			t.Errorf("frame %d (%s): contentOf %v, moves say %v", f.Index, Type(f), gc, wc)
		}
		n++
	})
	if n != 13 || chars == 0 {
		t.Fatalf("%d frames, %d characters", n, chars)
	}
	_, turns := checkTimed(t, stream, invariants.Options{}, func(i int) time.Duration { return time.Duration(i) * 100 * time.Millisecond })
	if len(turns) != 1 || turns[0].Timing.Chars != int64(chars) {
		t.Fatalf("turns %+v: want %d characters", turns, chars)
	}
}
