package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConnectDialects: connect to each dialect's demo as that dialect's
// app would — a POST with a JSON body and Accept: text/event-stream to
// `framescope serve --scenario NAME` — record it, and check the recording:
// the dialect is detected from the stream alone and the turn is clean.
func TestConnectDialects(t *testing.T) {
	list := runCLI(t, "", "check", "--dialect", "list")
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(list.stdout), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] != "pc3" && f[0] != "sse" {
			names = append(names, f[0])
		}
	}
	if len(names) < 9 {
		t.Fatalf("check --dialect list names %d dialects: %q", len(names), list.stdout)
	}
	dir := t.TempDir()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			url := startServe(t, "--scenario", name, "--speed", "max")
			out := filepath.Join(dir, name+".jsonl")
			r := runCLI(t, "", "record", url, "-X", "POST", "-H", "Accept: text/event-stream", "-H", "Content-Type: application/json",
				"-d", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hello"}]}`, "-o", out, "--no-save")
			if r.code != 0 {
				t.Fatalf("record exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, name) {
				t.Errorf("record's summary does not name the dialect %s:\n%s", name, r.stdout)
			}
			reps := parseReports(t, runCLI(t, "", "check", "--format", "json", "--ttfe", "1h", out).stdout)
			if len(reps) != 1 || reps[0].Dialect != name {
				t.Fatalf("recording checked as %+v", reps)
			}
			if reps[0].Counts["error"]+reps[0].Counts["warn"] != 0 || len(reps[0].Turns) == 0 {
				t.Errorf("recording of the happy demo: %v, %d turns", alarmLines(reps[0]), len(reps[0].Turns))
			}
		})
	}
}
