package report

import (
	"os"
	"strings"
	"testing"
)

// TestSourceDocsMatchSourcesPage: every link the CI formats give a rule
// is one docs/sources.md lists for its label.
func TestSourceDocsMatchSourcesPage(t *testing.T) {
	page, err := os.ReadFile("../../docs/sources.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range sourceDocs {
		found := false
		for _, row := range strings.Split(string(page), "\n") {
			if strings.HasPrefix(row, "| `"+strings.TrimSpace(d.label)) && strings.Contains(row, d.url) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q → %s: no Documents row of docs/sources.md says so", d.label, d.url)
		}
	}
	if sourceURL("RFC 3629") == "" || sourceURL("§5.5") != "" || sourceURL("framescope") != "" {
		t.Error("sourceURL")
	}
}
