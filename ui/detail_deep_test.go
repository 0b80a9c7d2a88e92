package ui

import (
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// deepCapture is a turn whose second frame carries an array nested depth
// levels deep: 2 bytes a level, so 10,000 levels is a 20 KB frame.
func deepCapture(depth int) string {
	return frame("response_id", "r", 0, "") +
		frame("text", "r", 1, `,"data":`+strings.Repeat("[", depth)+strings.Repeat("]", depth))
}

// deepModel is a 120×40 model with the deep capture applied, the cursor on
// the capture's first row.
func deepModel(t testing.TB, depth int) *Model {
	m := NewModel("deep", false, Config{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, msg := range feedAll(t, readerSource(t, "deep.sse", deepCapture(depth))) {
		m.Update(msg)
	}
	return m
}

// tail is the plain text of a body's last n lines (a long last line is
// wrapped).
func tail(body []jline, n int) string {
	var s []string
	for _, l := range body[max(len(body)-n, 0):] {
		s = append(s, l.plain)
	}
	return strings.Join(s, " ")
}

// bodyBytes is the size of a rendered body, plain and styled text.
func bodyBytes(body []jline) (plain, styled int) {
	for _, l := range body {
		plain += len(l.plain)
		styled += len(l.styled)
	}
	return plain, styled
}

// TestDetailDeepJSONBounded: a 20 KB frame nested 10,000 deep used to
// freeze the Detail pane for >12 s (every line indented by its depth, on
// the update loop). Now its body is rendered off the update loop behind a
// placeholder, q quits meanwhile, a moved cursor abandons the render, and
// the body stays within the pane's byte and line budget, folded and
// expanded.
func TestDetailDeepJSONBounded(t *testing.T) {
	m := deepModel(t, 10_000)
	d := m.detail
	_, cmd := m.Update(keyMsg("j"))
	if cmd == nil || d.job == nil {
		t.Fatal("a 20 KB frame is rendered off the update loop: no command")
	}
	if s := screen(m); !strings.Contains(s, "rendering 19.7 KiB…") {
		t.Errorf("no placeholder while rendering:\n%s", s)
	}
	// q quits at once: the render does not hold up the keys.
	if _, q := m.Update(keyMsg("q")); q == nil {
		t.Fatal("q while rendering: no command")
	} else if _, ok := q().(tea.QuitMsg); !ok {
		t.Fatalf("q while rendering: %T, not quit", q())
	}
	// Moving on abandons the job: its command gives up and its result is
	// not taken.
	stale := cmd
	m.Update(keyMsg("k"))
	if msg := stale().(detailRenderedMsg); msg.body != nil {
		t.Errorf("an abandoned render ran to the end: %d lines", len(msg.body))
	}
	_, cmd = m.Update(keyMsg("j"))
	runCmd(m, cmd)
	pressCmd(m, "tab") // the Detail pane: its keys scroll and expand
	if m.Focused() != PaneDetail {
		t.Fatalf("focus %v", m.Focused())
	}
	if d.job != nil {
		t.Fatal("the render's result was not taken")
	}
	body := d.render()
	plain, styled := bodyBytes(body)
	last := tail(body, 3)
	t.Logf("folded: %d lines, %d B plain, %d B styled; last %q", len(body), plain, styled, last)
	if len(body) > 3*foldLines || plain > foldBytes+foldBytes/2 || !strings.Contains(last, "document cut at 2000") {
		t.Errorf("folded deep frame: %d lines, %d B plain; last line %q", len(body), plain, last)
	}
	v := ansi.Strip(d.View())
	if !strings.Contains(v, `"data": [`) || strings.Contains(v, "rendering") {
		t.Errorf("the deep frame's JSON is not shown:\n%s", v)
	}
	// Past the indentation limit the depth is a number, not more spaces.
	press(m, "G", "pgup")
	if v := ansi.Strip(d.View()); !strings.Contains(v, "· ]") {
		t.Errorf("deep lines do not show their depth:\n%s", v)
	}
	deepest := false
	for _, l := range body {
		deepest = deepest || strings.HasSuffix(l.plain, " 9999· [")
	}
	if !deepest {
		t.Error("no line shows depth 9999")
	}

	// Expanded: the whole 20,003-line document, within the hard budget.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pressCmd(m, "enter")
	runtime.ReadMemStats(&after)
	body = d.render()
	plain, styled = bodyBytes(body)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("expanded: %d lines, %d B plain, %d B styled, %d MB allocated", len(body), plain, styled, alloc>>20)
	if plain > hardBytes || len(body) > 3*hardLines || strings.Contains(tail(body, 3), "cut") {
		t.Errorf("expanded deep frame: %d lines, %d B plain; last %q", len(body), plain, tail(body, 3))
	}
	if alloc > 64<<20 {
		t.Errorf("rendering the 20 KB frame allocated %d MB", alloc>>20)
	}
}

// TestDetailHugeDeepJSONCut: 1,000,000 levels (2 MB) — the render stops at
// the hard budget even expanded, and says so.
func TestDetailHugeDeepJSONCut(t *testing.T) {
	if testing.Short() {
		t.Skip("2 MB frame")
	}
	m := deepModel(t, 1_000_000)
	d := m.detail
	pressCmd(m, "j")
	pressCmd(m, "tab")
	pressCmd(m, "enter")
	body := d.render()
	plain, _ := bodyBytes(body)
	last := tail(body, 3)
	if plain > hardBytes+hardBytes/2 || len(body) > 3*hardLines || !strings.Contains(last, "the pane's limit") {
		t.Errorf("1e6-deep expanded: %d lines, %d B; last %q", len(body), plain, last)
	}
}

// TestPainterMatchesRender: the painter's shortcut renders every token as
// lipgloss would.
func TestPainterMatchesRender(t *testing.T) {
	for _, dark := range []bool{true, false} {
		for _, noColor := range []bool{true, false} {
			sty := NewStyles(dark, noColor)
			for _, st := range []struct {
				name string
				fn   func(string) string
				ref  func(...string) string
			}{
				{"key", painter(sty.JSONKey), sty.JSONKey.Render},
				{"punct", painter(sty.JSONPunct), sty.JSONPunct.Render},
				{"string", painter(sty.JSONString), sty.JSONString.Render},
				{"dim", painter(sty.Dim), sty.Dim.Render},
				{"base", painter(sty.Base), sty.Base.Render},
			} {
				for _, s := range []string{"[", ": ", `"a b"`, "  ", "      12· ", `"\x1b[31m"`, "é漢", ""} {
					if got, want := st.fn(s), st.ref(s); got != want {
						t.Errorf("dark %v noColor %v %s %q: %q, lipgloss %q", dark, noColor, st.name, s, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkDetailDeepJSON10k and …1M render the Detail body of the deep
// frame (20 KB and 2 MB), folded and expanded: time and bytes per render
// are bounded by the pane's budget, not by the depth.
func BenchmarkDetailDeepJSON10k(b *testing.B) { benchDeep(b, 10_000) }
func BenchmarkDetailDeepJSON1M(b *testing.B)  { benchDeep(b, 1_000_000) }

func benchDeep(b *testing.B, depth int) {
	for _, expand := range []bool{false, true} {
		name := "folded"
		if expand {
			name = "expanded"
		}
		b.Run(name, func(b *testing.B) {
			m := deepModel(b, depth)
			pressCmd(m, "j")
			d := m.detail
			d.expand = expand
			b.ReportAllocs()
			var plain int
			for b.Loop() {
				work, _ := d.work()
				plain, _ = bodyBytes(work(nil))
			}
			b.ReportMetric(float64(plain), "rendered-B")
		})
	}
}

// TestDetailRenderOffLoopRace: the render command runs on its own
// goroutine while the update loop goes on (run with -race): it reads
// nothing the loop writes.
func TestDetailRenderOffLoopRace(t *testing.T) {
	m := deepModel(t, 10_000)
	_, cmd := m.Update(keyMsg("j"))
	if cmd == nil {
		t.Fatal("no render command")
	}
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	for _, k := range []string{"tab", "enter", "k", "j", "t", "T"} {
		m.Update(keyMsg(k))
		_ = m.Render()
	}
	m.Update(<-done)
	_ = m.Render()
}
