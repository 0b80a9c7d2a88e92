package invariants_test

import (
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// timedRun feeds the toy dialect one frame per (arrival seconds, members)
// pair and ends the stream; it returns every alarm and the checker.
func timedRun(t *testing.T, opts invariants.Options, at []float64, objs []string) ([]invariants.Alarm, invariants.Checker) {
	t.Helper()
	chk := toySpec(invariants.Shape{Turns: invariants.TurnPerStream, StartRequired: true}).NewChecker(opts)
	var dec decode.Decoder
	var all []invariants.Alarm
	for i, o := range objs {
		data := "{" + o + "}"
		ev := &decode.Event{Data: []byte(data), HasData: true, Raw: []byte("data: " + data + "\n\n")}
		if at == nil {
			all = append(all, chk.Observe(dec.Decode(ev, 0, false))...)
			continue
		}
		all = append(all, chk.Observe(dec.Decode(ev, dur(at[i]), true))...)
	}
	all = append(all, chk.End(invariants.End{Kind: invariants.EndEOF})...)
	return all, chk
}

// paced: a start, n text deltas every step seconds from first, an end.
func paced(first, step float64, n int) ([]float64, []string) {
	at := []float64{first * 0.5}
	objs := []string{`"op":"start"`}
	for i := 0; i < n; i++ {
		at = append(at, first+float64(i)*step)
		objs = append(objs, `"op":"text","text":"abcd"`)
	}
	at = append(at, first+float64(n)*step)
	objs = append(objs, `"op":"end"`)
	return at, objs
}

func rules(as []invariants.Alarm) string {
	var r []string
	for _, a := range as {
		r = append(r, a.Rule)
	}
	return strings.Join(r, " ")
}

func TestTimingFigures(t *testing.T) {
	at, objs := paced(1, 0.1, 20)
	as, chk := timedRun(t, invariants.Options{}, at, objs)
	if len(as) != 0 {
		t.Fatalf("a clean paced turn raised %v", dialecttest.Lines(as))
	}
	tm := chk.Turns()[0].Timing
	if !tm.Timed || !tm.FromResponse || !tm.HasContent || !tm.HasTerminal {
		t.Fatalf("timing %+v", tm)
	}
	// The first content is frame 1 at 1 s, not the start frame at 0.5 s.
	if tm.FirstFrame != dur(0.5) || tm.FirstContent != dur(1) {
		t.Errorf("first frame %s, first content %s", tm.FirstFrame, tm.FirstContent)
	}
	if tm.Chunks != 20 || tm.Chars != 80 || tm.Frames != 22 || tm.Reads != 22 {
		t.Errorf("chunks %d chars %d frames %d reads %d", tm.Chunks, tm.Chars, tm.Frames, tm.Reads)
	}
	near := func(a, b time.Duration) bool { d := a - b; return d > -time.Millisecond && d < time.Millisecond }
	if !near(tm.GapP50, dur(0.1)) || !near(tm.GapMax, dur(0.1)) || !near(tm.PerChunk, dur(0.1)) || !near(tm.Tail, dur(0.1)) {
		t.Errorf("gaps p50 %s max %s per chunk %s tail %s", tm.GapP50, tm.GapMax, tm.PerChunk, tm.Tail)
	}
	if tm.ChunksPerSec < 9.9 || tm.ChunksPerSec > 10.1 || tm.CharsPerSec < 41 || tm.CharsPerSec > 43 {
		t.Errorf("rates %.2f/s %.2f chars/s", tm.ChunksPerSec, tm.CharsPerSec)
	}
}

func TestTimingUntimed(t *testing.T) {
	_, objs := paced(1, 0.1, 20)
	as, chk := timedRun(t, invariants.Options{MaxFirstContent: time.Nanosecond, MaxGap: time.Nanosecond, MinRate: 1e9}, nil, objs)
	if len(as) != 0 || chk.Turns()[0].Timing.Timed {
		t.Errorf("untimed: alarms %v, timing %+v", dialecttest.Lines(as), chk.Turns()[0].Timing)
	}
}

func TestTimingBuffered(t *testing.T) {
	// Everything arrives at 3 s, within a millisecond.
	at, objs := paced(3, 0.00005, 20)
	at[0] = 3
	as, chk := timedRun(t, invariants.Options{TTFE: -1}, at, objs)
	if rules(as) != "delivery-buffered" {
		t.Fatalf("got %v", dialecttest.Lines(as))
	}
	if !strings.Contains(as[0].Message, "likely cause") {
		t.Errorf("message %q", as[0].Message)
	}
	if tm := chk.Turns()[0].Timing; tm.Burst != 22 {
		t.Errorf("burst %d", tm.Burst)
	}
	// The same frames over a fast response are not buffered: it took no time.
	at, objs = paced(0.001, 0.00005, 20)
	if as, _ := timedRun(t, invariants.Options{}, at, objs); len(as) != 0 {
		t.Errorf("fast turn: %v", dialecttest.Lines(as))
	}
}

func TestTimingCauseAndCompressed(t *testing.T) {
	x := &invariants.Exchange{ResponseHeaders: map[string]string{"content-encoding": "gzip", "Via": "1.1 edge"}}
	at, objs := paced(3, 0.00005, 20)
	at[0] = 3
	as, _ := timedRun(t, invariants.Options{TTFE: -1, Exchange: x}, at, objs)
	if rules(as) != "delivery-buffered" || !strings.Contains(as[0].Message, "Content-Encoding: gzip") || !strings.Contains(as[0].Message, "Via: 1.1 edge") {
		t.Fatalf("got %v %q (compression named as the cause: no delivery-compressed)", dialecttest.Lines(as), as[0].Message)
	}
	at, objs = paced(0.5, 0.1, 10)
	as, _ = timedRun(t, invariants.Options{Exchange: x}, at, objs)
	if rules(as) != "delivery-compressed" || as[0].Severity != invariants.SevInfo {
		t.Errorf("paced and compressed: %v", dialecttest.Lines(as))
	}
	if as, _ := timedRun(t, invariants.Options{Exchange: x}, nil, objs); len(as) != 0 {
		t.Errorf("untimed and compressed: %v", dialecttest.Lines(as))
	}
}

func TestTimingStallAndBudgets(t *testing.T) {
	at, objs := paced(0.5, 0.1, 10)
	for i := 6; i < len(at); i++ {
		at[i] += 6 // a 6.1 s content gap between frames 5 and 6
	}
	as, chk := timedRun(t, invariants.Options{}, at, objs)
	if got := dialecttest.Lines(as); strings.Join(got, "|") != "delivery-stall warn 6" {
		t.Errorf("stall: %v", got)
	}
	if tm := chk.Turns()[0].Timing; tm.Stalls != 1 || tm.GapMaxFrom != 5 || tm.GapMaxTo != 6 || tm.GapP95 <= tm.GapP50 {
		t.Errorf("timing %+v", tm)
	}
	// --stall 10s: no stall; the budgets each raise one error.
	as, _ = timedRun(t, invariants.Options{Stall: 10 * time.Second, MaxFirstContent: 100 * time.Millisecond, MaxGap: 3 * time.Second, MinRate: 20}, at, objs)
	if got := dialecttest.Lines(as); strings.Join(got, "|") != "budget-first-content error 1|budget-gap error 6|budget-rate error -" {
		t.Errorf("budgets: %v", got)
	}
	// A silence idle-gap names is not a second alarm.
	as, _ = timedRun(t, invariants.Options{Idle: 5 * time.Second}, at, objs)
	if rules(as) != "idle-gap" {
		t.Errorf("idle: %v", dialecttest.Lines(as))
	}
}

// TestTimingNotBufferedWhenSpread: frames in two reads far apart (a tool's
// wait between two writes) are not a buffered turn; most of them in one
// read after the wait are.
func TestTimingNotBufferedWhenSpread(t *testing.T) {
	at, objs := paced(0.1, 0, 10)
	for i := 5; i < len(at); i++ {
		at[i] = 4 // frames 0–4 at 0.1 s, 5–11 at 4 s: 7 of 12 together
	}
	if as, _ := timedRun(t, invariants.Options{Stall: -1}, at, objs); len(as) != 0 {
		t.Errorf("two spread reads: %v", dialecttest.Lines(as))
	}
	for i := 2; i < len(at); i++ {
		at[i] = 4 // 10 of 12 together
	}
	if as, _ := timedRun(t, invariants.Options{Stall: -1}, at, objs); rules(as) != "delivery-buffered" {
		t.Errorf("one read after the wait: %v", dialecttest.Lines(as))
	}
}

// TestTimingToolWaitIsNoStall: a tool's run between its call and its
// result is the turn waiting on the tool, not on delivery: after Resume
// the next gap counts from the result, and no stall is counted.
func TestTimingToolWaitIsNoStall(t *testing.T) {
	var tm invariants.Timing
	tm.Start(true, invariants.DefaultStall)
	tm.Frame(0, 10*time.Millisecond, true, 0) // tool_call
	if gap, _ := tm.Frame(1, 12*time.Second, false, 0); gap != 0 {
		t.Fatalf("a result is no content, yet closed a gap of %s", gap)
	}
	if !invariants.ResumesContent([]invariants.Move{{Kind: invariants.MoveToolClose}}) || invariants.ResumesContent([]invariants.Move{{Kind: invariants.MoveProgress}}) {
		t.Fatal("ResumesContent reads the wrong moves")
	}
	tm.Resume(1, 12*time.Second)
	gap, from := tm.Frame(2, 12100*time.Millisecond, true, 5)
	if gap != 100*time.Millisecond || from != 1 {
		t.Fatalf("gap %s from frame %d, want 100ms from the result", gap, from)
	}
	if s := tm.Summary(); s.Stalls != 0 || s.GapMax != 100*time.Millisecond {
		t.Fatalf("stalls %d, max gap %s", s.Stalls, s.GapMax)
	}
}
