package pipeline_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// TestStagesHandOffTinyBlocks: a stream that turns into a flood of tiny
// blocks goes on in tiny batches when they are bare, and is handed from the
// two stages to one (tinyMean) when they are not, mid-stream; every
// item the handlers see — index, offset, turn, each alarm with its message
// — and the report are the same as on one core, before, across and after
// the handoff (comments, ids, invalid UTF-8, empty data, [DONE], typed
// events, valid turns and a truncated tail included).
func TestStagesHandOffTinyBlocks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flood string // the block most of the flood repeats
		// handoff: the flood goes inline (its blocks are not bare);
		// else it travels in tiny batches (pipeline_tiny.go).
		handoff bool
	}{
		{"bare blocks in tiny batches", "data: x\n\n", false},
		{"small objects handed over", "data: {\"a\":1}\n\n", true},
		{"comments handed over", ": c\n\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) { testStagesTinyFlood(t, tc.flood, tc.handoff) })
	}
}

func testStagesTinyFlood(t *testing.T, flood string, handoff bool) {
	var b strings.Builder
	turn := func(rid string, n int) {
		env := `"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"` + rid + `"`
		fmt.Fprintf(&b, "event: response_id\ndata: {\"event_type\":\"response_id\",%s}\n\n", env)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "event: text\ndata: {\"event_type\":\"text\",%s,\"chunk\":\"w%d \"}\n\n", env, i)
		}
		fmt.Fprintf(&b, "event: completed\ndata: {\"event_type\":\"completed\",%s}\n\ndata: [DONE]\n\n", env)
	}
	turn("resp_a", 30)
	for i := 0; i < 60_000; i++ {
		switch {
		case i%5000 == 0:
			b.WriteString(": keep-alive\n\n")
		case i%7919 == 0:
			b.WriteString("data: {}\n\n")
		case i%7001 == 0:
			b.WriteString("id: 7\ndata: x\n\n")
		case i%6007 == 0:
			b.WriteString("data: \xff\n\n")
		case i%5003 == 0:
			b.WriteString("data:\n\n")
		case i%4001 == 0:
			b.WriteString("data: [DONE]\n\n")
		case i%3001 == 0:
			b.WriteString("event: text\ndata: x\n\n")
		default:
			b.WriteString(flood)
		}
	}
	turn("resp_b", 3000) // large blocks again: read inline, as handed over
	b.WriteString("data: {\"event_type\":\"text\"")
	// The stream as a file, and as a timed capture: chunks of 3000 bytes
	// arriving 1 ms apart (a run of identical blocks ends with its chunk).
	path := filepath.Join(t.TempDir(), "handoff.sse")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var timed strings.Builder
	timed.WriteString(sessiontest.JSONLHeader + "\n")
	for i, at := 0, 0; at < b.Len(); i, at = i+1, at+3000 {
		chunk, _ := json.Marshal(b.String()[at:min(at+3000, b.Len())])
		fmt.Fprintf(&timed, `{"t":%.3f,"data":%s}`+"\n", float64(i)/1000, chunk)
	}
	timedPath := filepath.Join(t.TempDir(), "handoff.jsonl")
	if err := os.WriteFile(timedPath, []byte(timed.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{path, timedPath} {
		t.Run(filepath.Ext(path), func(t *testing.T) { compareStagesOnFlood(t, path, handoff) })
	}
}

func compareStagesOnFlood(t *testing.T, path string, handoff bool) {
	run := func(procs int) string {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var out strings.Builder
		rep, err := report.CheckWith(c, invariants.Options{Dialect: "pc3"}, itemWriter(&out, false))
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"json", "text", "junit"} {
			sessiontest.WriteReport(t, rep, format, &out)
		}
		return out.String()
	}
	inline := run(1)
	handoffs, tiny := pipeline.StageHandoffs.Load(), pipeline.StageTinyBatches.Load()
	staged := run(2)
	handoffs, tiny = pipeline.StageHandoffs.Load()-handoffs, pipeline.StageTinyBatches.Load()-tiny
	switch {
	case handoff && handoffs == 0:
		t.Fatal("the staged run never handed the flood over")
	case !handoff && handoffs != 0:
		t.Fatal("the staged run handed a flood of bare blocks over instead of sending tiny batches")
	case !handoff && tiny == 0:
		t.Fatal("the staged run sent no tiny batch")
	}
	if inline != staged {
		il, sl := strings.Split(inline, "\n"), strings.Split(staged, "\n")
		for i := range min(len(il), len(sl)) {
			if il[i] != sl[i] {
				t.Fatalf("line %d differs (of %d / %d):\n inline %s\n staged %s", i, len(il), len(sl), il[i], sl[i])
			}
		}
		t.Fatalf("inline has %d lines, staged %d", len(il), len(sl))
	}
}

// itemWriter is a handler writing every item the pipeline hands on (each
// field of its block and frame, each alarm with its message) and every
// stream alarm to out, a line each, for comparing two runs.
func itemWriter(out *strings.Builder, oneStage bool) pipeline.Handler {
	return pipeline.Handler{
		OneStage: oneStage,
		OnItem: func(it *pipeline.Item) {
			ev := it.Event
			fmt.Fprintf(out, "%d %d %d %q %q %q %q %v %v %q %v %d %v|", ev.Offset, it.Turn, ev.Size, it.TurnKey,
				ev.Raw, ev.Data, ev.LastEventID, ev.Data == nil, ev.HasData, ev.Type, ev.HasID, len(ev.Comments), it.Arrival)
			if f := it.Frame; f != nil {
				fmt.Fprintf(out, "f%d %v %q %v %v %d %q|", f.Index, f.Problem, f.ProblemDetail(), f.Done, f.InvalidUTF8, len(f.Members), f.Get("event_type"))
			}
			for _, a := range it.Alarms {
				fmt.Fprintf(out, "%s %d %d %s|", a.Rule, a.Frame, a.Turn, a.Message)
			}
			out.WriteByte('\n')
		},
		OnAlarms: func(as []invariants.Alarm) {
			for _, a := range as {
				fmt.Fprintf(out, "stream %s %s\n", a.Rule, a.Message)
			}
		},
	}
}
