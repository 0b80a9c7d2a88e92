package ui

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
)

// The timeline filter: by event type and/or "rows with alarms only". While
// a filter is on, the timeline lists only the matching rows and every
// cursor movement (keys, n/N, playback) goes over them. On a million-row
// session nothing here rescans the store per key press or per View: the
// per-type index grows with each batch, a new filter is built from it in
// time proportional to its matches, and a filter grows with new rows as
// they arrive.

// typeIndex lists the frame rows of each event type (ascending), appended
// as batches arrive, packed as runs and gaps (rowlist.go): about a byte a
// frame, nothing for a run of one type.
type typeIndex struct {
	st      *Store // the store indexed (a restart brings a new one)
	rows    map[string]*rowList
	scanned int // rows of the store indexed so far
}

func (x *typeIndex) sync(st *Store) {
	if x.st != st {
		*x = typeIndex{st: st, rows: map[string]*rowList{}}
	}
	for i := x.scanned; i < st.Len(); i++ {
		if rc := st.get(i); rc.kind == RowFrame { // not Row: no allocation per row
			t := st.types[rc.typ]
			l := x.rows[t]
			if l == nil {
				l = &rowList{}
				x.rows[t] = l
			}
			l.add(i)
		}
	}
	x.scanned = st.Len()
}

// names returns the event types present, sorted.
func (x *typeIndex) names() []string {
	out := make([]string, 0, len(x.rows))
	for t := range x.rows {
		if t != "" {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// rowFilter is a filter and its index of matching rows. Rows are listed
// when they are frames of one of the types (any type when types is nil)
// and, with alarms on, carry an alarm. Without alarms on, only frames are
// listed: comments, notes and other non-frame rows are noise once the user
// asked for event types. With alarms on, a non-frame row that carries an
// alarm (a truncated event, a block without data) is listed when no type
// was asked for: its row is the only place that alarm can be seen.
type rowFilter struct {
	types    map[string]bool
	typeList []string // as the user gave them (the title)
	alarms   bool

	rows []int // matching rows, ascending

	// Growth state: rows of the store examined (types only), and the alarm
	// rows consumed with the last of them (alarms on).
	scanned   int
	alarmSeen int
	alarmLast int
}

// on reports whether a filter is active (nil: no filter).
func (f *rowFilter) on() bool { return f != nil }

func (f *rowFilter) match(r *Row) bool {
	if r.Kind != RowFrame {
		return f.alarms && f.types == nil && len(r.Alarms) > 0
	}
	if f.types != nil && !f.types[r.Type] {
		return false
	}
	return !f.alarms || len(r.Alarms) > 0
}

// newRowFilter builds a filter from the type index: O(matches), not a scan
// of the store.
func newRowFilter(st *Store, idx *typeIndex, types []string, alarms bool) *rowFilter {
	f := &rowFilter{alarms: alarms, typeList: types}
	if len(types) > 0 {
		f.types = make(map[string]bool, len(types))
		for _, t := range types {
			f.types[t] = true
		}
	}
	idx.sync(st)
	if alarms {
		f.rebuildAlarms(st)
		return f
	}
	var lists []*rowList
	for t := range f.types {
		if l := idx.rows[t]; l != nil && l.Len() > 0 {
			lists = append(lists, l)
		}
	}
	f.rows = mergeRows(lists)
	f.scanned = idx.scanned
	return f
}

// mergeRows merges ascending row lists (one per type, disjoint).
func mergeRows(lists []*rowList) []int {
	n := 0
	for _, l := range lists {
		n += l.Len()
	}
	out := make([]int, 0, n)
	for _, l := range lists {
		l.each(func(r int) { out = append(out, r) })
	}
	if len(lists) > 1 {
		slices.Sort(out)
	}
	return out
}

// rebuildAlarms lists the matching rows among the store's alarm rows.
func (f *rowFilter) rebuildAlarms(st *Store) {
	f.rows = f.rows[:0]
	st.alarmRows.Each(0, func(r int) {
		if f.match(st.Row(r)) {
			f.rows = append(f.rows, r)
		}
	})
	f.alarmSeen = st.alarmRows.Len()
	f.alarmLast = st.alarmRows.last()
}

// sync extends the filter over what the store gained since the last call
// (O(1) when nothing changed).
func (f *rowFilter) sync(st *Store) {
	if !f.alarms {
		for i := f.scanned; i < st.Len(); i++ {
			if f.match(st.Row(i)) {
				f.rows = append(f.rows, i)
			}
		}
		f.scanned = st.Len()
		return
	}
	ar := &st.alarmRows
	if ar.Len() == f.alarmSeen {
		return
	}
	// Alarm rows are kept sorted and distinct: if the one that was last is
	// still at its index, every new alarm row came after it (the usual
	// case, the newest row); otherwise an alarm landed on an older row and
	// the list is rebuilt from the alarm rows (never from the whole store).
	if f.alarmSeen > 0 && ar.At(f.alarmSeen-1) != f.alarmLast {
		f.rebuildAlarms(st)
		return
	}
	ar.Each(f.alarmSeen, func(r int) {
		if f.match(st.Row(r)) {
			f.rows = append(f.rows, r)
		}
	})
	f.alarmSeen = ar.Len()
	f.alarmLast = ar.last()
}

// describe is the filter as the title shows it.
func (f *rowFilter) describe() string {
	var parts []string
	if len(f.typeList) > 0 {
		parts = append(parts, decode.Sanitize(strings.Join(f.typeList, ",")))
	}
	if f.alarms {
		parts = append(parts, "alarms only")
	}
	return strings.Join(parts, " + ")
}

// --- the timeline's list positions --------------------------------------------

// count is the number of listed rows.
func (t *Timeline) count() int {
	if !t.filter.on() {
		return t.sh.st.Len()
	}
	t.filter.sync(t.sh.st)
	return len(t.filter.rows)
}

// rowAt maps a list position to its row.
func (t *Timeline) rowAt(pos int) int {
	if !t.filter.on() {
		return pos
	}
	t.filter.sync(t.sh.st)
	return t.filter.rows[pos]
}

// posOf returns the list position of row (exact), or where it would be:
// the position of the first listed row after it.
func (t *Timeline) posOf(row int) (pos int, exact bool) {
	if !t.filter.on() {
		return row, row >= 0 && row < t.sh.st.Len()
	}
	t.filter.sync(t.sh.st)
	rows := t.filter.rows
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
	return fmt.Sprintf("Timeline %s/%d · filter: %s", at, t.count(), t.filter.describe())
}

// --- the model's filter keys --------------------------------------------------------

// setFilter replaces the filter (no types and no alarms: off) and keeps
// the cursor on the nearest listed row.
func (m *Model) setFilter(types []string, alarms bool) {
	t := m.timeline
	if len(types) == 0 && !alarms {
		t.filter = nil
	} else {
		t.filter = newRowFilter(m.sh.st, &m.types, types, alarms)
	}
	t.top = 0
	t.SetCursor(m.sh.sel)
	m.syncSelection()
	switch {
	case !t.filter.on():
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
		return f.typeList
	}
	return nil
}

func (m *Model) toggleAlarmsOnly() {
	f := m.timeline.filter
	m.setFilter(m.filterTypes(), !(f != nil && f.alarms))
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
	m.types.sync(m.sh.st)
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
		m.setFilter(parseTypes(p.input), m.timeline.filter != nil && m.timeline.filter.alarms)
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
	for _, n := range m.types.names() {
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
	if m.timeline.filter.on() && !m.timeline.listed(row) {
		m.notice = "that row is hidden by the filter (esc clears it)"
	}
}
