package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestMatcher(t *testing.T) {
	for _, tc := range []struct {
		q, s       string
		want       bool
		start, end int
	}{
		{"call_1", `"id":"CALL_1"`, true, 6, 12}, // lower case: any case
		{"CALL_1", `"id":"call_1"`, false, -1, -1},
		{"a.c", "abc", false, -1, -1}, // a substring, not a pattern
		{"re:a.c", "xABC", true, 1, 4},
		{"re:A.c", "xabc", false, -1, -1}, // upper case in the pattern: exact
		{`re:"is_final":\s*false`, `{"is_final": false}`, true, 1, 18},
		{"re:^x*", "abc", true, -1, -1}, // only empty matches: nothing to highlight
		{"", "abc", false, -1, -1},
	} {
		m, err := newMatcher(tc.q)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		if got := m.matchBytes([]byte(tc.s)); got != tc.want {
			t.Errorf("%q on %q: match %v, want %v", tc.q, tc.s, got, tc.want)
		}
		if i, j := m.find(tc.s); i != tc.start || j != tc.end {
			t.Errorf("%q on %q: find [%d,%d), want [%d,%d)", tc.q, tc.s, i, j, tc.start, tc.end)
		}
	}
	for _, bad := range []string{"re:", "re:(unclosed"} {
		if _, err := newMatcher(bad); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}

// TestRegexSearch: a re: query searches frame data as a pattern, highlights
// what it matched, and a bad pattern is a notice, not a search.
func TestRegexSearch(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-axis2-recovered.sse"), 160, 48, true)
	runSearch(t, m, `re:"is_final":\s*false`)
	if len(m.matches) != 1 || m.Selected() != m.matches[0] {
		t.Fatalf("matches %v, selected %d", m.matches, m.Selected())
	}
	if r := m.Store().Row(m.Selected()); r.Type != "error" {
		t.Errorf("the hit is a %s frame, want the error", r.Type)
	}
	if !strings.Contains(ansi.Strip(screen(m)), "1 rows match") {
		t.Errorf("footer:\n%s", screen(m))
	}
	runSearch(t, m, "re:(")
	if !strings.Contains(screen(m), "search: error parsing regexp") {
		t.Errorf("bad pattern notice missing:\n%s", screen(m))
	}
}

// runSearch types q at the search prompt and runs the search command.
func runSearch(t *testing.T, m *Model, q string) {
	t.Helper()
	press(m, "/")
	for _, r := range q {
		press(m, string(r))
	}
	pressCmd(m, "enter")
}
