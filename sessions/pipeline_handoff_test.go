package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"framescope/invariants"
)

// TestStagesHandOffTinyBlocks: a stream that turns into a flood of tiny
// blocks is handed from the two stages to one (tinyMean), mid-stream; every
// item the handlers see — index, offset, turn, each alarm with its message
// — and the report are the same as on one core, before, across and after
// the handoff (comments, ids, invalid UTF-8, empty data, [DONE], typed
// events, valid turns and a truncated tail included).
func TestStagesHandOffTinyBlocks(t *testing.T) {
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
			b.WriteString("data: x\n\n")
		}
	}
	turn("resp_b", 3000) // large blocks again: read inline, as handed over
	b.WriteString("data: {\"event_type\":\"text\"")
	path := filepath.Join(t.TempDir(), "handoff.sse")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(procs int) string {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		c, err := Open(path, OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var out strings.Builder
		rep, err := CheckWith(c, invariants.Options{Dialect: "pc3"}, Handler{
			OnItem: func(it Item) {
				ev := it.Event
				fmt.Fprintf(&out, "%d %d %d %q %q %q %q %v %v %q %v %d %v|", ev.Offset, it.Turn, ev.Size, it.TurnKey,
					ev.Raw, ev.Data, ev.LastEventID, ev.Data == nil, ev.HasData, ev.Type, ev.HasID, len(ev.Comments), it.Arrival)
				if f := it.Frame; f != nil {
					fmt.Fprintf(&out, "f%d %v %q %v %v %d %q|", f.Index, f.Problem, f.ProblemDetail(), f.Done, f.InvalidUTF8, len(f.Members), f.EventType)
				}
				for _, a := range it.Alarms {
					fmt.Fprintf(&out, "%s %d %d %s|", a.Rule, a.Frame, a.Turn, a.Message)
				}
				out.WriteByte('\n')
			},
			OnAlarms: func(as []invariants.Alarm) {
				for _, a := range as {
					fmt.Fprintf(&out, "stream %s %s\n", a.Rule, a.Message)
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"json", "text", "junit"} {
			writeReport(t, rep, format, &out)
		}
		return out.String()
	}
	inline := run(1)
	before := stageHandoffs.Load()
	staged := run(2)
	if stageHandoffs.Load() == before {
		t.Fatal("the staged run never handed the flood over")
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
