package ui

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/ui/store"
)

// The timeline filter: by event type and/or "rows with alarms only". While
// a filter is on, the timeline lists only the matching rows and every
// cursor movement (keys, n/N, playback) goes over them. On a million-row
// session nothing here rescans the store per key press or per View: the
// per-type index grows with each batch, a new filter is built from it in
// time proportional to its matches, and a filter grows with new rows as
// they arrive.

// --- the timeline's list positions --------------------------------------------

// count is the number of listed rows.
func (t *Timeline) count() int {
	if !t.filter.On() {
		return t.sh.st.Len()
	}
	return len(t.filter.Rows(t.sh.st))
}

// rowAt maps a list position to its row.
func (t *Timeline) rowAt(pos int) int {
	if !t.filter.On() {
		return pos
	}
	return t.filter.Rows(t.sh.st)[pos]
}

// posOf returns the list position of row (exact), or where it would be:
// the position of the first listed row after it.
func (t *Timeline) posOf(row int) (pos int, exact bool) {
	if !t.filter.On() {
		return row, row >= 0 && row < t.sh.st.Len()
	}
	rows := t.filter.Rows(t.sh.st)
	k := sort.SearchInts(rows, row)
	return k, k < len(rows) && rows[k] == row
}

// listed reports whether row is on the list.
func (t *Timeline) listed(row int) bool {
	_, ok := t.posOf(row)
	return ok
}

// snap returns the listed row at or before row, else the first after it.
func (t *Timeline) snap(row int) (int, bool) {
	n := t.count()
	if n == 0 {
		return 0, false
	}
	k, exact := t.posOf(row)
	switch {
	case exact:
	case k > 0:
		k--
	}
	return t.rowAt(k), true
}

func (t *Timeline) filteredTitle() string {
	pos, exact := t.posOf(t.sh.sel)
	at := "-"
	if exact {
		at = fmt.Sprint(pos + 1)
	}
	return fmt.Sprintf("Timeline %s/%d · filter: %s", at, t.count(), t.filter.Describe())
}

// --- the model's filter keys --------------------------------------------------------

// setFilter replaces the filter (no types and no alarms: off) and keeps
// the cursor on the nearest listed row.
func (m *Model) setFilter(types []string, alarms bool) {
	t := m.timeline
	if len(types) == 0 && !alarms {
		t.filter = nil
	} else {
		t.filter = store.NewFilter(m.sh.st, &m.types, types, alarms)
	}
	t.top = 0
	t.SetCursor(m.sh.sel)
	m.syncSelection()
	switch {
	case !t.filter.On():
		m.notice = "filter off"
	case t.count() == 0:
		m.notice = "no row matches the filter (esc clears it)"
	default:
		m.notice = fmt.Sprintf("filter: %d rows listed (esc clears it)", t.count())
	}
}

// filterTypes returns the active filter's types (nil when none).
func (m *Model) filterTypes() []string {
	if f := m.timeline.filter; f != nil {
		return f.Types()
	}
	return nil
}

func (m *Model) toggleAlarmsOnly() {
	f := m.timeline.filter
	m.setFilter(m.filterTypes(), !(f != nil && f.Alarms()))
}

// --- the one-line prompt (filter types, write path) -----------------------------

type promptKind uint8

const (
	promptFilter promptKind = iota
	promptWrite
)

// prompt is the input line the filter and write keys open in the footer.
type prompt struct {
	kind  promptKind
	input string
	// Filter: tab completion cycles (-1: not cycling) through the types
	// present that start with prefix.
	cycle  int
	prefix string
	// Write: what to write, and the path waiting for a y/n to overwrite.
	write   writeJob
	confirm string
	busy    bool // the write runs
}

// openFilterPrompt opens the type prompt, prefilled with the filter's types.
func (m *Model) openFilterPrompt() {
	m.types.Sync(m.sh.st)
	m.prompt = &prompt{kind: promptFilter, input: strings.Join(m.filterTypes(), ","), cycle: -1}
}

