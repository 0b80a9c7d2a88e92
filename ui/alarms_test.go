package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/ui/source"
	"framescope/ui/store"
)

// floodFile writes n frames of body (every one an alarm under PC3).
func floodFile(t testing.TB, body string, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "flood.sse")
	if err := os.WriteFile(path, []byte(strings.Repeat(body, n)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func pc3Source(t testing.TB, path string) store.Source {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return source.Capture(filepath.Base(path), c, invariants.Options{Dialect: "pc3"})
}

// TestAlarmsPaneGroups: the Alarms pane lists the listed alarms one by one
// and a group as one row with its count; Enter expands it into its frames
// (messages rebuilt), Enter on one of them jumps there, Enter on the group
// row collapses it; the Detail pane's alarm lines explain a counted alarm.
func TestAlarmsPaneGroups(t *testing.T) {
	const n = 2500
	path := floodFile(t, "data: x\n\n", n)
	dark := true
	m := NewModel("flood.sse", false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, msg := range feedAll(t, pc3Source(t, path)) {
		m.Update(msg)
	}
	st := m.Store()
	listed := len(st.Alarms)
	if len(st.Groups()) == 0 {
		t.Fatal("no group")
	}
	g := st.Groups()[0]
	m.setFocus(PaneAlarms)
	a := m.alarms
	v := ansi.Strip(a.View())
	label := "▸ ×" + commas(g.Count) + " more in turn"
	if !strings.Contains(v, "data is not JSON") || strings.Contains(v, label) {
		t.Fatalf("top of the pane:\n%s", v)
	}
	if a.count() != listed+len(st.Groups()) {
		t.Errorf("%d items, want %d listed + %d groups", a.count(), listed, len(st.Groups()))
	}
	// The group's row comes after the alarms listed before it.
	a.cursor = a.itemOf(g.Entry)
	v = ansi.Strip(a.View())
	if !strings.Contains(v, label) || !strings.Contains(v, "were counted") {
		t.Fatalf("group row:\n%s", v)
	}
	pressCmd(m, "enter") // expand
	if a.count() != listed+len(st.Groups())+g.Rows {
		t.Fatalf("expanded: %d items", a.count())
	}
	press(m, "down")
	first := g.RowAt(0)
	v = ansi.Strip(a.View())
	if !strings.Contains(v, "▾ ×") || strings.Count(v, "data is not JSON") < 10 {
		t.Errorf("expanded group:\n%s", v)
	}
	pressCmd(m, "enter")
	if m.Selected() != first {
		t.Errorf("enter on the group's first frame: row %d, want %d", m.Selected(), first)
	}
	// Back in the pane, the cursor follows the timeline's row into the
	// expanded group.
	m.setFocus(PaneAlarms)
	m.alarms.selectRow(g.RowAt(7))
	if e, sub := a.item(a.cursor); e != g.Entry || sub != 7 {
		t.Errorf("selectRow: entry %d sub %d, want %d 7", e, sub, g.Entry)
	}
	a.cursor = a.itemOf(g.Entry)
	pressCmd(m, "enter") // collapse
	if a.count() != listed+len(st.Groups()) {
		t.Errorf("collapsed: %d items", a.count())
	}
	// The Detail pane explains a counted alarm of the last frame.
	r := st.Row(st.RowOfFrame(n - 1))
	var lines []string
	for _, l := range m.detail.alarmLines(r) {
		lines = append(lines, l.plain)
	}
	if d := strings.Join(lines, "\n"); !strings.Contains(d, "frame-json") || !strings.Contains(d, "data is not JSON") {
		t.Errorf("detail alarm lines:\n%s", d)
	}
	if got := m.tabNames()[PaneAlarms]; !strings.Contains(got, " "+strconv.Itoa(st.AlarmTotal())) {
		t.Errorf("tab %q, want the total %d", got, st.AlarmTotal())
	}
}
