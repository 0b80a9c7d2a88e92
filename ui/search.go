package ui

import (
	"sort"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/ui/store"
)

// searchDoneMsg carries the rows that matched a search run off the
// bubbletea goroutine over rows [0, upto).
type searchDoneMsg struct {
	gen   int
	query string
	rows  []int
	upto  int
}

// typeSearch edits the search line.
func (m *Model) typeSearch(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc", "ctrl+c":
		m.typing = false
		return nil
	case "enter":
		m.typing = false
		if m.input == "" {
			m.clearSearch()
			return nil
		}
		return m.startSearch(m.input)
	case "backspace":
		if m.input != "" {
			_, n := utf8.DecodeLastRuneInString(m.input)
			m.input = m.input[:len(m.input)-n]
		}
		return nil
	}
	if msg.Text != "" && len(m.input) < 200 {
		m.input += msg.Text
	}
	return nil
}

func (m *Model) clearSearch() {
	m.searchGen++
	m.sh.query = ""
	m.sh.match = matcher{}
	m.matches = nil
	m.scanned = 0
	m.pending = false
	m.timeline.setMatches(nil)
}

// startSearch runs the substring search over every row's bytes in a
// command (the rows are append-only and their bytes immutable, so the
// snapshot can be read off the bubbletea goroutine): the bytes are read
// back from the store's byte source in large sequential reads.
func (m *Model) startSearch(q string) tea.Cmd {
	mt, err := newMatcher(q)
	if err != nil {
		m.notice = "search: " + decode.Sanitize(err.Error())
		return nil
	}
	m.searchGen++
	gen := m.searchGen
	m.sh.query, m.sh.match = q, mt
	m.matches = nil
	m.timeline.setMatches(map[int]bool{})
	m.pending = true
	n, row, src := m.sh.st.Snapshot()
	return func() tea.Msg {
		var hits []int
		sc := store.NewRowScanner(src)
		for i := 0; i < n; i++ {
			if mt.matchRow(sc, row(i)) {
				hits = append(hits, i)
			}
		}
		return searchDoneMsg{gen: gen, query: q, rows: hits, upto: n}
	}
}

// matchRow reports whether row r matches, its bytes read through sc. It
// reads only the fields that never change after append. A frame
// matches on its data buffer; for a substring its block is searched first
// (the data's bytes are in it, and queries never hold a line break), so
// only candidates are framed again. A regular expression may anchor or
// span lines, so it is run on the data buffer itself.
func (q matcher) matchRow(sc *store.RowScanner, r *store.Row) bool {
	switch r.Kind {
	case store.RowNote, store.RowComment:
		return q.matchString(r.Summary)
	}
	raw := sc.Raw(r)
	if q.re == nil && !q.matchBytes(raw) {
		return false
	}
	if r.Kind != store.RowFrame {
		return q.re == nil || q.matchBytes(raw)
	}
	if raw == nil {
		return false
	}
	return q.matchBytes(store.DecodeRow(r, raw).Data)
}

func (m *Model) searchDone(msg searchDoneMsg) {
	if msg.gen != m.searchGen {
		return // superseded
	}
	m.pending = false
	m.matches = msg.rows
	set := make(map[int]bool, len(msg.rows))
	for _, r := range msg.rows {
		set[r] = true
	}
	m.timeline.setMatches(set)
	m.scanned = msg.upto
	m.scanFrom(msg.upto)
	if len(m.matches) == 0 {
		m.notice = "no match"
		return
	}
	// Go to the first hit at or after the cursor (wrapping).
	k := sort.SearchInts(m.matches, max(m.sh.sel, 0))
	if k == len(m.matches) {
		k = 0
	}
	m.jump(m.matches[k])
}

// scanFrom extends the search over rows appended since.
func (m *Model) scanFrom(from int) {
	st := m.sh.st
	set := m.timeline.matches
	sc := st.Scanner()
	for i := from; i < st.Len(); i++ {
		if m.sh.match.matchRow(sc, st.Row(i)) {
			m.matches = append(m.matches, i)
			if set != nil {
				set[i] = true
			}
		}
	}
	m.scanned = st.Len()
}
