package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"framescope/ui/store"
)

// listedRows is the timeline's list, read through its positions.
func listedRows(m *Model) []int {
	var out []int
	for p := range m.timeline.count() {
		out = append(out, m.timeline.rowAt(p))
	}
	return out
}

// wantRows is what a filter lists, computed the slow way.
func wantRows(st *store.Store, types []string, alarms bool) []int {
	var out []int
	for i := 0; i < st.Len(); i++ {
		r := st.Row(i)
		ok := r.Kind == store.RowFrame && (len(types) == 0 || slices.Contains(types, r.Type))
		if alarms {
			ok = len(r.Alarms) > 0 && (ok || r.Kind != store.RowFrame && len(types) == 0)
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

func typeLine(m *Model, s string) {
	for _, r := range s {
		press(m, string(r))
	}
}

func TestFilterByType(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "F")
	typeLine(m, "tool_call, text")
	if !strings.Contains(screen(m), "filter types: tool_call, text█") {
		t.Fatalf("the filter prompt:\n%s", screen(m))
	}
	press(m, "enter")
	st := m.Store()
	want := wantRows(st, []string{"tool_call", "text"}, false)
	if got := listedRows(m); fmt.Sprint(got) != fmt.Sprint(want) || len(want) < 3 {
		t.Fatalf("listed %v, want %v", got, want)
	}
	if got := m.timeline.Title(); got != fmt.Sprintf("Timeline 1/%d · filter: tool_call,text", len(want)) {
		t.Errorf("title %q", got)
	}
	// The screen lists only those rows.
	if s := screen(m); strings.Contains(s, "response_id  ") || !strings.Contains(s, "tool_call") {
		t.Errorf("screen:\n%s", s)
	}
	// Navigation goes over the listed rows, and drives the as-of panes.
	steps := []struct {
		key string
		pos int
	}{{"j", 1}, {"j", 2}, {"k", 1}, {"G", len(want) - 1}, {"j", len(want) - 1}, {"g", 0}, {"pgdown", len(want) - 1}, {"pgup", 0}}
	for _, s := range steps {
		press(m, s.key)
		if m.Selected() != want[s.pos] {
			t.Fatalf("%s: row %d, want %d", s.key, m.Selected(), want[s.pos])
		}
	}
	press(m, "j")
	if turn, frame := m.sh.asOf(); turn != 0 || frame != st.Row(want[1]).Frame {
		t.Errorf("as-of: turn %d frame %d", turn, frame)
	}
	// Esc clears the filter; the cursor stays on its row.
	sel := m.Selected()
	press(m, "esc")
	if m.timeline.filter.On() || m.Selected() != sel || m.timeline.count() != st.Len() {
		t.Errorf("esc: filter %v row %d", m.timeline.filter.On(), m.Selected())
	}
	// An empty prompt clears it too.
	press(m, "F")
	typeLine(m, "text")
	press(m, "enter", "F")
	for range 4 {
		press(m, "backspace")
	}
	press(m, "enter")
	if m.timeline.filter.On() {
		t.Errorf("an empty type list clears the filter")
	}
}

func TestFilterPromptCompletesTypes(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "F")
	typeLine(m, "text,tool")
	for _, want := range []string{"text,tool_call", "text,tool_completed", "text,tool_call"} {
		press(m, "tab")
		if m.prompt.input != want {
			t.Fatalf("tab: %q, want %q", m.prompt.input, want)
		}
	}
	press(m, "esc")
	if m.prompt != nil || m.timeline.filter.On() {
		t.Errorf("esc cancels the prompt without filtering")
	}
}

func TestFilterAlarmsOnly(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-broken.sse"), 160, 48, false)
	st := m.Store()
	press(m, "a")
	want := wantRows(st, nil, true)
	if got := listedRows(m); fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(want) != "[2 5 6 7]" {
		t.Fatalf("alarms only: %v, want %v", got, want)
	}
	if m.Selected() != 2 || !strings.Contains(m.timeline.Title(), "Timeline 1/4 · filter: alarms only") {
		t.Errorf("cursor %d title %q", m.Selected(), m.timeline.Title())
	}
	press(m, "n", "n")
	if m.Selected() != 6 {
		t.Errorf("n over listed rows: %d", m.Selected())
	}
	// Types and alarms combine.
	press(m, "F")
	typeLine(m, "text")
	press(m, "enter")
	want = wantRows(st, []string{"text"}, true)
	if got := listedRows(m); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("text + alarms: %v, want %v", got, want)
	}
	if !strings.Contains(m.timeline.Title(), "filter: text + alarms only") {
		t.Errorf("title %q", m.timeline.Title())
	}
	press(m, "a")
	if want := wantRows(st, []string{"text"}, false); fmt.Sprint(listedRows(m)) != fmt.Sprint(want) {
		t.Errorf("a again keeps the types: %v, want %v", listedRows(m), want)
	}
}

