package pc3

import (
	"fmt"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// TestIDLimit: a turn opening invariants.MaxOpenIDs+1 tool calls and as
// many placeholders raises id-limit once, at the first open past the
// bound; the closes of untracked ids are no orphans, and the tracked ones
// left open are reported at the terminal, the untracked ones not.
func TestIDLimit(t *testing.T) {
	frame := func(typ, rest string) string {
		return fmt.Sprintf("event: %s\ndata: {\"event_type\":%q,\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"resp_1\"%s}\n\n", typ, typ, rest)
	}
	tool := func(typ string, i int) string {
		return frame(typ, fmt.Sprintf(`,"tool_call":{"id":"call_%d","name":"search","type":"function"}`, i))
	}
	var b strings.Builder
	b.WriteString(frame("response_id", ""))
	n := invariants.MaxOpenIDs + 1
	for i := range n {
		b.WriteString(tool("tool_call", i))
	}
	b.WriteString(tool("tool_completed", n-1)) // untracked: no orphan
	b.WriteString(tool("tool_completed", 0))   // tracked: one slot free
	b.WriteString(frame("data_loading", `,"data":{"id":"c1","type":"carousel"}`))
	b.WriteString(frame("data_loading", `,"data":{"id":"c2","type":"carousel"}`)) // untracked
	b.WriteString(frame("data_loaded", `,"data":{"id":"c2","type":"carousel","items":[]}`))
	term := n + 6
	b.WriteString(frame("completed", "") + "data: [DONE]\n\n")

	res := dialecttest.Run(Dialect, b.String())
	count := map[string]int{}
	for _, a := range res.Alarms {
		count[a.Rule+" "+string(a.Severity)]++
		if a.Rule == "id-limit" && a.Frame != n {
			t.Errorf("id-limit at frame %d, want %d", a.Frame, n)
		}
		if a.Rule == "tool-unfinished" && a.Frame != term {
			t.Errorf("tool-unfinished at frame %d, want %d", a.Frame, term)
		}
	}
	want := map[string]int{"id-limit warn": 1, "tool-unfinished error": n - 2, "component-unfilled error": 1}
	if fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("alarms %v, want %v", count, want)
	}
}
