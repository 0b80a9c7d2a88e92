package ui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// styled renders a view the way a 256-colour terminal receives it (the
// colour profile is forced, so goldens do not depend on the machine).
func styled(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
	if _, err := w.WriteString(s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGoldenPanes pins every pane's View() at 80×24 and 160×48, dark and
// light, on the broken example with the cursor on frame 3 — a tool call
// open, a placeholder loading, a status line, alarms — plus the detail's
// alarm tab on frame 5 and the whole screen. Each golden has a styled
// (ANSI-256) and a plain twin: update with go test ./ui -run Golden -update.
func TestGoldenPanes(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		dark bool
	}{{80, 24, true}, {80, 24, false}, {160, 48, true}, {160, 48, false}} {
		theme := "light"
		if tc.dark {
			theme = "dark"
		}
		t.Run(fmt.Sprintf("%dx%d-%s", tc.w, tc.h, theme), func(t *testing.T) {
			m := loadModel(t, filepath.Join(examples, "example-broken.sse"), tc.w, tc.h, tc.dark)
			m.timeline.SetCursor(3)
			m.syncSelection()
			views := map[string]string{"Screen": m.Render()}
			for id := PaneTimeline; id < numPanes; id++ {
				views[id.String()] = m.Pane(id).View()
			}
			m.timeline.SetCursor(5)
			m.syncSelection()
			m.detail.SetTab(TabAlarms)
			views["DetailAlarms"] = m.detail.View()
			m.detail.SetTab(TabRaw)
			views["DetailRaw"] = m.detail.View()
			for name, v := range views {
				t.Run(name, func(t *testing.T) {
					checkBlock(t, v)
					t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled(t, v)) })
					t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(v)) })
				})
			}
		})
	}
}

// checkBlock: a view is a rectangle (every line the same width).
func checkBlock(t *testing.T, v string) {
	t.Helper()
	lines := strings.Split(v, "\n")
	w := ansi.StringWidth(lines[0])
	for i, l := range lines {
		if ansi.StringWidth(l) != w {
			t.Errorf("line %d is %d wide, line 0 %d", i, ansi.StringWidth(l), w)
		}
	}
}

// TestNoColor: with NO_COLOR nothing is coloured, yet the cursor row is
// still visible (reverse video).
func TestNoColor(t *testing.T) {
	m := NewModel("x", false, Config{NoColor: true})
	m.Update(tea80x24)
	for _, msg := range feedAll(t, openSource(t, filepath.Join(examples, "example-broken.sse"))) {
		m.Update(msg)
	}
	s := m.Render()
	for _, seq := range []string{"38;", "48;", "\x1b[3", "\x1b[4", "\x1b[9"} {
		if strings.Contains(s, seq) {
			t.Errorf("NO_COLOR output has colour %q", seq)
		}
	}
	if !strings.Contains(s, "\x1b[7m") {
		t.Errorf("the cursor row is not in reverse video")
	}
}

var tea80x24 = tea.WindowSizeMsg{Width: 80, Height: 24}

// TestGoldenDialectPanes pins the panes of a stream of another dialect
// than PC3, indexed from its moves: labels, summaries, progress, text and
// the client view, as of a frame in the middle of the turn and at its end.
func TestGoldenDialectPanes(t *testing.T) {
	for _, tc := range []struct{ name, file string }{
		{"typed-lines", "../testdata/dialects/typed-lines/valid-search.sse"},
		{"anthropic-messages", "../testdata/dialects/anthropic-messages/valid-tool-use.sse"},
		{"go-bus", "../testdata/dialects/go-bus/valid-two-turns-crlf.sse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadModel(t, tc.file, 120, 36, true)
			for _, at := range []int{9, m.sh.st.Len() - 1} {
				m.timeline.SetCursor(at)
				m.syncSelection()
				views := map[string]string{"Screen": m.Render()}
				for _, id := range []PaneID{PaneTools, PaneStatus, PaneComponents, PaneClient} {
					views[id.String()] = m.Pane(id).View()
				}
				for name, v := range views {
					t.Run(fmt.Sprintf("row%d/%s", at, name), func(t *testing.T) {
						checkBlock(t, v)
						golden.RequireEqual(t, ansi.Strip(v))
					})
				}
			}
		})
	}
}
