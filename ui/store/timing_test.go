package store

import (
	"path/filepath"
	"testing"
	"time"
)

// The store's timing of a turn is the checker's: example-happy.jsonl's
// check report says first content 404ms (the tool call: the bare thinking
// frame at 104ms is an indicator), 2.504s to the terminal, 3 deltas,
// the longest gap 800ms between frames 5 and 8 (the tool's run between
// its call at 4 and its result at 5 is no content gap), 12 frames (the
// [DONE] after the terminal is not the turn's delivery).
func TestStoreTimingMatchesTheChecker(t *testing.T) {
	st := storeOf(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")))
	if !st.Timed(0) || st.Timed(1) {
		t.Fatalf("timed: turn 0 %v, turn 1 %v", st.Timed(0), st.Timed(1))
	}
	s := st.TimingAsOf(0, 12)
	if s.FirstContent != 404*time.Millisecond || s.Duration != 2504*time.Millisecond || !s.HasTerminal ||
		s.Chunks != 3 || s.GapMax != 800*time.Millisecond || s.GapMaxFrom != 5 || s.GapMaxTo != 8 || s.Frames != 12 {
		t.Fatalf("as of the end: %+v", s)
	}
	// Time travel: as of frame 4 (the first content), then back to 1.
	if s := st.TimingAsOf(0, 4); s.Frames != 5 || s.Chunks != 1 || s.HasTerminal {
		t.Errorf("as of frame 4: %+v", s)
	}
	if s := st.TimingAsOf(0, 1); s.Frames != 2 || s.Chunks != 0 {
		t.Errorf("as of frame 1: %+v", s)
	}
	if s := st.TimingAsOf(0, 8); s.Chunks != 2 || s.GapMax != 800*time.Millisecond {
		t.Errorf("as of frame 8: %+v", s)
	}

	c := st.GapChart(0, 8, 25)
	frames := 0
	for _, col := range c.Cols {
		frames += col.Frames
	}
	if frames != 12 || c.Start != 0 || c.End != 2504*time.Millisecond {
		t.Fatalf("chart: %d frames over %s–%s", frames, c.Start, c.End)
	}
	if c.Cursor < 0 || c.Cols[c.Cursor].Frames == 0 {
		t.Errorf("cursor column %d holds no frame", c.Cursor)
	}
	if len(st.DeliveryAlarms(0)) != 0 || len(st.StallsOf(0)) != 0 {
		t.Errorf("a clean turn has delivery alarms or stalls")
	}
}

func TestStoreTimingUntimed(t *testing.T) {
	st := storeOf(t, openSource(t, filepath.Join(examples, "example-happy.sse")))
	if st.Timed(0) {
		t.Fatal("a raw SSE capture has no arrival times")
	}
	if c := st.GapChart(0, 3, 10); c.Cols != nil || c.Cursor != -1 {
		t.Errorf("chart of an untimed turn: %+v", c)
	}
}

// TestStoreTimingUsage: the output tokens the checker read (PC3's usage
// frame: 64) join the figures as of the turn's end, with tokens/s over
// the content span; as of an earlier frame they are not known yet.
func TestStoreTimingUsage(t *testing.T) {
	st := storeOf(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")))
	s := st.TimingAsOf(0, 12)
	if !s.HasUsage || s.OutputTokens != 64 || s.ContentSpan <= 0 || s.TokensPerSec != 64/s.ContentSpan.Seconds() {
		t.Fatalf("as of the end: usage %v, %d tokens at %v/s over %s", s.HasUsage, s.OutputTokens, s.TokensPerSec, s.ContentSpan)
	}
	if s := st.TimingAsOf(0, 4); s.HasUsage {
		t.Errorf("as of frame 4: usage already %+v", s)
	}
}
