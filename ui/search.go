package ui

import (
	"sort"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
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
	m.matches = nil
	m.scanned = 0
	m.pending = false
	m.timeline.setMatches(nil)
}

// startSearch runs the substring search over every row's bytes in a
// command (the rows are append-only and their bytes immutable, so the
// snapshot can be read off the bubbletea goroutine).
func (m *Model) startSearch(q string) tea.Cmd {
	m.searchGen++
	gen := m.searchGen
	m.sh.query = q
	m.matches = nil
	m.timeline.setMatches(map[int]bool{})
	m.pending = true
	n, row := m.sh.st.snapshot()
	return func() tea.Msg {
		var hits []int
		for i := 0; i < n; i++ {
			if rowMatches(row(i), q) {
				hits = append(hits, i)
			}
		}
		return searchDoneMsg{gen: gen, query: q, rows: hits, upto: n}
	}
}

// rowMatches reads only the fields that never change after append.
func rowMatches(r *Row, q string) bool {
	switch r.Kind {
	case RowFrame:
		return containsFold(r.Data, q)
	case RowNote, RowComment:
		return indexFold(r.Summary, q) >= 0
	}
	return containsFold(r.Raw, q)
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
	for i := from; i < st.Len(); i++ {
		if rowMatches(st.Row(i), m.sh.query) {
			m.matches = append(m.matches, i)
			if set != nil {
				set[i] = true
			}
		}
	}
	m.scanned = st.Len()
}
