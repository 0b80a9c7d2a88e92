package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestPC3Golden runs every PC3 capture of testdata through `check --format
// json` and compares the report with the one framescope wrote before the
// dialect layer existed (testdata/pc3-golden, generated from that main):
// moving PC3 onto the common turn model must not change a byte of its
// report, except the keys the dialect layer adds (docs/dialects.md) ("dialect"; "outcome" and
// "terminal_event" on turns).
func TestPC3Golden(t *testing.T) {
	t.Parallel() // reads testdata only: beside the scripts
	goldens := repoGlob(t, "testdata/pc3-golden/*.json")
	if len(goldens) < 200 {
		t.Fatalf("only %d goldens in testdata/pc3-golden", len(goldens))
	}
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".json")
		capture := "testdata/rules/" + name
		if _, err := os.Stat(repoPath(capture)); err != nil {
			capture = "testdata/examples/" + name
		}
		t.Run(name, func(t *testing.T) {
			// --stall 0: delivery-stall came after the goldens (docs/timing.md);
			// the silences of the idle-gap captures raise it now.
			args := []string{"check", "--format", "json", "--stall", "0"}
			if raw, err := os.ReadFile(repoPath(capture + ".want")); err == nil {
				for _, line := range strings.Split(string(raw), "\n") {
					line = strings.TrimSpace(line)
					switch {
					case line == "# registry":
						args = append(args, "--registry", "testdata/rules/registry")
					case strings.HasPrefix(line, "# idle "):
						args = append(args, "--idle", strings.TrimPrefix(line, "# idle "))
					case strings.HasPrefix(line, "# ttfe "):
						args = append(args, "--ttfe", strings.TrimPrefix(line, "# ttfe "))
					}
				}
			}
			res := runCLI(t, "", append(args, capture)...)
			want, err := os.ReadFile(repoPath(g))
			if err != nil {
				t.Fatal(err)
			}
			got, wantV := stripDialectKeys(t, res.stdout), stripDialectKeys(t, string(want))
			if !reflect.DeepEqual(got, wantV) {
				t.Errorf("report changed\n got:  %s\n want: %s", res.stdout, want)
			}
			// A non-2xx body is not read as SSE (http-status.fires*): with
			// no frame to detect a dialect from, the report says sse.
			if d, ok := got["dialect"]; ok && d != "pc3" && !(d == "sse" && strings.HasPrefix(name, "http-status.fires")) {
				t.Errorf("dialect %v, want pc3", d)
			}
		})
	}
}

// stripDialectKeys decodes one report and removes the keys the dialect
// layer added, checking they hold what docs/dialects.md says when present.
func stripDialectKeys(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, line)
	}
	delete(m, "dialect")
	delete(m, "version") // the build's version (e2e/testdata/script/version.txtar), added after the goldens
	delete(m, "timed")   // docs/timing.md, added after the goldens
	turns, _ := m["turns"].([]any)
	for _, tr := range turns {
		tm := tr.(map[string]any)
		delete(tm, "outcome")
		delete(tm, "terminal_event")
		delete(tm, "timing")
	}
	return m
}
