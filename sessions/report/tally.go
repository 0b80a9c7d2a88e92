package report

import (
	"fmt"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// Tally counts the inputs of one check as their reports are written:
// the text report's total line and the GitHub job summary.
type Tally struct {
	rows                       []tallyRow
	clean, failing, unreadable int
}

type tallyRow struct {
	source, dialect string
	frames, turns   int
	counts          invariants.Counts
	outcome         string // clean, failing, unreadable
	why             string // an unreadable input's error
}

// Outcome names an exit status as the total line counts it.
func Outcome(code int) string {
	switch code {
	case 0:
		return "clean"
	case 1:
		return "failing"
	}
	return "unreadable"
}

// Add counts a report whose input exited with code (0 clean, 1 failing,
// 2 unreadable part way).
func (t *Tally) Add(r *Report, code int) {
	t.add(tallyRow{source: r.Source, dialect: r.DialectLabel(), frames: r.Frames, turns: r.NumTurns(), counts: r.Counts, outcome: Outcome(code)})
}

// AddUnreadable counts an input that could not be read.
func (t *Tally) AddUnreadable(name string, err error) {
	t.add(tallyRow{source: name, outcome: "unreadable", why: err.Error()})
}

func (t *Tally) add(row tallyRow) {
	switch row.outcome {
	case "clean":
		t.clean++
	case "failing":
		t.failing++
	default:
		t.unreadable++
	}
	t.rows = append(t.rows, row)
}

// TotalLine is the text report's last line over several inputs: "3
// inputs: 1 clean, 1 failing, 1 unreadable".
func (t *Tally) TotalLine() string {
	return fmt.Sprintf("total: %s: %d clean, %d failing, %d unreadable", plural(len(t.rows), "input"), t.clean, t.failing, t.unreadable)
}

// Markdown is the GitHub job summary: the total, then a table of the
// inputs.
func (t *Tally) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### framescope check\n\n%s\n\n", t.TotalLine())
	b.WriteString("| input | result | dialect | frames | turns | error | warn | info |\n|---|---|---|---:|---:|---:|---:|---:|\n")
	cell := func(s string) string {
		return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(decode.Sanitize(s))
	}
	for _, r := range t.rows {
		if r.why != "" {
			fmt.Fprintf(&b, "| `%s` | unreadable: %s | | | | | | |\n", cell(r.source), cell(r.why))
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d | %d | %d | %d | %d |\n", cell(r.source), r.outcome, cell(r.dialect),
			r.frames, r.turns, r.counts.Error, r.counts.Warn, r.counts.Info)
	}
	return b.String()
}

// Unreadable is how many inputs could not be read (whole or part way).
func (t *Tally) Unreadable() int { return t.unreadable }
