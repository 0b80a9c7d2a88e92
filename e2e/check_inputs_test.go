package e2e

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The inputs check reads, through the binary: what a user hands it that
// is not the plain capture file of the examples (a long first value, a
// pipe, a FIFO, a folder with links, a damaged header).

// ollamaChat is one frame of Ollama's /api/chat, its content as given.
func ollamaChat(content string, done bool) string {
	end := `false}`
	if done {
		end = `true,"done_reason":"stop"}`
	}
	return `{"model":"llama3","created_at":"2024-05-01T10:00:00Z","message":{"role":"assistant","content":"` + content + `"},"done":` + end
}

// TestCheckLongFirstValue: a raw NDJSON body (or JSON values as jq prints
// them) whose first frame is longer than the 64 KiB sniff window is read,
// from a file and from stdin, with --dialect ollama or detected, as one
// of 63 KiB is.
func TestCheckLongFirstValue(t *testing.T) {
	dir := t.TempDir()
	for _, kib := range []int{63, 64, 70, 200} {
		body := ollamaChat(strings.Repeat("x", kib<<10), false) + "\n" + ollamaChat("", true) + "\n"
		path := filepath.Join(dir, "chat.ndjson")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"check", "--format", "json", path},
			{"check", "--format", "json", "--dialect", "ollama", path},
			{"check", "--format", "json", "-"},
			{"check", "--format", "json", "--dialect", "ollama", "-"},
		} {
			stdin := ""
			if args[len(args)-1] == "-" {
				stdin = body
			}
			res := runCLI(t, stdin, args...)
			if res.code == 2 {
				t.Errorf("%d KiB: %v: exit 2: %s", kib, args[1:], res.stderr)
				continue
			}
			reps := parseReports(t, res.stdout)
			if len(reps) != 1 || reps[0].Dialect != "ollama" || reps[0].Frames != 2 || len(reps[0].Turns) != 1 {
				t.Errorf("%d KiB: %v: reports %+v", kib, args[1:], reps)
			}
		}
	}
	// Printed over lines (jq .): JSON values.
	pretty := "{\n  \"model\": \"llama3\",\n  \"created_at\": \"2024-05-01T10:00:00Z\",\n  \"message\": {\n    \"role\": \"assistant\",\n    \"content\": \"" +
		strings.Repeat("y", 70<<10) + "\"\n  },\n  \"done\": false\n}\n" + ollamaChat("", true) + "\n"
	res := runCLI(t, pretty, "check", "--format", "json", "-")
	if reps := parseReports(t, res.stdout); res.code == 2 || len(reps) != 1 || reps[0].Frames != 2 || reps[0].Dialect != "ollama" {
		t.Errorf("pretty-printed 70 KiB value: exit %d, %s %s", res.code, res.stdout, res.stderr)
	}
}

// TestCheckJSONLHeaderTooLong: a JSONL capture whose header line is over
// the 64 MiB line bound loses what the header recorded (an MCP request the
// dialect checks the stream against): a capture-corrupt error, exit 1,
// never a warning and exit 0. The file is sparse: its long line is a hole
// of zero bytes that costs no disk.
func TestCheckJSONLHeaderTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 64 MiB line")
	}
	path := filepath.Join(t.TempDir(), "mcp.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	head := `{"framescope_capture":1,"url":"http://127.0.0.1:8000/mcp","method":"POST","status":200,"response_headers":{"Content-Type":"text/event-stream"},"request_body":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"w\"}}","pad":"`
	rest := `"}` + "\n" +
		`{"t":0.05,"data":"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"isError\":false}}\n\n"}` + "\n" +
		`{"t":0.1,"end":"eof"}` + "\n"
	if _, err := f.WriteString(head); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(64<<20, 1); err != nil { // the hole
		t.Fatal(err)
	}
	if _, err := f.WriteString(rest); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, "", "check", "--format", "json", path)
	reps := parseReports(t, res.stdout)
	if res.code != 1 || len(reps) != 1 {
		t.Fatalf("exit %d, want 1: %s %s", res.code, res.stdout, res.stderr)
	}
	found := false
	for _, a := range reps[0].Alarms {
		if a.Rule == "capture-corrupt" && a.Severity == "error" && strings.Contains(a.Message, ":1: capture header line is longer than 64 MiB") {
			found = true
		}
	}
	if !found {
		t.Errorf("no capture-corrupt error naming the header line: %+v", reps[0].Alarms)
	}
}

