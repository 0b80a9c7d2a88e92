package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/invariants/dialects/pc3"
	"framescope/ui/store"
)

// Pane is one area of the screen. Every pane is a concrete type over the
// shared view state; the root model sizes, focuses and routes messages.
type Pane interface {
	SetSize(w, h int)
	Focus()
	Blur()
	Update(msg tea.Msg) (Pane, tea.Cmd)
	View() string
	// Title is the pane's name and a short status ("Alarms 3").
	Title() string
	// Keys is the pane's own key help.
	Keys() help.KeyMap
}

// PaneID names the panes.
type PaneID int

const (
	PaneTimeline PaneID = iota
	PaneDetail
	PaneAlarms
	PaneTools
	PaneStatus
	PaneClient
	PaneComponents
	numPanes
)

var paneNames = [numPanes]string{"Timeline", "Detail", "Alarms", "Tools", "Status", "Client", "Components"}

func (p PaneID) String() string { return paneNames[p] }

// shared is the state every pane reads: the store, the styles, the cursor
// (the selected timeline row, which drives every as-of pane) and the
// search query.
type shared struct {
	st     *store.Store
	sty    *Styles
	keys   *KeyMap
	sel    int     // selected row (-1 when the store is empty)
	query  string  // active search ("" none)
	match  matcher // query compiled (search_match.go)
	follow bool
	// registry is the status-event registry given with --registry (nil:
	// none); the Status pane shows its verdicts.
	registry *pc3.Registry
	// liveNow is the time since the response started while a live stream
	// is open (ok false otherwise): the "now" of open calls at the bottom.
	liveNow func() (time.Duration, bool)
}

// cursorAt is the time the as-of panes stand at: the selected row's time,
// or "now" when the cursor is on the last row of an open live stream.
func (s *shared) cursorAt() (time.Duration, bool) {
	if s.sel < 0 || s.sel >= s.st.Len() {
		return 0, false
	}
	r := s.st.Row(s.sel)
	if s.sel == s.st.Len()-1 && s.liveNow != nil {
		if now, ok := s.liveNow(); ok && (!r.HasAt || now > r.At) {
			return now, true
		}
	}
	return r.At, r.HasAt
}

// asOf returns the turn and frame the as-of panes show.
func (s *shared) asOf() (turn, frame int) {
	if s.sel < 0 || s.sel >= s.st.Len() {
		return -1, -1
	}
	r := s.st.Row(s.sel)
	return r.Turn, r.Frame
}

// jumpMsg asks the root to move the timeline cursor to a row and focus it.
type jumpMsg struct{ row int }

// scroller is the scroll state of a list pane without a cursor.
type scroller struct {
	top, h, n int
}

func (s *scroller) by(d int) {
	s.top = max(min(s.top+d, s.n-s.h), 0)
}

// view shows the lines that fit a w×h pane from the scroll position (a
// pane whose whole content is a list of lines).
func (s *scroller) view(lines []string, w, h int) string {
	s.h, s.n = h, len(lines)
	s.by(0)
	return block(lines[s.top:], w, h)
}

func (s *scroller) update(msg tea.Msg, k *KeyMap) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			s.by(-1)
		case key.Matches(msg, k.Down):
			s.by(1)
		case key.Matches(msg, k.PageUp):
			s.by(-max(s.h-1, 1))
		case key.Matches(msg, k.PageDown):
			s.by(max(s.h-1, 1))
		case key.Matches(msg, k.Top):
			s.top = 0
		case key.Matches(msg, k.Bottom):
			s.by(s.n)
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			s.by(-3)
		case tea.MouseWheelDown:
			s.by(3)
		}
	}
}

func scrollKeys(k *KeyMap) help.KeyMap {
	return bindingHelp{
		short: []key.Binding{k.Up, k.Down},
		full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}},
	}
}

// countTitle is a pane title with its count and how many are pending:
// "Tools 3 (1 open)".
func countTitle(name string, total, pending int, what string) string {
	if pending > 0 {
		return fmt.Sprintf("%s %d (%d %s)", name, total, pending, what)
	}
	return fmt.Sprintf("%s %d", name, total)
}

// --- text helpers ---------------------------------------------------------------

// fit cuts or pads a (possibly styled) line to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// cut truncates a line to at most w cells (no padding).
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

// padLeft right-aligns plain text in w cells.
func padLeft(s string, w int) string {
	n := ansi.StringWidth(s)
	if n >= w {
		return s
	}
	return strings.Repeat(" ", w-n) + s
}

// block joins lines into exactly h lines of exactly w cells.
func block(lines []string, w, h int) string {
	var b strings.Builder
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			b.WriteString(fit(lines[i], w))
		} else {
			b.WriteString(strings.Repeat(" ", max(w, 0)))
		}
	}
	return b.String()
}

// wrapPlain hard-wraps a plain (unstyled, sanitized) string to width w,
// honouring its line breaks.
func wrapPlain(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var out []string
	for _, ln := range strings.Split(s, "\n") {
		if ln == "" {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(ln, w, ""), "\n")...)
	}
	return out
}

// highlight marks every case-insensitive occurrence of q in a plain
// (unstyled) string with style st applied via fn; the rest is rendered by
// base.
func highlight(s string, m matcher, base, hi func(...string) string) string {
	if m.empty() {
		return base(s)
	}
	var b strings.Builder
	for {
		i, j := m.find(s)
		if i < 0 {
			b.WriteString(base(s))
			return b.String()
		}
		b.WriteString(base(s[:i]))
		b.WriteString(hi(s[i:j]))
		s = s[j:]
		if s == "" {
			return b.String()
		}
	}
}

// indexFold is strings.Index with ASCII case folding when q is all lower
// case (smart case): "abc" finds "ABC", "Abc" finds only "Abc".
func indexFold(s, q string) int {
	if q == "" {
		return 0
	}
	if hasUpper(q) {
		return strings.Index(s, q)
	}
	n := len(q)
	for i := 0; i+n <= len(s); i++ {
		if equalFoldASCII(s[i:i+n], q) {
			return i
		}
	}
	return -1
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func equalFoldASCII[T string | []byte](a T, q string) bool {
	for i := 0; i < len(q); i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != q[i] {
			return false
		}
	}
	return true
}

// containsFold is indexFold over bytes (search over frame JSON).
func containsFold(b []byte, q string) bool {
	if hasUpper(q) {
		return strings.Contains(string(b), q) // no copy: the conversion is not kept
	}
	n := len(q)
	if n == 0 {
		return true
	}
	first := q[0]
	upper := first
	if first >= 'a' && first <= 'z' {
		upper = first - ('a' - 'A')
	}
	for i := 0; i+n <= len(b); i++ {
		c := b[i]
		if c != first && c != upper {
			continue
		}
		if equalFoldASCII(b[i:i+n], q) {
			return true
		}
	}
	return false
}

func ansiWidth(s string) int { return ansi.StringWidth(s) }

func wordwrap(s string, w int) string { return ansi.Wrap(s, w, "") }
