package main

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

func TestSessionsEmptyLibrary(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	r := runCLI(t, "", "sessions")
	if r.code != 0 || !strings.Contains(r.stdout, "no saved sessions yet") || strings.Contains(r.stdout, "STARTED") {
		t.Errorf("table: exit %d %q", r.code, r.stdout)
	}
	r = runCLI(t, "", "sessions", "--format", "json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("json: exit %d %q", r.code, r.stdout)
	}
}

// Demos are listed, removed and pruned under their scenario's name.
func TestSessionsDemoLabelAndRm(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	for _, sc := range []string{"happy", "ag-ui"} {
		if r := runCLI(t, "", "demo", sc, "--headless", "--speed", "0", "-q"); r.code != 0 {
			t.Fatalf("demo %s: exit %d\n%s", sc, r.code, r.stderr)
		}
	}
	r := runCLI(t, "", "sessions")
	if !strings.Contains(r.stdout, "demo happy") || !strings.Contains(r.stdout, "demo ag-ui") || strings.Contains(r.stdout, "127.0.0.1") {
		t.Fatalf("demos not listed by scenario:\n%s", r.stdout)
	}
	ids := libraryIDs(t)
	if len(ids) != 2 {
		t.Fatalf("ids %v", ids)
	}
	// Completion offers @last and every @ID.
	c := runCLI(t, "", "__complete", "check", "@")
	for _, want := range []string{"@last", "@" + ids[0], "@" + ids[1], "demo ag-ui"} {
		if !strings.Contains(c.stdout, want) {
			t.Errorf("completion lacks %q:\n%s", want, c.stdout)
		}
	}
	c = runCLI(t, "", "__complete", "sessions", "rm", ids[1][:len(ids[1])-2])
	if !strings.Contains(c.stdout, ids[1]+"\t") || strings.Contains(c.stdout, ids[0]+"\t") && ids[0][:len(ids[1])-2] != ids[1][:len(ids[1])-2] {
		t.Errorf("rm completion:\n%s", c.stdout)
	}
}

func TestSessionsRmReferences(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FRAMESCOPE_DATA_DIR", data)
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	ids := []string{"20261120-100000-aaaa", "20261120-100000-aabb", "20261120-110000-cccc", "20261120-120000-dddd"}
	for i, id := range ids {
		fakeSession(t, data, id, "connect", base.Add(time.Duration(i)*time.Hour), 10)
	}
	// An ambiguous prefix is refused with its candidates; nothing goes,
	// not even the good reference beside it.
	r := runCLI(t, "", "sessions", "rm", "@last", "20261120-100000-aa")
	if r.code == 0 || !strings.Contains(r.stderr, "ambiguous") || !strings.Contains(r.stderr, ids[0]) ||
		!strings.Contains(r.stderr, ids[1]) || !strings.Contains(r.stderr, "nothing removed") {
		t.Fatalf("ambiguous: exit %d\n%s", r.code, r.stderr)
	}
	if got := libraryIDs(t); len(got) != 4 {
		t.Fatalf("something was removed: %v", got)
	}
	r = runCLI(t, "", "sessions", "rm", "@last", "20261120-100000-aab", "@20261120-11", "@last")
	if r.code != 0 || strings.Count(r.stdout, "removed ") != 3 {
		t.Fatalf("rm: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := libraryIDs(t); len(got) != 1 || got[0] != ids[0] {
		t.Errorf("left %v, want %s", got, ids[0])
	}
	r = runCLI(t, "", "sessions", "rm", "nope")
	if r.code == 0 || !strings.Contains(r.stderr, "no session with that ID") {
		t.Errorf("unknown: exit %d\n%s", r.code, r.stderr)
	}
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

// A data-less block's id reaches the NDJSON dump and comes back from it.
func TestDumpNDJSONDatalessID(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ids.sse")
	src := "id: 1\ndata: {\"a\":1}\n\nid: 2\n\nretry: 500\n\ndata: {\"b\":2}\n\n"
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "dump", "--format", "ndjson", p)
	if r.code != 0 || !strings.Contains(r.stdout, `{"block":true,"offset":21,"size":7,"arrival":null,"event":null,"id":"2"}`) ||
		!strings.Contains(r.stdout, `"retry":500}`) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	nd := filepath.Join(t.TempDir(), "ids.ndjson")
	if err := os.WriteFile(nd, []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	again := runCLI(t, "", "dump", "--format", "ndjson", nd)
	if again.stdout != r.stdout {
		t.Errorf("dump of the dump differs:\n%s---\n%s", again.stdout, r.stdout)
	}
	text := runCLI(t, "", "dump", nd)
	if !strings.Contains(text.stdout, "id=2") || !strings.Contains(text.stdout, "retry=500") {
		t.Errorf("text dump of the NDJSON:\n%s", text.stdout)
	}
	if c := runCLI(t, "", "check", nd); c.code != 0 {
		t.Errorf("check: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
}