// TestCheckFolderUnreadableSubfolder: a subfolder check cannot list is an
// unreadable input named in the report (exit 2), not skipped in silence
// with exit 0. Root lists a mode-000 folder: as root the binary runs as
// nobody through setpriv, and without setpriv the test skips (ui/cli's
// TestExpandFoldersUnreadable injects the error instead).
func TestCheckFolderUnreadableSubfolder(t *testing.T) {
	dir := t.TempDir()
	bin := builtBinary
	var prefix []string
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("root reads a mode-000 folder, and there is no setpriv to drop root")
		}
		// A copy nobody can run, in folders nobody can enter.
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := os.ReadFile(builtBinary)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, "framescope")
		if err := os.WriteFile(bin, raw, 0o755); err != nil {
			t.Fatal(err)
		}
		prefix = []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}
	}
	caps := filepath.Join(dir, "caps")
	locked := filepath.Join(caps, "locked")
	if err := os.MkdirAll(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	broken, err := os.ReadFile(repoPath("testdata/examples/example-broken.sse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(locked, "broken.sse"), broken, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(caps, "ok.sse"), []byte("data: {}\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755) // for t.TempDir's cleanup
	args := append(append(prefix, bin), "check", caps)
	cmd := exec.Command(args[0], args[1:]...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 2 || !strings.Contains(errb.String(), "caps/locked: a folder that cannot be read: permission denied") ||
		!strings.Contains(out.String(), "caps/ok.sse: ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// twoEntryHAR is a HAR of a clean SSE entry, a text/html one, and a PC3
// turn without its terminal (an error).
const twoEntryHAR = `{"log": {"version": "1.2", "entries": [
  {"startedDateTime": "2026-05-15T18:00:00.000Z",
   "request": {"method": "POST", "url": "http://x/a", "headers": []},
   "response": {"status": 200, "headers": [],
     "content": {"mimeType": "text/event-stream", "text": "data: hello\n\n"}}},
  {"startedDateTime": "2026-05-15T18:00:00.000Z",
   "request": {"method": "GET", "url": "http://x/page", "headers": []},
   "response": {"status": 200, "headers": [],
     "content": {"mimeType": "text/html", "text": "<p>"}}},
  {"startedDateTime": "2026-05-15T18:00:00.000Z",
   "request": {"method": "POST", "url": "http://x/b", "headers": []},
   "response": {"status": 200, "headers": [],
     "content": {"mimeType": "text/event-stream", "text": "data: {\"event_type\":\"response_id\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"r1\"}\n\n"}}}
]}}
`

// TestCheckHARWhateverItCameThrough: a HAR is checked entry by entry, its
// failing entry failing the run, whether it is a plain file, a .har.gz or
// on stdin (gzip or not): it was entry 0 only, exit 0, tests="1"
// failures="0", unless it was a plain file.
func TestCheckHARWhateverItCameThrough(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(twoEntryHAR))
	zw.Close()
	plain, packed := filepath.Join(dir, "s.har"), filepath.Join(dir, "s.har.gz")
	if err := os.WriteFile(plain, []byte(twoEntryHAR), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(packed, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, stdin, arg string
	}{
		{"file", "", plain},
		{"gzip file", "", packed},
		{"stdin", twoEntryHAR, "-"},
		{"gzip stdin", gz.String(), "-"},
	} {
		res := runCLI(t, tc.stdin, "check", "--format", "junit", tc.arg)
		suites := strings.Count(res.stdout, "<testsuite ")
		if res.code != 1 || suites != 2 || !strings.Contains(res.stdout, `tests="1" failures="1" `) {
			t.Errorf("%s: exit %d (want 1), %d testsuites (want 2):\n%s%s", tc.name, res.code, suites, res.stdout, res.stderr)
		}
		res = runCLI(t, tc.stdin, "check", "--format", "json", tc.arg)
		if reps := parseReports(t, res.stdout); res.code != 1 || len(reps) != 2 {
			t.Errorf("%s: json: exit %d, %d reports", tc.name, res.code, len(reps))
		}
	}
}
