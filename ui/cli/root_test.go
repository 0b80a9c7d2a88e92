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
	named := map[string]bool{}
	for _, w := range strings.FieldsFunc(root.Long, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }) {
		named[w] = true
	}
	for _, name := range dialects.Names() {
		if !named[name] {
			t.Errorf("the root command's description does not name the dialect %s:\n%s", name, root.Long)
		}
	}
}
