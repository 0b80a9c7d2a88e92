package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/invariants"
	"framescope/ui/store"
)

func screen(m *Model) string { return ansi.Strip(m.Render()) }

// run executes a command's message chain (tests: jump, search).
func runCmd(m *Model, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			return
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				runCmd(m, c)
			}
			return
		}
		_, cmd = m.Update(msg)
	}
}

func pressCmd(m *Model, k string) {
	_, cmd := m.Update(keyMsg(k))
	runCmd(m, cmd)
}

func TestNavigation(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 80, 24, true)
	if m.Selected() != 0 {
		t.Fatalf("a capture opens at the top, got row %d", m.Selected())
	}
	steps := []struct {
		key  string
		want int
	}{
		{"j", 1}, {"down", 2}, {"k", 1}, {"G", 12}, {"j", 12}, {"g", 0}, {"k", 0}, {"pgdown", 12}, {"pgup", 0},
	}
	for _, s := range steps {
		press(m, s.key)
		if m.Selected() != s.want {
			t.Fatalf("after %s: row %d, want %d", s.key, m.Selected(), s.want)
		}
	}
	if !strings.Contains(screen(m), "Timeline 1/13") {
		t.Errorf("tab bar should show the position:\n%s", screen(m))
	}
	// Tab cycles the focus through every pane (tabs at 80×24).
	for id := PaneDetail; id < numPanes; id++ {
		press(m, "tab")
		if m.Focused() != id {
			t.Fatalf("focus %v, want %v", m.Focused(), id)
		}
	}
	press(m, "tab")
	press(m, "shift+tab")
	if m.Focused() != PaneComponents {
		t.Errorf("shift+tab: focus %v", m.Focused())
	}
}

func TestTimeTravelShowsOpenTool(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "G")
	tools := m.Pane(PaneTools)
	if got := tools.Title(); got != "Tools 1" {
		t.Errorf("at the end: %q", got)
	}
	if v := ansi.Strip(tools.View()); strings.Contains(v, "open") || !strings.Contains(v, "800ms") {
		t.Errorf("at the end the call is closed (800ms):\n%s", v)
	}
	// Back to frame 4: the call is open, its bar ends at the cursor.
	for m.Selected() > 4 {
		press(m, "k")
	}
	if got := tools.Title(); got != "Tools 1 (1 open)" {
		t.Errorf("at frame 4: %q", got)
	}
	if v := ansi.Strip(tools.View()); !strings.Contains(v, "open") || !strings.Contains(v, "search_offers") || !strings.Contains(v, "▶") {
		t.Errorf("at frame 4 the call is open:\n%s", v)
	}
	press(m, "k")
	if v := ansi.Strip(tools.View()); !strings.Contains(v, "no tool call yet") {
		t.Errorf("at frame 3 there is no call yet:\n%s", v)
	}
	// Components and status follow the cursor too.
	press(m, "G")
	for m.Selected() > 6 {
		press(m, "k")
	}
	if got := m.Pane(PaneComponents).Title(); got != "Components 1 (1 loading)" {
		t.Errorf("at frame 6: %q", got)
	}
	press(m, "j")
	if got := m.Pane(PaneComponents).Title(); got != "Components 1" {
		t.Errorf("at frame 7: %q", got)
	}
	press(m, "j")
	v := ansi.Strip(m.Pane(PaneStatus).View())
	if !strings.Contains(v, "▶ Searching for offers...") || !strings.Contains(v, "Here are some offers") || strings.Contains(v, "near you") {
		t.Errorf("status as of frame 8:\n%s", v)
	}
}

