package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReferenceCommand covers the modes of `framescope reference` issue 14
// added: --diagram, the idle-timer note and refusal, and --export-tests
// from the captures built into the binary.
func TestReferenceCommand(t *testing.T) {
	// --diagram core: a small Mermaid picture, and DOT.
	r := runCLI(t, "", "reference", "--format", "mermaid", "--diagram", "core")
	if r.code != 0 || !strings.Contains(r.stdout, "stateDiagram-v2") || !strings.Contains(r.stdout, "idle --> connecting : connect") {
		t.Errorf("--diagram core: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "reference", "--format", "dot", "--diagram", "progress"); r.code != 0 || !strings.HasPrefix(r.stdout, "// The progress region") {
		t.Errorf("--diagram progress: exit %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "reference", "--format", "dot", "--diagram", "nope"); r.code != 2 {
		t.Errorf("--diagram nope: exit %d", r.code)
	}

	// The idle timer: stated on an untimed capture, refused when asked for.
	sse := "testdata/reference/probes/end-lost-with-running-tool.sse"
	if r := runCLI(t, "", "reference", "--replay", sse); r.code != 0 || !strings.Contains(r.stdout, "client idle timer: not replayed: the capture has no arrival times") {
		t.Errorf("untimed replay: exit %d\n%.400s", r.code, r.stdout)
	}
	if r := runCLI(t, "", "reference", "--replay", sse, "--client-idle", "30s"); r.code != 2 || !strings.Contains(r.stderr, "--client-idle") || r.stdout != "" {
		t.Errorf("--client-idle on raw SSE: exit %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "reference", "--replay", sse, "--client-idle", "0"); r.code != 0 || !strings.Contains(r.stdout, "client idle timer: off") {
		t.Errorf("--client-idle 0: exit %d %q", r.code, r.stderr)
	}
	timed := "testdata/reference/probes/idle-timer-late-terminal.jsonl"
	if r := runCLI(t, "", "reference", "--replay", timed, "--profile", "v0.5"); r.code != 0 || !strings.Contains(r.stdout, "idle_timer       v0.5   streaming → ended_without_terminal  give_up_idle") {
		t.Errorf("timed replay: exit %d\n%s", r.code, r.stdout)
	}

	// --export-tests writes the kit from the embedded captures.
	dir := filepath.Join(t.TempDir(), "kit")
	r = runCLI(t, "", "reference", "--export-tests", dir, "--profile", "both")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "wrote ") {
		t.Fatalf("--export-tests: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	var idx struct {
		Format string `json:"format"`
		Cases  []struct {
			Name    string            `json:"name"`
			Capture string            `json:"capture"`
			Expect  map[string]string `json:"expect"`
		} `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil || json.Unmarshal(b, &idx) != nil || idx.Format != "framescope-client-kit/1" || len(idx.Cases) < 250 {
		t.Fatalf("index.json: %v, %d cases", err, len(idx.Cases))
	}
	for _, c := range idx.Cases[:3] {
		for _, f := range []string{c.Capture, c.Expect["v0.5"], c.Expect["v0.4"]} {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
	}
	if readme, err := os.ReadFile(filepath.Join(dir, "README.md")); err != nil || !strings.Contains(string(readme), "## The conformance kit") {
		t.Errorf("README.md: %v", err)
	}
	if r := runCLI(t, "", "reference", "--export-tests", dir, "--replay", sse); r.code != 2 {
		t.Errorf("--export-tests with --replay: exit %d", r.code)
	}
}
