package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fakeSession writes a finished session into the library under dir.
func fakeSession(t *testing.T, dir, id, source string, started time.Time, captureBytes int) {
	t.Helper()
	lib := filepath.Join(dir, "sessions")
	if err := os.MkdirAll(lib, 0o700); err != nil {
		t.Fatal(err)
	}
	meta := map[string]any{"id": id, "url": "http://127.0.0.1:40001/api/chat", "method": "POST", "source": source,
		"started_at": started.UTC().Format(time.RFC3339Nano), "duration_ns": 1e6, "frames": 1, "turns": []any{},
		"end": "eof", "status": 200, "capture": id + ".jsonl"}
	b, _ := json.Marshal(meta)
	if err := os.WriteFile(filepath.Join(lib, id+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, id+".jsonl"), []byte(strings.Repeat("x", captureBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
}

func libraryIDs(t *testing.T) []string {
	t.Helper()
	r := runCLI(t, "", "sessions", "--format", "json")
	var list []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("sessions --format json: %v\n%s", err, r.stdout)
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	return ids
}

func TestSessionsPrune(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FRAMESCOPE_DATA_DIR", data)
	now := time.Now().UTC()
	// Five sessions, 1, 2, 3, 4 and 5 days old, 1000 bytes of capture each.
	var ids []string
	for age := 5; age >= 1; age-- {
		started := now.Add(-time.Duration(age)*24*time.Hour - time.Hour)
		id := started.Format("20060102-150405") + "-000" + string(rune('0'+age))
		ids = append(ids, id)
		fakeSession(t, data, id, "demo:happy", started, 1000)
	}
	tests := []struct {
		args    []string
		code    int
		removed int    // sessions removed
		out     string // in stdout (or stderr when code != 0)
	}{
		{[]string{"--older-than", "3d", "--dry-run"}, 0, 0, "would remove " + ids[0]},
		{[]string{}, 2, 0, "give --keep N, --older-than AGE"},
		{[]string{"--older-than", "soon"}, 2, 0, "want an age such as 7d"},
		{[]string{"--keep", "-2"}, 2, 0, "0 or more"},
		{[]string{"--older-than", "30"}, 0, 0, "nothing to remove; 5 sessions left"},
		{[]string{"--older-than", "3d"}, 0, 3, "demo happy"},                        // 5, 4 and 3 days (and an hour) old
		{[]string{"--keep", "1", "--older-than", "72h"}, 0, 0, "nothing to remove"}, // 2 and 1 days old stay
		{[]string{"--keep", "1"}, 0, 1, "1 session left"},
	}
	left := 5
	for _, tt := range tests {
		r := runCLI(t, "", append([]string{"sessions", "prune"}, tt.args...)...)
		out := r.stdout
		if tt.code != 0 {
			out = r.stderr
		}
		if r.code != tt.code || !strings.Contains(out, tt.out) {
			t.Errorf("prune %v: exit %d, want %d and %q:\n%s%s", tt.args, r.code, tt.code, tt.out, r.stdout, r.stderr)
		}
		left -= tt.removed
		if got := libraryIDs(t); len(got) != left {
			t.Errorf("prune %v: %d sessions left, want %d: %v", tt.args, len(got), left, got)
		}
		if tt.removed > 0 && !regexp.MustCompile(`freed \d+(\.\d)? KB in \d sessions?`).MatchString(r.stdout) {
			t.Errorf("prune %v: no space freed line:\n%s", tt.args, r.stdout)
		}
	}
	if got := libraryIDs(t); len(got) != 1 || got[0] != ids[4] {
		t.Errorf("left %v, want the newest %s", got, ids[4])
	}
}

// The size cap: saving a session removes the oldest until the library is
// within FRAMESCOPE_LIBRARY_MAX, never the one saved, and says so.
func TestSessionsSizeCap(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FRAMESCOPE_DATA_DIR", data)
	old := time.Now().Add(-48 * time.Hour).UTC()
	fakeSession(t, data, "20200101-000000-0001", "connect", old, 20000)
	fakeSession(t, data, "20200101-000000-0002", "demo:ag-ui", old.Add(time.Hour), 20000)
	t.Setenv("FRAMESCOPE_LIBRARY_MAX", "30KB")
	r := runCLI(t, "", "demo", "happy", "--headless", "--speed", "0", "-q")
	if r.code != 0 || !strings.Contains(r.stderr, "removed the oldest 1 session") || !strings.Contains(r.stderr, "20200101-000000-0001") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	ids := libraryIDs(t)
	if len(ids) != 2 || ids[1] != "20200101-000000-0002" {
		t.Fatalf("left %v", ids)
	}
	// A cap smaller than the saved session keeps that session alone.
	t.Setenv("FRAMESCOPE_LIBRARY_MAX", "1")
	r = runCLI(t, "", "demo", "happy", "--headless", "--speed", "0", "-q")
	if got := libraryIDs(t); r.code != 0 || len(got) != 1 || !strings.Contains(r.stderr, "saved as session "+got[0]) {
		t.Fatalf("exit %d, left %v\n%s", r.code, got, r.stderr)
	}
	// A bad cap is named and does not stop the save.
	t.Setenv("FRAMESCOPE_LIBRARY_MAX", "lots")
	r = runCLI(t, "", "demo", "happy", "--headless", "--speed", "0", "-q")
	if got := libraryIDs(t); r.code != 0 || len(got) != 2 || !strings.Contains(r.stderr, "FRAMESCOPE_LIBRARY_MAX") {
		t.Fatalf("exit %d, left %v\n%s", r.code, got, r.stderr)
	}
}