func TestAlarmNavigation(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-broken.sse"), 160, 48, false)
	for _, want := range []int{2, 5, 6, 7} {
		press(m, "n")
		if m.Selected() != want {
			t.Fatalf("n: row %d, want %d", m.Selected(), want)
		}
	}
	press(m, "n") // wraps, as search hits do
	if m.Selected() != 2 || !strings.Contains(screen(m), "alarms wrapped to the top") {
		t.Errorf("n at the last alarm: row %d\n%s", m.Selected(), screen(m))
	}
	press(m, "N")
	if m.Selected() != 7 || !strings.Contains(screen(m), "alarms wrapped to the bottom") {
		t.Errorf("N at the first alarm: row %d", m.Selected())
	}
	press(m, "N")
	if m.Selected() != 6 {
		t.Errorf("N: row %d", m.Selected())
	}
	// The alarms pane follows the cursor; Enter jumps from it.
	press(m, "tab", "tab")
	if m.Focused() != PaneAlarms {
		t.Fatalf("focus %v", m.Focused())
	}
	press(m, "g", "j", "j") // third alarm: tool-unfinished at frame 5
	pressCmd(m, "enter")
	if m.Selected() != 5 || m.Focused() != PaneTimeline {
		t.Errorf("enter on an alarm: row %d focus %v", m.Selected(), m.Focused())
	}
	// The detail's alarm tab explains the rule with its clause.
	press(m, "tab", "t", "t")
	v := ansi.Strip(m.Pane(PaneDetail).View())
	for _, want := range []string{"tool-unfinished  (FR-15, AC-9)", "component-unfilled  (FR-16, AC-8)", "rule: a tool_call had no tool_completed"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail alarms tab lacks %q:\n%s", want, v)
		}
	}
}

func TestSearch(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "/")
	for _, r := range "OFFERS" {
		press(m, string(r))
	}
	press(m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	for _, r := range "offers" {
		press(m, string(r))
	}
	if !strings.Contains(screen(m), "/offers█") {
		t.Fatalf("search line:\n%s", screen(m))
	}
	pressCmd(m, "enter")
	if got := fmt.Sprint(m.matches); got != "[3 4 5 8]" {
		t.Fatalf("matches %s", got)
	}
	if m.Selected() != 3 {
		t.Errorf("first hit: row %d", m.Selected())
	}
	for _, want := range []int{4, 5, 8, 3} {
		press(m, "n")
		if m.Selected() != want {
			t.Fatalf("n: row %d, want %d", m.Selected(), want)
		}
	}
	press(m, "N")
	if m.Selected() != 8 {
		t.Errorf("N wraps: row %d", m.Selected())
	}
	s := screen(m)
	if !strings.Contains(s, "/offers: 4 rows match") || strings.Count(s, "»") != 4 {
		t.Errorf("hits are marked:\n%s", s)
	}
	// The detail highlights the hit (a styled match in the JSON).
	if d := m.Pane(PaneDetail).View(); !strings.Contains(d, m.sh.sty.Match.Render("offers")) {
		t.Errorf("detail does not highlight the hit")
	}
	// Esc clears the search: n is the next alarm again.
	press(m, "esc", "g", "n")
	if m.sh.query != "" || m.Selected() != 3 {
		t.Errorf("after esc: query %q row %d", m.sh.query, m.Selected())
	}
	// A search with no hit says so.
	press(m, "/", "z", "z", "z")
	pressCmd(m, "enter")
	if !strings.Contains(screen(m), "no match") {
		t.Errorf("no hit:\n%s", screen(m))
	}
}

// splitBatches cuts a finished run into many batches (alarms at the end).
func splitBatches(t *testing.T, msgs []tea.Msg, per int) []*store.Batch {
	var all store.Batch
	for _, msg := range msgs {
		b := msg.(batchMsg).b
		all.Rows = append(all.Rows, b.Rows...)
		all.Alarms = append(all.Alarms, b.Alarms...)
		if b.Conn != nil {
			all.Conn = b.Conn
		}
		if b.End != nil {
			all.End = b.End
		}
	}
	var out []*store.Batch
	for i := 0; i < len(all.Rows); i += per {
		out = append(out, &store.Batch{Rows: all.Rows[i:min(i+per, len(all.Rows))]})
	}
	out[0].Conn = all.Conn
	last := out[len(out)-1]
	last.Alarms, last.End = all.Alarms, all.End
	return out
}

