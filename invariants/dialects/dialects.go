// Package dialects is the registry of every agent-stream dialect framescope
// reads. Adding a dialect is one folder under invariants/dialect and one
// line in All.
package dialects

import (
	"sort"
	"strings"

	"framescope/invariants/dialect"
	"framescope/invariants/dialect/agui"
	"framescope/invariants/dialect/aisdkui"
	"framescope/invariants/dialect/anthropic"
	"framescope/invariants/dialect/chunkframed"
	"framescope/invariants/dialect/gobus"
	"framescope/invariants/dialect/openaichat"
	"framescope/invariants/dialect/openairesponses"
	"framescope/invariants/dialect/pc3"
	"framescope/invariants/dialect/publicsse"
	"framescope/invariants/dialect/typedlines"
)

// All lists the dialects in detection priority order (a tie goes to the
// earlier one); sse, the fallback, is last.
var All = []dialect.Dialect{
	pc3.Dialect,
	typedlines.Dialect,
	gobus.Dialect,
	openaichat.Dialect,
	aisdkui.Dialect,
	openairesponses.Dialect,
	agui.Dialect,
	chunkframed.Dialect,
	anthropic.Dialect,
	publicsse.Dialect,
	dialect.SSE,
}

// Lookup returns the dialect of a name (case-insensitive).
func Lookup(name string) (dialect.Dialect, bool) {
	for _, d := range All {
		if strings.EqualFold(d.Name(), name) {
			return d, true
		}
	}
	return nil, false
}

// Names lists every dialect name, sorted.
func Names() []string {
	out := make([]string, 0, len(All))
	for _, d := range All {
		out = append(out, d.Name())
	}
	sort.Strings(out)
	return out
}

// NewDetector returns a detector over every dialect but the sse fallback.
func NewDetector() *dialect.Detector {
	return dialect.NewDetector(All[:len(All)-1])
}