// typePrompt edits the prompt line.
func (m *Model) typePrompt(msg tea.KeyPressMsg) tea.Cmd {
	p := m.prompt
	if p.busy {
		return nil // the write's result closes the prompt
	}
	if p.confirm != "" {
		return m.confirmOverwrite(msg)
	}
	switch msg.String() {
	case "esc", "ctrl+c":
		m.prompt = nil
		return nil
	case "enter":
		if p.kind == promptWrite {
			return m.startWrite(false)
		}
		m.prompt = nil
		m.setFilter(parseTypes(p.input), m.timeline.filter != nil && m.timeline.filter.Alarms())
		return nil
	case "backspace":
		if p.input != "" {
			_, n := utf8.DecodeLastRuneInString(p.input)
			p.input = p.input[:len(p.input)-n]
		}
		p.cycle = -1
		return nil
	case "tab":
		if p.kind == promptFilter {
			m.completeType()
		}
		return nil
	}
	if msg.Text != "" && len(p.input) < 400 {
		p.input += msg.Text
		p.cycle = -1
	}
	return nil
}

// completeType replaces the last type of the prompt with a type present
// in the session that starts with what was typed of it; tab again cycles
// through the others.
func (m *Model) completeType() {
	p := m.prompt
	head, last := "", p.input
	if i := strings.LastIndexByte(p.input, ','); i >= 0 {
		head, last = p.input[:i+1], p.input[i+1:]
	}
	if p.cycle < 0 {
		p.prefix, p.cycle = strings.TrimSpace(last), 0
	} else {
		p.cycle++
	}
	var cand []string
	for _, n := range m.types.Names() {
		if strings.HasPrefix(n, p.prefix) {
			cand = append(cand, n)
		}
	}
	if len(cand) == 0 {
		m.notice = "no event type starts with " + decode.Sanitize(p.prefix)
		p.cycle = -1
		return
	}
	p.input = head + cand[p.cycle%len(cand)]
}

// parseTypes splits "a, b,,a" into [a b].
func parseTypes(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// promptLine is the footer while a prompt is open.
func (m *Model) promptLine() string {
	sty := m.sh.sty
	p := m.prompt
	switch {
	case p.busy:
		return sty.Bold.Render("writing " + decode.Sanitize(p.write.path) + "…")
	case p.confirm != "":
		return sty.SevWarn.Render(decode.Sanitize(p.confirm)+" exists: overwrite it?") + sty.Dim.Render("  y: overwrite · n/esc: back")
	case p.kind == promptWrite:
		return sty.Bold.Render("write "+p.write.what()+" to: ") + decode.Sanitize(p.input) + sty.Bold.Render("█") +
			sty.Dim.Render("  enter: write · esc: cancel")
	}
	return sty.Bold.Render("filter types: ") + decode.Sanitize(p.input) + sty.Bold.Render("█") +
		sty.Dim.Render("  comma separated · tab: complete · enter: apply (empty: any type) · esc: cancel")
}

// --- n/N over the listed rows --------------------------------------------------------

// nextHit moves to the next (dir 1) or previous (dir -1) search hit the
// timeline lists, wrapping around.
func (m *Model) nextHit(sel, dir int) {
	hits := m.matches
	n := len(hits)
	k := sort.SearchInts(hits, sel) - 1
	if dir > 0 {
		k = sort.SearchInts(hits, sel+1)
	}
	for range n {
		switch {
		case k >= n:
			k = 0
			m.notice = "search wrapped to the top"
		case k < 0:
			k = n - 1
			m.notice = "search wrapped to the bottom"
		}
		if m.timeline.listed(hits[k]) {
			m.jump(hits[k])
			return
		}
		k += dir
	}
	m.notice = "no match among the rows the filter lists"
}

// nextListedAlarm is Store.NextAlarmRow over the rows the timeline lists.
func (m *Model) nextListedAlarm(row, dir int) (int, bool) {
	for {
		r, ok := m.sh.st.NextAlarmRow(row, dir)
		if !ok || m.timeline.listed(r) {
			return r, ok
		}
		row = r
	}
}

// noteHidden says so when a jump (from the alarms pane) aimed at a row the
// filter hides: the cursor went to the nearest listed row.
func (m *Model) noteHidden(row int) {
	if m.timeline.filter.On() && !m.timeline.listed(row) {
		m.notice = "that row is hidden by the filter (esc clears it)"
	}
}
