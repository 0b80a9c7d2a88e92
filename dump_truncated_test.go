package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDumpNDJSONKeepsTruncatedTail: `check` on an NDJSON dump reports the
// event the capture ended in (sse-truncated), as `check` on the capture
// does; the dump used to drop it silently (issue 11, item 13).
func TestDumpNDJSONKeepsTruncatedTail(t *testing.T) {
	dir := t.TempDir()
	capture := filepath.Join(dir, "cut.sse")
	happy, err := os.ReadFile("testdata/examples/example-happy.sse")
	if err != nil {
		t.Fatal(err)
	}
	cut := string(happy) + "event: text\ndata: {\"event_type\":\"text\",\"chunk\":\"lost"
	if err := os.WriteFile(capture, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	d := runCLI(t, "", "dump", "--format", "ndjson", capture)
	if d.code != 0 || !strings.Contains(d.stdout, `{"truncated":true,`) {
		t.Fatalf("dump: exit %d\n%s%s", d.code, d.stdout, d.stderr)
	}
	dumped := filepath.Join(dir, "cut.ndjson")
	if err := os.WriteFile(dumped, []byte(d.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := func(path string) []string {
		var rs []string
		for _, a := range parseReports(t, runCLI(t, "", "check", "--format", "json", path).stdout)[0].Alarms {
			rs = append(rs, a.Rule)
		}
		slices.Sort(rs)
		return rs
	}
	want, got := rules(capture), rules(dumped)
	if !slices.Contains(want, "sse-truncated") || !slices.Equal(got, want) {
		t.Errorf("check on the dump: %v\ncheck on the capture: %v", got, want)
	}
}
