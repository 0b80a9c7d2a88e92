package main

import (
	"strings"
	"testing"
)

// TestNoArgsWithoutATerminalPrintsHelp: the picker is for terminals only;
// a script or a pipe still gets the usage.
func TestNoArgsWithoutATerminalPrintsHelp(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	r := runCLI(t, "")
	if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || !strings.Contains(r.stdout, "Available Commands:") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
