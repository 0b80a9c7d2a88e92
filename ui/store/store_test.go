package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/invariants"
)

func TestStoreHappyTimeTravel(t *testing.T) {
	st := storeOf(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")))
	if st.Frames != 13 || st.Len() != 13 || len(st.Turns) != 1 {
		t.Fatalf("frames %d rows %d turns %d", st.Frames, st.Len(), len(st.Turns))
	}
	tr := st.Turns[0]
	if tr.RID != "resp_tc1" || tr.Terminal != invariants.TerminalCompleted || tr.TerminalFrame != 11 || !tr.Done {
		t.Errorf("turn %+v", tr)
	}
	if st.End == nil || st.End.Kind != "eof" || st.Conn != ConnEnded || st.HTTPStatus != 200 {
		t.Errorf("end %+v conn %v status %d", st.End, st.Conn, st.HTTPStatus)
	}
	if !st.HasFirstArrival || st.FirstArrival != 4*time.Millisecond {
		t.Errorf("TTFE %v", st.FirstArrival)
	}
	// Tools: call_5 opens at frame 4, completes at 5.
	for _, tc := range []struct {
		n        int
		count    int
		openAtN  bool
		statusID string
		text     string
		comps    int
		loaded   bool
	}{
		{2, 0, false, "", "", 0, false},
		{3, 0, false, "searching_offers", "", 0, false},
		{4, 1, true, "searching_offers", "", 0, false},
		{5, 1, false, "searching_offers", "", 0, false},
		{6, 1, false, "searching_offers", "", 1, false},
		{7, 1, false, "searching_offers", "", 1, true},
		{8, 1, false, "searching_offers", "Here are some offers ", 1, true},
		{12, 1, false, "searching_offers", "Here are some offers near you...", 1, true},
	} {
		lo, hi := st.ToolsAsOf(0, tc.n)
		if hi-lo != tc.count {
			t.Errorf("as of %d: %d tools, want %d", tc.n, hi-lo, tc.count)
		} else if tc.count > 0 && st.Tools[lo].OpenAt(tc.n) != tc.openAtN {
			t.Errorf("as of %d: open %v", tc.n, st.Tools[lo].OpenAt(tc.n))
		}
		slo, shi := st.StatusesAsOf(0, tc.n)
		got := ""
		if shi > slo {
			got = st.Statuses[shi-1].EventID
		}
		if got != tc.statusID {
			t.Errorf("as of %d: status %q, want %q", tc.n, got, tc.statusID)
		}
		if txt, _, _ := st.TextAsOf(0, tc.n, 0); txt != tc.text {
			t.Errorf("as of %d: text %q, want %q", tc.n, txt, tc.text)
		}
		clo, chi := st.CompsAsOf(0, tc.n)
		if chi-clo != tc.comps {
			t.Errorf("as of %d: %d comps, want %d", tc.n, chi-clo, tc.comps)
		} else if tc.comps > 0 && st.Comps[clo].LoadedAt(tc.n) != tc.loaded {
			t.Errorf("as of %d: loaded %v", tc.n, st.Comps[clo].LoadedAt(tc.n))
		}
	}
	sp := st.Tools[0]
	if sp.Name != "search_offers" || sp.ID != "call_5" || sp.Start != 4 || sp.End != 5 || sp.EndAt-sp.StartAt != 800*time.Millisecond {
		t.Errorf("span %+v", sp)
	}
}

func TestStoreAlarmsAttachToRows(t *testing.T) {
	st := storeOf(t, openSource(t, filepath.Join(examples, "example-broken.sse")))
	if st.Counts != (invariants.Counts{Error: 4, Warn: 1, Info: 1}) {
		t.Errorf("counts %+v", st.Counts)
	}
	var rows []string
	for _, a := range st.Alarms {
		rows = append(rows, fmt.Sprintf("%s@%d", a.Rule, a.Row))
	}
	want := "status-prose@2 client-divergence@2 tool-unfinished@5 component-unfilled@5 after-terminal@6 response-id-frame@7"
	if got := strings.Join(rows, " "); got != want {
		t.Errorf("alarms\n got %s\nwant %s", got, want)
	}
	if st.Row(2).MaxSev != invariants.SevError || len(st.Row(2).Alarms) != 2 {
		t.Errorf("row 2: %v %v", st.Row(2).MaxSev, st.Row(2).Alarms)
	}
	for _, tc := range []struct{ from, dir, want int }{{-1, 1, 2}, {2, 1, 5}, {5, 1, 6}, {6, -1, 5}, {2, -1, -1}, {6, 1, 7}, {7, 1, -1}} {
		got, ok := st.NextAlarmRow(tc.from, tc.dir)
		if !ok {
			got = -1
		}
		if got != tc.want {
			t.Errorf("NextAlarmRow(%d, %d) = %d, want %d", tc.from, tc.dir, got, tc.want)
		}
	}
	// An alarm of no single frame, raised while reading [DONE], points at
	// that row (to jump to) but keeps its NoFrame.
	if a := st.Alarms[5]; a.Frame != invariants.NoFrame {
		t.Errorf("response-id-frame frame %d", a.Frame)
	}
	// Untimed SSE: times come from the envelope timestamps.
	if r := st.Row(1); !r.HasAt || r.At != 100*time.Millisecond {
		t.Errorf("row 1 time %v %v", r.At, r.HasAt)
	}
	// The open tool is still open at the terminal (time travel to the end).
	lo, hi := st.ToolsAsOf(0, 7)
	if hi-lo != 1 || !st.Tools[lo].OpenAt(7) {
		t.Errorf("call_5 should stay open: %+v", st.Tools[lo:hi])
	}
}

func TestStoreTurnsAndNonFrameRows(t *testing.T) {
	var b strings.Builder
	b.WriteString(": keepalive\n\n")
	b.WriteString(frame("response_id", "r1", 0, ""))
	b.WriteString(frame("tool_call", "r1", 10, `,"tool_call":{"id":"c1","name":"a","type":"mcp"}`))
	b.WriteString("id: 7\nretry: 100\n\n")
	b.WriteString(frame("tool_completed", "r1", 20, `,"tool_call":{"id":"c1","name":"a","type":"mcp"}`))
	b.WriteString(frame("completed", "r1", 30, ""))
	b.WriteString("data: [DONE]\n\n")
	b.WriteString(frame("response_id", "r2", 40, ""))
	b.WriteString(frame("tool_call", "r2", 50, `,"tool_call":{"id":"c1","name":"b","type":"mcp"}`))
	b.WriteString(frame("tool_completed", "r2", 60, `,"tool_call":{"id":"zz","name":"b","type":"mcp"}`))
	b.WriteString("event: text\ndata: {\"event_type\":\"te")
	st := storeOf(t, readerSource(t, "two.sse", b.String()))
	var kinds []string
	for i := 0; i < st.Len(); i++ {
		r := st.Row(i)
		kinds = append(kinds, fmt.Sprintf("%d:%d:%d", r.Kind, r.Frame, r.Turn))
	}
	want := "1:-1:-1 0:0:0 0:1:0 2:1:0 0:2:0 0:3:0 0:4:0 0:5:1 0:6:1 0:7:1 3:7:1"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("rows (kind:frame:turn)\n got %s\nwant %s", got, want)
	}
	if len(st.Turns) != 2 || st.Turns[1].FirstFrame != 5 || st.Turns[1].RID != "r2" || st.Turns[1].Terminal != invariants.NotTerminal {
		t.Fatalf("turns %+v", st.Turns)
	}
	// Turn 1 reuses id c1: its own span, still open; zz is an orphan.
	lo, hi := st.ToolsOfTurn(1)
	if hi-lo != 2 || st.Tools[lo].Name != "b" || !st.Tools[lo].OpenAt(7) || !st.Tools[lo+1].Orphan {
		t.Errorf("turn 1 tools %+v", st.Tools[lo:hi])
	}
	lo, hi = st.ToolsOfTurn(0)
	if hi-lo != 1 || st.Tools[lo].End != 2 {
		t.Errorf("turn 0 tools %+v", st.Tools[lo:hi])
	}
	// The truncated tail carries the sse-truncated alarm.
	last := st.Len() - 1
	if len(st.Row(last).Alarms) != 1 || st.Alarms[st.Row(last).Alarms[0]].Rule != "sse-truncated" {
		t.Errorf("truncated row alarms %v", st.Row(last).Alarms)
	}
	if !strings.Contains(st.Row(3).Summary, "id=7") || !strings.Contains(st.Row(3).Summary, "retry=100") {
		t.Errorf("block summary %q", st.Row(3).Summary)
	}
}