func TestFilterSkipsHiddenSearchHits(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "/")
	typeLine(m, "offers")
	pressCmd(m, "enter") // hits: rows 3 4 5 8
	press(m, "F")
	typeLine(m, "tool_call,text")
	press(m, "enter")
	press(m, "g") // row 4, the first tool_call or text
	// Of the hits only rows 4 (tool_call) and 8 (text) are listed.
	var got []int
	for range 3 {
		press(m, "n")
		got = append(got, m.Selected())
	}
	if fmt.Sprint(got) != "[8 4 8]" {
		t.Errorf("n over the listed hits: %v, want [8 4 8]", got)
	}
}

func TestFilterGrowsWithBatches(t *testing.T) {
	// Alarms arrive in the last batch, most of them on older rows: the
	// alarms-only list must take them in (the rebuild path), and a type
	// filter must take in new rows as they arrive.
	for _, c := range []struct {
		name   string
		types  []string
		alarms bool
	}{
		{"types", []string{"text", "tool_call"}, false},
		{"alarms", nil, true},
		{"both", []string{"text"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs := feedAll(t, openSource(t, filepath.Join(examples, "example-broken.sse")))
			batches := splitBatches(t, msgs, 2)
			dark := true
			m := NewModel("live", true, Config{Dark: &dark})
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			m.Update(batchMsg{batches[0]})
			m.setFilter(c.types, c.alarms)
			for _, b := range batches[1:] {
				m.Update(batchMsg{b})
				m.Render() // the list is read between batches
				if got, want := listedRows(m), wantRows(m.Store(), c.types, c.alarms); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("after a batch: %v, want %v", got, want)
				}
			}
			if len(listedRows(m)) == 0 {
				t.Errorf("nothing listed at the end")
			}
		})
	}
}

func TestFilterWithNoMatch(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "j", "j")
	press(m, "F")
	typeLine(m, "nosuchtype")
	press(m, "enter")
	if m.Selected() != 2 || !strings.Contains(screen(m), "no row matches the filter") {
		t.Errorf("no match: row %d\n%s", m.Selected(), screen(m))
	}
	press(m, "j", "G", "right", " ")
	if m.Selected() != 2 {
		t.Errorf("keys on an empty list moved the cursor to %d", m.Selected())
	}
}

func TestHelpListsTheNewKeys(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "?")
	s := screen(m)
	for _, want := range []string{"play/pause", "faster", "slower", "prev frame", "next frame", "filter types", "alarms only", "clear filter", "write turn", "write session"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
}

func TestFilterTakesAlarmsOnOlderRows(t *testing.T) {
	// Alarms delivered newest row first, one batch each: every new alarm
	// lands before the last listed row, so the list is rebuilt each time.
	msgs := feedAll(t, openSource(t, filepath.Join(examples, "example-broken.sse")))
	all := splitBatches(t, msgs, 1000)[0]
	alarms := all.Alarms
	all.Alarms = nil
	dark := true
	m := NewModel("x", false, Config{Dark: &dark})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(batchMsg{all})
	m.setFilter(nil, true)
	st := m.Store()
	rowOf := func(a store.AlarmRec) int {
		if a.Row >= 0 {
			return a.Row
		}
		return st.RowOfFrame(a.Frame)
	}
	slices.SortStableFunc(alarms, func(a, b store.AlarmRec) int { return rowOf(b) - rowOf(a) })
	for _, a := range alarms {
		m.Update(batchMsg{&store.Batch{Alarms: []store.AlarmRec{a}}})
		if got, want := listedRows(m), wantRows(st, nil, true); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after an alarm on row %d: %v, want %v", rowOf(a), got, want)
		}
	}
	if len(listedRows(m)) != 4 {
		t.Errorf("listed %v", listedRows(m))
	}
}

// The filter at scale, over the shared 1M-frame session (bench_test.go):
//
//	go test ./ui -run '^$' -bench 'Filter.*_1M' -timeout 30m

// BenchmarkFilterSet_1M: turning a type filter on (built from the type
// index: O(matches)) and the View, then off again; one op is both.
func BenchmarkFilterSet_1M(b *testing.B) {
	m := loadedModel(b)
	defer m.setFilter(nil, false)
	m.jump(m.Store().Len() / 2)
	for b.Loop() {
		m.setFilter([]string{"tool_call", "tool_completed"}, false)
		if m.timeline.count() == 0 || m.View().Content == "" {
			b.Fatal("nothing listed")
		}
		m.setFilter(nil, false)
	}
	reportMS(b)
}

// BenchmarkFilterCursorDown_1M: j over a type filter's rows, and the View.
func BenchmarkFilterCursorDown_1M(b *testing.B) {
	m := loadedModel(b)
	defer m.setFilter(nil, false)
	m.setFilter([]string{"text"}, false)
	m.jump(0)
	for b.Loop() {
		if m.timeline.AtBottom() {
			m.jump(0)
		}
		benchKey(b, m, "j")
	}
	if !m.timeline.listed(m.Selected()) {
		b.Fatalf("row %d is not listed", m.Selected())
	}
	reportMS(b)
}

// BenchmarkFilterAlarmsOnly_1M: a (alarms only) on and off, each with the
// View; one op is one toggle.
func BenchmarkFilterAlarmsOnly_1M(b *testing.B) {
	m := loadedModel(b)
	defer m.setFilter(nil, false)
	m.jump(m.Store().Len() / 2)
	for b.Loop() {
		benchKey(b, m, "a")
	}
	reportMS(b)
}
