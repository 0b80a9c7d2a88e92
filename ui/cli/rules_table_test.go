package cli

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"framescope/invariants/dialects"
)

// TestRulesTableAligned: in every dialect's listing each row's SEV,
// CLAUSE and FIRES WHEN columns start where the header's do, counted in
// runes: long names (stop-reason-missing, protocol-version-mismatch) and
// clauses with non-ASCII (§5.5) once pushed them right. A clause too
// long for its column takes the line and its FIRES WHEN goes under it.
func TestRulesTableAligned(t *testing.T) {
	for _, d := range dialects.All {
		var b bytes.Buffer
		writeRulesTable(&b, d.Rules())
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		head := lines[0]
		sevAt, clauseAt, firesAt := strings.Index(head, "SEV"), strings.Index(head, "CLAUSE"), strings.Index(head, "FIRES WHEN")
		for i := 1; i < len(lines); i++ {
			l := lines[i]
			if strings.HasPrefix(l, " ") { // the FIRES WHEN of a long clause
				if k := len(l) - len(strings.TrimLeft(l, " ")); k != firesAt {
					t.Errorf("%s: continuation at %d, want %d: %q", d.Name(), k, firesAt, l)
				}
				continue
			}
			r := []rune(l)
			at := func(col int) rune { return r[col-1] }
			if at(sevAt) != ' ' || r[sevAt] == ' ' || at(clauseAt) != ' ' || r[clauseAt] == ' ' {
				t.Errorf("%s: row misaligned: %q", d.Name(), l)
				continue
			}
			long := i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ")
			if !long && (utf8.RuneCountInString(l) <= firesAt || at(firesAt) != ' ' || r[firesAt] == ' ') {
				t.Errorf("%s: FIRES WHEN misaligned: %q", d.Name(), l)
			}
		}
	}
}

// TestExplainRuleSeverityByDialect: a rule whose severity differs by
// dialect lists each dialect's (seq-gap: warn in go-bus, error in
// anthropic-messages), not one.
func TestExplainRuleSeverityByDialect(t *testing.T) {
	var b bytes.Buffer
	if err := explainRule(&b, "seq-gap", ""); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"seq-gap — error or warn, by dialect\n", "go-bus (warn)", "anthropic-messages (error)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q:\n%s", want, out)
		}
	}
	b.Reset()
	_ = explainRule(&b, "seq-gap", "anthropic-messages")
	if !strings.HasPrefix(b.String(), "seq-gap — error in anthropic-messages (error or warn, by dialect)\n") {
		t.Errorf("--dialect anthropic-messages:\n%s", b.String())
	}
	b.Reset()
	_ = explainRule(&b, "status-prose", "")
	if !strings.HasPrefix(b.String(), "status-prose — error\n") {
		t.Errorf("one severity:\n%s", b.String())
	}
}