// TestFeederBatchesNeverDrop: a flood of frames arrives in few batches,
// at most one per interval unless it is full (pendMax rows: the pipeline
// waits for it to go, so it goes at once), and every frame is in them.
func TestFeederBatchesNeverDrop(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(frame("response_id", "r", 0, ""))
	for i := 0; i < n; i++ {
		b.WriteString(frame("text", "r", 1, fmt.Sprintf(`,"chunk":"w%d "`, i)))
	}
	b.WriteString(frame("completed", "r", 2, ""))
	b.WriteString("data: [DONE]\n\n")

	var mu sync.Mutex
	var sends []time.Time
	var sizes []int
	st := NewStore()
	// A slow program: every batch takes 5ms to take in.
	send := func(b *Batch) {
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		sends = append(sends, time.Now())
		sizes = append(sizes, len(b.Rows))
		st.Apply(b)
		mu.Unlock()
	}
	const interval = 20 * time.Millisecond
	f := Start(context.Background(), readerSource(t, "flood.sse", b.String()), send, interval)
	select {
	case <-f.Sent():
	case <-time.After(20 * time.Second):
		t.Fatal("feeder never finished")
	}
	if st.Frames != n+3 || st.Len() != n+3 {
		t.Fatalf("got %d frames, %d rows, want %d", st.Frames, st.Len(), n+3)
	}
	txt, _, k := st.TextAsOf(0, n+3, 0)
	if k != n || !strings.HasPrefix(txt, "w0 w1 ") || !strings.HasSuffix(txt, fmt.Sprintf("w%d ", n-1)) {
		t.Errorf("text frames %d", k)
	}
	if tail, total, _ := st.TextAsOf(0, n+3, 10); len(tail) > 10 || total != len(txt) || !strings.HasSuffix(txt, tail) {
		t.Errorf("tail %q of %d", tail, total)
	}
	for i := 1; i < len(sends); i++ {
		if d := sends[i].Sub(sends[i-1]); d < interval && sizes[i] < pendMax {
			t.Errorf("batches %d and %d only %v apart (%d rows)", i-1, i, d, sizes[i])
		}
	}
	if len(sends) > 50 {
		t.Errorf("%d batches for %d frames", len(sends), n)
	}
	if st.End == nil || st.End.Kind != "eof" {
		t.Errorf("end %+v", st.End)
	}
}