func TestFollow(t *testing.T) {
	msgs := feedAll(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")))
	batches := splitBatches(t, msgs, 2) // rows 0-1, 2-3, 4-5, …
	cancels := 0
	dark := true
	m := NewModel("live", true, Config{Dark: &dark, Cancel: func() { cancels++ }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	apply := func(i int) { m.Update(batchMsg{batches[i]}) }

	apply(0)
	if m.Selected() != 1 || !strings.Contains(screen(m), "FOLLOW") {
		t.Fatalf("live follows: row %d\n%s", m.Selected(), screen(m))
	}
	apply(1)
	if m.Selected() != 3 {
		t.Fatalf("follow: row %d", m.Selected())
	}
	// Moving up pauses following; new rows do not move the cursor.
	press(m, "k")
	apply(2)
	if m.Selected() != 2 || !strings.Contains(screen(m), "follow (paused: G)") {
		t.Fatalf("paused: row %d\n%s", m.Selected(), screen(m))
	}
	// Back at the bottom, it follows again.
	press(m, "G")
	apply(3)
	if m.Selected() != 7 {
		t.Fatalf("resumed: row %d", m.Selected())
	}
	// f turns following off: even at the bottom the cursor stays.
	press(m, "f")
	apply(4)
	if m.Selected() != 7 {
		t.Fatalf("follow off: row %d", m.Selected())
	}
	// f on again jumps to the bottom.
	press(m, "f")
	if m.Selected() != 9 {
		t.Fatalf("follow on: row %d", m.Selected())
	}
	// x cancels the live stream, once.
	press(m, "x", "x")
	if cancels != 1 || !strings.Contains(screen(m), "cancelling") {
		t.Errorf("cancel called %d times\n%s", cancels, screen(m))
	}
	for i := 5; i < len(batches); i++ {
		apply(i)
	}
	if m.Selected() != 12 || !strings.Contains(screen(m), "ended: eof") {
		t.Errorf("end: row %d\n%s", m.Selected(), screen(m))
	}
}

func TestMouseWheelAndClick(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	r := m.rects[PaneTimeline]
	m.Update(tea.MouseWheelMsg{X: r.x + 2, Y: r.y + 2, Button: tea.MouseWheelDown})
	if m.Selected() != 3 {
		t.Errorf("wheel: row %d", m.Selected())
	}
	m.Update(tea.MouseClickMsg{X: r.x + 2, Y: r.y + 7, Button: tea.MouseLeft})
	if m.Selected() != 7 {
		t.Errorf("click: row %d", m.Selected())
	}
	d := m.rects[PaneAlarms]
	m.Update(tea.MouseClickMsg{X: d.x + 1, Y: d.y, Button: tea.MouseLeft})
	if m.Focused() != PaneAlarms {
		t.Errorf("click focuses: %v", m.Focused())
	}
	c := m.rects[PaneClient]
	m.Update(tea.MouseClickMsg{X: c.x + 3, Y: c.y - 1, Button: tea.MouseLeft}) // its title line
	if m.Focused() != PaneClient {
		t.Errorf("a click on a title focuses its pane: %v", m.Focused())
	}
}

func TestDetailTabsAndFolding(t *testing.T) {
	items := make([]string, 500)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id":"I%d"}`, i)
	}
	data := frame("response_id", "r", 0, "") +
		frame("data_loaded", "r", 1, `,"data":{"id":"d","type":"t","key":{"ids":[]},"items":[`+strings.Join(items, ",")+`]}`)
	m := NewModel("big", false, Config{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, msg := range feedAll(t, readerSource(t, "big.sse", data)) {
		m.Update(msg)
	}
	press(m, "j", "tab")
	d := m.Pane(PaneDetail).(*Detail)
	body := d.render()
	var all []string
	for _, l := range body {
		all = append(all, l.plain)
	}
	text := strings.Join(all, "\n")
	if !strings.Contains(text, "… 480 more items (enter: expand)") || strings.Contains(text, `"I20"`) {
		t.Errorf("huge array not folded:\n%s", text)
	}
	press(m, "enter")
	if n := len(d.render()); n < 1500 {
		t.Errorf("expanded: %d lines", n)
	}
	press(m, "G")
	if !strings.Contains(ansi.Strip(d.View()), `"I499"`) {
		t.Errorf("bottom of the expanded JSON:\n%s", ansi.Strip(d.View()))
	}
	// Raw tab: the bytes as received, line ends visible.
	press(m, "t")
	v := ansi.Strip(d.View())
	if !strings.Contains(v, "event: data_loaded⏎") || !strings.Contains(v, "offset ") {
		t.Errorf("raw tab:\n%s", v)
	}
}

// TestPaneViewsFitTheirSize: every pane renders exactly its size, at
// every size, whatever is selected.
func TestPaneViewsFitTheirSize(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {120, 40}, {200, 60}, {40, 10}} {
		m := loadModel(t, filepath.Join(examples, "example-broken.sse"), sz[0], sz[1], true)
		for row := 0; row < 8; row++ {
			m.timeline.SetCursor(row)
			s := m.Render()
			lines := strings.Split(s, "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d: %d lines", sz[0], sz[1], len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("%dx%d row %d: line %d is %d wide: %q", sz[0], sz[1], row, i, w, ansi.Strip(l))
				}
			}
		}
	}
}

func TestTinyAndEmpty(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {10, 3}, {30, 5}, {0, 0}} {
		m := loadModel(t, filepath.Join(examples, "example-broken.sse"), sz[0], sz[1], true)
		for _, k := range []string{"j", "tab", "t", "enter", "?", "esc", "n", "G", "tab", "tab", "tab", "tab"} {
			press(m, k)
			_ = m.Render()
		}
	}
	m := NewModel("empty", false, Config{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, msg := range feedAll(t, readerSource(t, "empty.sse", ": keepalive\n\n")) {
		m.Update(msg)
	}
	press(m, "j", "n", "G", "tab", "t")
	s := screen(m)
	if !strings.Contains(s, "frames 0 ") || !strings.Contains(s, ": keepalive") || !strings.Contains(s, "ended: eof") || !strings.Contains(s, "Alarms 0") {
		t.Errorf("empty capture:\n%s", s)
	}
}

func TestCopyAndPaste(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 120, 40, true)
	press(m, "j", "j", "j", "j")
	_, cmd := m.Update(keyMsg("y"))
	if cmd == nil || !strings.Contains(screen(m), "copied frame 4 (170 B, sanitized) to the clipboard") {
		t.Errorf("y:\n%s", screen(m))
	}
	// Pasting into the search line (newlines flattened).
	press(m, "/")
	m.Update(tea.PasteMsg{Content: "call\n_5"})
	pressCmd(m, "enter")
	if m.sh.query != "call _5" {
		t.Errorf("query %q", m.sh.query)
	}
}

// TestZoom: z gives the focused pane the whole body on a wide screen (the
// tab layout) and z again restores the grid.
func TestZoom(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-axis2-recovered.sse"), 160, 48, true)
	if !m.wide {
		t.Fatal("160×48 should start in the wide grid")
	}
	press(m, "tab")
	focus := m.Focused()
	gridW := m.rects[focus].w
	press(m, "z")
	if m.wide || m.Focused() != focus {
		t.Fatalf("after z: wide %v, focus %v (want tabs on %v)", m.wide, m.Focused(), focus)
	}
	if r := m.rects[focus]; r.w != 160 || r.w <= gridW {
		t.Errorf("zoomed pane is %d wide (grid %d), want 160", r.w, gridW)
	}
	if !strings.Contains(m.Render(), " Timeline ") || !strings.Contains(m.Render(), " Client ") {
		t.Errorf("zoomed screen has no tab bar:\n%s", m.Render())
	}
	press(m, "z")
	if !m.wide || m.rects[focus].w != gridW {
		t.Errorf("z again: wide %v, pane width %d (want grid %d)", m.wide, m.rects[focus].w, gridW)
	}
}

// TestTurnBoundaryVisible: the first frame of every later turn on the
// stream is marked in the timeline, and the panes number turns from 1 as
// the header does.
func TestTurnBoundaryVisible(t *testing.T) {
	m := loadModel(t, filepath.Join("..", "testdata", "rules", "component-unannounced.fires-2.sse"), 120, 34, true)
	s := screen(m)
	if strings.Count(s, "▸ resp_unann") != 1 || !strings.Contains(s, "turn 2 ▸ resp_unann_b") {
		t.Errorf("turn boundary not marked:\n%s", s)
	}
	m.timeline.SetCursor(m.Store().RowOfFrame(6))
	m.syncSelection()
	s = screen(m)
	for _, want := range []string{"turn 2/2", "· turn 2", "turn 2 · as of frame 6"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// TestOpenCallsSpinWhileLive: on an open live stream, with the cursor at
// the newest row, a running call's label carries a spinner that moves with
// the clock; once the stream ended it is gone.
func TestOpenCallsSpinWhileLive(t *testing.T) {
	now := fixedNow
	dark := true
	m := NewModel("live", true, Config{Dark: &dark, Now: func() time.Time { return now }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	path := writeSSE(t, []string{
		sseFrame("response_id", "r1", ""),
		sseFrame("tool_call", "r1", `"tool_call":{"id":"c1","name":"slow_tool","type":"mcp"}`),
	})
	for _, msg := range feedAll(t, openSource(t, path)) {
		if b, ok := msg.(batchMsg); ok {
			b.b.End = nil // the stream is still open
		}
		m.Update(msg)
	}
	m.timeline.SetCursor(m.Store().Len() - 1)
	m.syncSelection()
	label := func() string {
		for _, l := range strings.Split(ansi.Strip(m.Pane(PaneTools).View()), "\n") {
			if strings.Contains(l, "slow_tool") {
				return l
			}
		}
		return ""
	}
	first := label()
	if !strings.HasPrefix(first, spinnerFrames[0]+" slow_tool") {
		t.Fatalf("no spinner on the open call: %q", first)
	}
	now = now.Add(spinnerStep)
	m.Update(tickMsg(now))
	if got := label(); !strings.HasPrefix(got, spinnerFrames[1]+" ") {
		t.Errorf("the spinner did not move: %q", got)
	}
	m.Update(batchMsg{&store.Batch{End: &invariants.End{Kind: "eof"}}})
	if got := label(); !strings.HasPrefix(got, "slow_tool") {
		t.Errorf("a spinner after the end: %q", got)
	}
}

// TestFullHelpWrapsGroups: on a narrow terminal the full help starts a new
// band of groups instead of cutting them off; every enabled binding shows.
func TestFullHelpWrapsGroups(t *testing.T) {
	for _, w := range []int{60, 80, 200} {
		m := loadModel(t, filepath.Join(examples, "example-broken.sse"), w, 40, true)
		press(m, "?")
		s := screen(m)
		for _, g := range m.fullHelp() {
			for _, b := range g {
				if b.Enabled() && !strings.Contains(s, b.Help().Desc) {
					t.Errorf("%d cols: help lacks %q:\n%s", w, b.Help().Desc, s)
				}
			}
		}
		checkBlock(t, m.Render())
	}
}

// TestClickTabBar: below the wide layout a click on a tab shows that pane.
func TestClickTabBar(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 80, 24, true)
	bar := strings.Split(screen(m), "\n")[headerH]
	for _, id := range []PaneID{PaneClient, PaneDetail, PaneComponents, PaneTimeline} {
		name := m.tabNames()[id]
		x := ansi.StringWidth(bar[:strings.Index(bar, " "+name+" ")]) + 1
		m.Update(tea.MouseClickMsg{X: x, Y: headerH, Button: tea.MouseLeft})
		if m.Focused() != id {
			t.Errorf("click at %d on %q: focus %v", x, name, m.Focused())
		}
	}
}

// TestCancelNotice: x starts the client-disconnect path; once the stream
// has ended the footer says it was cancelled, not that it is cancelling.
func TestCancelNotice(t *testing.T) {
	cancelled := false
	m := NewModel("live", true, Config{Cancel: func() { cancelled = true }, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(batchMsg{&store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen, HTTPStatus: 200}}})
	press(m, "x")
	if !cancelled || !strings.Contains(screen(m), "cancelling the stream…") {
		t.Fatalf("x: cancelled %v\n%s", cancelled, screen(m))
	}
	m.Update(batchMsg{&store.Batch{End: &invariants.End{Kind: "cancelled"}}})
	if s := screen(m); !strings.Contains(s, "stream cancelled by the client") || !strings.Contains(s, "ended: cancelled") {
		t.Errorf("after the end:\n%s", s)
	}
}

// TestTimelineIndexColumnWidens: rows rendered while the stream had fewer
// than 10,000 frames are laid out again once the index column widens, so
// every row's index ends in the same column (cached rows kept the old
// width, and a flood's rows were ragged against the selected one).
func TestTimelineIndexColumnWidens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "many.sse")
	if err := os.WriteFile(path, []byte(strings.Repeat("data: x\n\n", 10_050)), 0o600); err != nil {
		t.Fatal(err)
	}
	msgs := feedAll(t, openSource(t, path))
	batches := splitBatches(t, msgs, 2000)
	dark := true
	m := NewModel("live", true, Config{Dark: &dark})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(batchMsg{batches[0]})
	press(m, "g")
	_ = screen(m) // rows 0… cached at the 4-digit width
	for _, b := range batches[1:] {
		m.Update(batchMsg{b})
	}
	press(m, "g")
	ends := map[int]bool{}
	rowIdx := regexp.MustCompile(`^\S?\s*(\d+) `)
	for _, line := range strings.Split(screen(m), "\n") {
		if loc := rowIdx.FindStringSubmatchIndex(line); loc != nil && ansi.StringWidth(line[:loc[3]]) > 0 {
			ends[ansi.StringWidth(line[:loc[3]])] = true
		}
	}
	if len(ends) != 1 {
		t.Errorf("row indexes end in columns %v, want one column:\n%s", ends, screen(m))
	}
}
