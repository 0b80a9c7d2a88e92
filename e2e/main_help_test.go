package e2e

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"framescope/ui/cli"
)

// sentinelDefault matches a help line that shows a magic value as the
// default ("(default -1)"): a flag whose unset state is a sentinel must
// print no default at all, or one a user can read.
var sentinelDefault = regexp.MustCompile(`\(default -\d+\)`)

// TestHelpShowsNoSentinelDefaults runs every command's --help through the
// real binary and looks for sentinel defaults.
func TestHelpShowsNoSentinelDefaults(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(cli.NewRoot(cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}), nil)
	if len(paths) < 10 {
		t.Fatalf("only %d commands found: %v", len(paths), paths)
	}
	seenEntry := false
	for _, p := range paths {
		r := runCLI(t, "", append(append([]string(nil), p...), "--help")...)
		name := "framescope " + strings.Join(p, " ")
		if r.code != 0 {
			t.Errorf("%s --help: exit %d\n%s", name, r.code, r.stderr)
			continue
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if sentinelDefault.MatchString(line) {
				t.Errorf("%s --help shows a sentinel default:\n%s", name, line)
			}
			if strings.Contains(line, "--entry") {
				seenEntry = true
			}
		}
	}
	if !seenEntry {
		t.Error("no command's help shows --entry: the scan read no flags")
	}
}
