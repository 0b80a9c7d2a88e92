package pipeline_test

import (
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// A timed capture (JSONL) whose block ends in a lone CR at the end of a
// chunk: the frame is timed by that chunk, not by the next one, through
// both the staged and the one-stage pipeline, and no ttfe alarm is raised.
func TestLoneCRFrameTimedByItsChunk(t *testing.T) {
	src := `{"framescope_capture": 1, "url": "http://x/", "status": 200, "started_at": "2026-05-15T18:00:00.000Z"}` + "\n" +
		`{"t": 0.1, "data": "data: {\"a\":1}\r\r"}` + "\n" +
		`{"t": 1.6, "data": "\ndata: {\"b\":2}\r\r"}` + "\n" +
		`{"t": 1.7, "data": "\n"}` + "\n"
	for _, oneStage := range []bool{false, true} {
		c, err := capture.OpenReader("in", strings.NewReader(src), capture.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var arrivals []time.Duration
		opts := invariants.Options{TTFE: time.Second}
		h := pipeline.Handler{OneStage: oneStage, OnItem: func(it *pipeline.Item) {
			if it.Frame != nil {
				arrivals = append(arrivals, it.Frame.Arrival)
			}
		}}
		rep, err := report.CheckWith(c, opts, h)
		if err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{100 * time.Millisecond, 1600 * time.Millisecond}
		if len(arrivals) != 2 || arrivals[0] != want[0] || arrivals[1] != want[1] {
			t.Errorf("oneStage=%v: arrivals %v, want %v", oneStage, arrivals, want)
		}
		for _, a := range rep.Alarms {
			if a.Rule == "ttfe" {
				t.Errorf("oneStage=%v: false ttfe alarm: %s", oneStage, a.Message)
			}
		}
	}
}
