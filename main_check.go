package main

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"framescope/invariants"
	"framescope/sessions/report"
)

// checkTextOptions shapes check's text report: the severities listed, and
// on a terminal, colours and lines fitted to its width.
func checkTextOptions(fl checkFlags, stdout io.Writer) (report.TextOptions, error) {
	var o report.TextOptions
	min, ok := invariants.ParseSeverity(fl.minSev)
	if !ok {
		return o, fmt.Errorf("--min-severity %q: want error, warn or info", fl.minSev)
	}
	if fl.quiet && min.Rank() < invariants.SevWarn.Rank() {
		min = invariants.SevWarn
	}
	o.MinSeverity = min
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		o.Color = os.Getenv("NO_COLOR") == ""
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			o.Width = w
		}
	}
	return o, nil
}
