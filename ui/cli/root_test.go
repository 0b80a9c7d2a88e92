package cli

import (
	"io"
	"strings"
	"testing"

	"framescope/invariants/dialects"
)

// TestRootNamesEveryDialect: framescope --help says which dialects it
// speaks; a dialect added to the registry must be named there too.
func TestRootNamesEveryDialect(t *testing.T) {
	root := NewRoot(Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	long := strings.Join(strings.Fields(root.Long), " ")
	for _, name := range dialects.Names() {
		if !strings.Contains(long, name+",") && !strings.Contains(long, name+")") && !strings.Contains(long, "plain "+name) {
			t.Errorf("the root command's description does not name the dialect %s:\n%s", name, root.Long)
		}
	}
}
