package dialects_test

import (
	"os"
	"path/filepath"
	"testing"

	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/dialects/dialecttest"
)

// twoSeverities are the rules whose listing names the stronger severity
// and whose summary says when the weaker one applies.
var twoSeverities = map[string]bool{
	"frame-size": true, "terminal-missing": true, "tool-unfinished": true,
	"span-unclosed": true, "component-unfilled": true, "capture-corrupt": true,
	// ai-sdk-ui: late chunks a client still applies, a second start with
	// the same id, a finish-step after the first step (warn); ag-ui:
	// misplaced reasoning boundaries (warn).
	"after-terminal": true, "start-duplicate": true, "span-orphan": true, "span-duplicate": true,
	// openai-responses: a fresh stream counted from 1 (warn).
	"seq-gap": true,
	// openai-chat: a missing role under a non-OpenAI flavor (warn).
	"role-missing": true,
}

// TestListedSeverityIsRaised: every alarm a dialect raises on its captures
// is listed by `rules --dialect` at the severity raised (or, for a rule with
// two severities, at the stronger one), so the listing says what the
// checker does.
func TestListedSeverityIsRaised(t *testing.T) {
	for _, d := range dialects.All {
		listed := map[string]invariants.Severity{}
		for _, r := range d.Rules() {
			listed[r.Name] = r.Severity
		}
		dir := filepath.Join("..", "..", "testdata", "dialects", d.Name())
		if invariants.IsNative(d) {
			dir = filepath.Join("..", "..", "testdata", "rules")
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.sse"))
		if len(files) == 0 {
			t.Errorf("%s: no captures under %s", d.Name(), dir)
		}
		for _, f := range files {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range dialecttest.Run(d, string(body)).Alarms {
				want, ok := listed[a.Rule]
				switch {
				case !ok:
					t.Errorf("%s: %s raises %s, which `rules --dialect %s` does not list", d.Name(), f, a.Rule, d.Name())
				case a.Severity != want && !(twoSeverities[a.Rule] && a.Severity.Rank() < want.Rank()):
					t.Errorf("%s: %s raises %s at %s; the listing says %s", d.Name(), f, a.Rule, a.Severity, want)
				}
			}
		}
	}
}
