package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/ui/store"
)

// TestAlarmGroupRuns: a group keeps its rows as strided runs and answers
// membership and "the k-th row" exactly, whatever order the rows come in.
func TestAlarmGroupRuns(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []int32
		runs int // runs kept (the memory a group costs)
	}{
		{"every row", seq(0, 1, 1000), 1},
		{"every other row", seq(7, 2, 500), 1},
		{"twice per row", twice(seq(3, 1, 100)), 1},
		{"two strides", append(seq(0, 1, 10), seq(20, 5, 10)...), 2},
		{"gaps", []int32{1, 2, 3, 10, 11, 40, 41, 42, 43}, 3},
		{"an older row", []int32{5, 6, 7, 2, 8, 9}, 3},
		{"no row", []int32{-1, -1, 4}, 1},
		{"one", []int32{9}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g store.AlarmGroup
			g.sorted = true
			var distinct []int32
			noRow := 0
			for _, r := range tc.rows {
				g.add(r)
				switch {
				case r < 0:
					noRow++
				case len(distinct) == 0 || distinct[len(distinct)-1] != r:
					distinct = append(distinct, r)
				}
			}
			if g.Count != len(tc.rows) || g.Rows != len(distinct) || g.NoRow != noRow || len(g.runs) != tc.runs {
				t.Fatalf("count %d rows %d noRow %d runs %d, want %d %d %d %d",
					g.Count, g.Rows, g.NoRow, len(g.runs), len(tc.rows), len(distinct), noRow, tc.runs)
			}
			for k, r := range distinct {
				if got := g.RowAt(k); got != int(r) {
					t.Errorf("RowAt(%d) = %d, want %d", k, got, r)
				}
			}
			for r := int32(0); r < 1100; r++ {
				if got, want := g.has(r), slices.Contains(distinct, r); got != want {
					t.Errorf("has(%d) = %v, want %v", r, got, want)
				}
			}
		})
	}
}

func seq(first, stride, n int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = first + stride*int32(i)
	}
	return out
}

func twice(rows []int32) []int32 {
	var out []int32
	for _, r := range rows {
		out = append(out, r, r)
	}
	return out
}

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
	c, err := sessions.Open(path, sessions.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return store.CaptureSource(filepath.Base(path), c, invariants.Options{Dialect: "pc3"})
}

// TestAlarmFloodStore: a flood keeps the alarms check's report lists and
// counts the rest in groups, agreeing with the report alarm for alarm;
// every row still carries its alarm, rebuilt with the checker's message.
func TestAlarmFloodStore(t *testing.T) {
	const n = 3000
	for _, tc := range []struct{ name, body, msg string }{
		{"x", "data: x\n\n", "data is not JSON ("},
		{"empty object", "data: {}\n\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := floodFile(t, tc.body, n)
			st := storeOf(t, pc3Source(t, path))
			c, err := sessions.Open(path, sessions.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rep, err := sessions.Check(c, invariants.Options{Dialect: "pc3"})
			if err != nil {
				t.Fatal(err)
			}
			if st.Frames != n || st.Counts != rep.Counts || st.AlarmTotal() < n {
				t.Fatalf("%d frames, counts %+v; the report: %+v", st.Frames, st.Counts, rep.Counts)
			}
			if len(st.Alarms) != len(rep.Alarms) {
				t.Errorf("%d alarms listed, the report lists %d", len(st.Alarms), len(rep.Alarms))
			}
			counted := map[string]int{}
			for _, g := range st.Groups() {
				counted[g.Rule] += g.Count
				if len(g.runs) > 2 {
					t.Errorf("group %s: %d runs for a flood", g.Rule, len(g.runs))
				}
			}
			if len(counted) == 0 || !mapsEqual(counted, rep.Suppressed) {
				t.Errorf("counted %v, the report suppressed %v", counted, rep.Suppressed)
			}
			for i, a := range st.Alarms {
				if a.Unlisted || a.Message == "" || a.Message != rep.Alarms[i].Message {
					t.Fatalf("alarm %d: %+v, the report's %+v", i, a.Alarm, rep.Alarms[i].Alarm)
				}
			}
			// The last frame's alarms are counted, not listed: rebuilt on
			// demand, with the message the checker gives the listed ones.
			last := st.RowOfFrame(n - 1)
			r := st.Row(last)
			if len(r.Alarms) == 0 || r.MaxSev != invariants.SevError {
				t.Fatalf("last row: alarms %v sev %q", r.Alarms, r.MaxSev)
			}
			for _, ai := range r.Alarms {
				a := st.AlarmOf(ai, r)
				if ai >= 0 || a.Frame != n-1 || !a.Unlisted || a.Message == "" {
					t.Errorf("last row alarm %d: %+v", ai, a)
				}
				if a.Rule == "frame-json" && !strings.HasPrefix(a.Message, tc.msg) {
					t.Errorf("rebuilt message %q", a.Message)
				}
			}
			if got := st.AlarmRowCount(); got != n {
				t.Errorf("%d rows with alarms, want %d", got, n)
			}
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
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
