package cli

import (
	"strings"

	"framescope/invariants"
)

// parseSeverityFlag reads a severity flag (--fail-on, --min-severity)
// case-insensitively: WARN is warn.
func parseSeverityFlag(s string) (invariants.Severity, bool) {
	return invariants.ParseSeverity(strings.ToLower(strings.TrimSpace(s)))
}
