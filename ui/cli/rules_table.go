package cli

import (
	"fmt"
	"io"
	"strings"

	"framescope/invariants"
)

// maxClauseColumn is the widest the CLAUSE column grows: a longer clause
// (a source file and its function) takes the line alone and its FIRES
// WHEN goes on the next, under its column.
const maxClauseColumn = 24

// writeRulesTable writes the rules as a table whose columns fit the
// longest rule name (stop-reason-missing, protocol-version-mismatch) and
// clause, so every row lines up.
func writeRulesTable(w io.Writer, rules []invariants.Rule) {
	nameW, clauseW := len("RULE"), len("CLAUSE")
	for _, r := range rules {
		nameW = max(nameW, len(r.Name))
		if n := len([]rune(r.Clause)); n <= maxClauseColumn {
			clauseW = max(clauseW, n)
		}
	}
	pad := func(s string, n int) string {
		if k := len([]rune(s)); k < n {
			return s + strings.Repeat(" ", n-k)
		}
		return s
	}
	row := func(name, sev, clause, summary string) {
		lead := pad(name, nameW) + " " + pad(sev, 5) + " "
		if len([]rune(clause)) > clauseW {
			fmt.Fprintf(w, "%s%s\n%s%s\n", lead, clause, strings.Repeat(" ", len(lead)+clauseW+1), summary)
			return
		}
		fmt.Fprintf(w, "%s%s %s\n", lead, pad(clause, clauseW), summary)
	}
	row("RULE", "SEV", "CLAUSE", "FIRES WHEN")
	for _, r := range rules {
		row(r.Name, string(r.Severity), r.Clause, r.Summary)
	}
}
