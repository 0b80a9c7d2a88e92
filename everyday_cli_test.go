package main

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// twoEntryHAR writes a HAR with two SSE entries (a clean sse stream and a
// PC3 turn without its terminal) and one non-SSE entry between them.
func twoEntryHAR(t *testing.T) string {
	t.Helper()
	entry := func(url, mime, text string) map[string]any {
		return map[string]any{
			"startedDateTime": "2026-05-15T18:00:00.000Z",
			"request":         map[string]any{"method": "POST", "url": url, "headers": []any{}},
			"response": map[string]any{"status": 200, "headers": []any{},
				"content": map[string]any{"mimeType": mime, "text": text}},
		}
	}
	broken := `data: {"event_type":"response_id","version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"r1"}` + "\n\n"
	har := map[string]any{"log": map[string]any{"version": "1.2", "entries": []any{
		entry("http://x/a", "text/event-stream", "data: hello\n\n"),
		entry("http://x/page", "text/html", "<p>"),
		entry("http://x/b", "text/event-stream", broken),
	}}}
	b, _ := json.Marshal(har)
	p := filepath.Join(t.TempDir(), "two.har")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckHAREveryEntry(t *testing.T) {
	har := twoEntryHAR(t)
	r := runCLI(t, "", "check", "--format", "json", har)
	reps := parseReports(t, r.stdout)
	if r.code != 1 || len(reps) != 2 || reps[0].Source != har+"#0" || reps[1].Source != har+"#1" {
		t.Fatalf("exit %d, reports %+v\nstderr %s", r.code, reps, r.stderr)
	}
	if reps[0].Counts["error"] != 0 || reps[1].Counts["error"] == 0 {
		t.Errorf("entry 0 should be clean, entry 1 broken: %+v", reps)
	}
	// --entry N picks one, reported under the file's own name.
	r = runCLI(t, "", "check", "--format", "json", "--entry", "0", har)
	reps = parseReports(t, r.stdout)
	if r.code != 0 || len(reps) != 1 || reps[0].Source != har {
		t.Fatalf("--entry 0: exit %d, %+v\n%s", r.code, reps, r.stderr)
	}
	// JUnit carries every entry.
	r = runCLI(t, "", "check", "--format", "junit", har)
	var doc struct {
		Suites []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Suites) != 2 || doc.Suites[1].Name != har+"#1" {
		t.Fatalf("junit: %v %+v\n%s", err, doc, r.stdout)
	}
	// The text report names each entry.
	r = runCLI(t, "", "check", har)
	if !strings.Contains(r.stdout, har+"#0: ") || !strings.Contains(r.stdout, har+"#1: ") {
		t.Errorf("text report:\n%s", r.stdout)
	}
}

func TestCheckJUnitUnreadableInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.sse")
	r := runCLI(t, "", "check", "--format", "junit", missing, "testdata/examples/example-happy.jsonl")
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	var doc struct {
		Suites []struct {
			Name   string `xml:"name,attr"`
			Errors int    `xml:"errors,attr"`
			Cases  []struct {
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != missing || doc.Suites[0].Errors != 1 ||
		len(doc.Suites[0].Cases) != 1 || doc.Suites[0].Cases[0].Error == nil ||
		!strings.Contains(doc.Suites[0].Cases[0].Error.Message, "missing.sse: no such file") {
		t.Fatalf("errored testcase missing:\n%s", r.stdout)
	}
}

func TestEmptyInputsAreReadable(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.sse")
	blank := filepath.Join(dir, "blank.jsonl")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(blank, []byte("\n\r\n \n"), 0o644)
	for _, f := range []string{"text", "json", "junit"} {
		r := runCLI(t, "", "check", "--format", f, empty, blank)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s: exit %d, stderr %q\n%s", f, r.code, r.stderr, r.stdout)
		}
	}
	r := runCLI(t, "", "check", "--format", "json", "-")
	if reps := parseReports(t, r.stdout); r.code != 0 || len(reps) != 1 || reps[0].Dialect != "sse" || reps[0].Frames != 0 {
		t.Errorf("empty stdin: exit %d %+v %s", r.code, reps, r.stderr)
	}
	if r := runCLI(t, "", "dump", empty); r.code != 0 {
		t.Errorf("dump empty: exit %d %s", r.code, r.stderr)
	}
}

// sseServer answers every request with an empty event stream (the server
// closes without a byte) and records what it was sent.
type seenRequest struct {
	method, ua, body, x string
}

func emptyStreamServer(t *testing.T) (*httptest.Server, func() []seenRequest) {
	var mu sync.Mutex
	var seen []seenRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenRequest{r.Method, r.UserAgent(), string(b), r.Header.Get("X-Test")})
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
	}))
	t.Cleanup(srv.Close)
	return srv, func() []seenRequest { mu.Lock(); defer mu.Unlock(); return append([]seenRequest(nil), seen...) }
}

func TestVersionEverywhere(t *testing.T) {
	a, b := runCLI(t, "", "--version"), runCLI(t, "", "version")
	v, ok := strings.CutPrefix(strings.TrimSpace(a.stdout), "framescope version ")
	if a.code != 0 || b.code != 0 || a.stdout != b.stdout || !ok || v == "" {
		t.Fatalf("--version %q (%d), version %q (%d)", a.stdout, a.code, b.stdout, b.code)
	}
	r := runCLI(t, "", "check", "--format", "json", "testdata/examples/example-happy.jsonl")
	var rep map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep["version"] != v {
		t.Errorf("JSON report version %v, want %q (%v)", rep["version"], v, err)
	}
	srv, seen := emptyStreamServer(t)
	r = runCLI(t, "", "connect", "--headless", "--no-save", srv.URL+"/api/chat")
	// A stream closed without a byte is a readable, clean input.
	if r.code != 0 || !strings.Contains(r.stdout, "0 frames") {
		t.Errorf("empty live stream: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if s := seen(); len(s) != 1 || s[0].ua != "framescope/"+v {
		t.Errorf("User-Agent: %+v, want framescope/%s", s, v)
	}
}

func TestSmallCLIThings(t *testing.T) {
	r := runCLI(t, "", "chek", "x.sse")
	if r.code != 2 || !strings.Contains(r.stderr, "Did you mean this?") || !strings.Contains(r.stderr, "    check") {
		t.Errorf("suggestion: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "/nope.sse")
	if r.code != 2 || strings.TrimSpace(r.stderr) != "framescope: /nope.sse: no such file" {
		t.Errorf("missing file: %d %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "check", "--help")
	if !strings.Contains(r.stdout, "Examples:\n  framescope check ") {
		t.Errorf("check --help has no Examples:\n%s", r.stdout)
	}
	r = runCLI(t, "", "record", "--help")
	if !strings.HasPrefix(r.stdout, "Send one request") || strings.Contains(r.stdout, "terminal UI as it arrives") ||
		!strings.Contains(r.stdout, "framescope record ") {
		t.Errorf("record --help describes something else:\n%s", r.stdout)
	}
	for _, c := range []string{"", "check", "open", "dump", "connect", "record", "serve", "demo", "sessions", "rules"} {
		r = runCLI(t, "", strings.Fields(c+" --help")...)
		for _, bad := range []string{"(default -1)", "(default 0s)", "FloodFrames", "'Authorization: Bearer $TOKEN'"} {
			if strings.Contains(r.stdout, bad) {
				t.Errorf("%s --help shows %s", c, bad)
			}
		}
	}
	if r = runCLI(t, "", "connect", "--help"); !strings.Contains(r.stdout, `-H "Authorization: Bearer $TOKEN"`) {
		t.Errorf("connect example lost its double quotes:\n%s", r.stdout)
	}
	if r = runCLI(t, "", "serve", "--scenarios"); strings.Contains(r.stdout, "FloodFrames") {
		t.Errorf("a Go identifier in serve --scenarios:\n%s", r.stdout)
	}
	a := runCLI(t, "", "dump", "--format", "json", "testdata/examples/example-happy.jsonl")
	b := runCLI(t, "", "dump", "--format", "ndjson", "testdata/examples/example-happy.jsonl")
	if a.code != 0 || a.stdout != b.stdout || a.stdout == "" {
		t.Errorf("dump --format json (%d) differs from ndjson: %q", a.code, a.stderr)
	}
	if r = runCLI(t, "", "check", "--entry", "-2", "x.har"); r.code != 2 || !strings.Contains(r.stderr, "entry index") {
		t.Errorf("--entry -2: %d %q", r.code, r.stderr)
	}
}

// TestOpenNotATerminal: open (and the FILE shorthand) with stdout in a file
// or a pipe prints the frames as dump does, never a blank screen.
func TestOpenNotATerminal(t *testing.T) {
	const f = "testdata/examples/example-happy.jsonl"
	dump := runCLI(t, "", "dump", f)
	for _, args := range [][]string{{"open", f}, {f}, {f, "--dialect", "pc3"}} {
		r := runCLI(t, "", args...)
		want := dump.stdout
		if len(args) == 3 {
			want = strings.Replace(want, "(detected)", "(forced)", 1)
		}
		if r.code != 0 || r.stdout != want || !strings.Contains(r.stderr, "not a terminal") {
			t.Errorf("%v: exit %d, stderr %q, stdout:\n%s", args, r.code, r.stderr, r.stdout)
		}
	}
	if r := runCLI(t, "", "open", "/nope.sse"); r.code != 2 || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("open missing: %d %q", r.code, r.stderr)
	}
}

// TestInspectorExitStatusIsOneRule: open, connect and demo exit by one
// rule (docs/inspector.md): 1 when a stream shown had an error alarm, 0
// otherwise. Without a terminal they print instead of drawing; the rule is
// the same (the TUI path: ui.TestOpenCaptureReturnsCounts).
func TestInspectorExitStatusIsOneRule(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"open", "testdata/examples/example-broken.sse"}, 1},
		{[]string{"open", "testdata/examples/example-happy.sse"}, 0},
		{[]string{"demo", "broken", "--speed", "0", "--no-save"}, 1},
		{[]string{"demo", "happy", "--speed", "0", "--no-save"}, 0},
	} {
		if r := runCLI(t, "", tc.args...); r.code != tc.want {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, r.code, tc.want, r.stderr)
		}
	}
	url := startServe(t, "--scenario", "broken", "--speed", "max")
	if r := runCLI(t, "", "connect", url, "--no-save"); r.code != 1 {
		t.Errorf("connect broken: exit %d, want 1 (stderr %q)", r.code, r.stderr)
	}
}

// TestURLWithoutSchemeAndShorthandFlags: host:port/path gets http://, and
// `framescope URL flags` is connect with those flags.
func TestURLWithoutSchemeAndShorthandFlags(t *testing.T) {
	srv, seen := emptyStreamServer(t)
	hostPath := strings.TrimPrefix(srv.URL, "http://") + "/api/chat"
	body := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(body, []byte(`{"message":"hi"}`), 0o644)
	r := runCLI(t, "", "connect", "--headless", "--no-save", hostPath)
	if r.code != 0 || !strings.Contains(r.stderr, "GET "+srv.URL+"/api/chat") {
		t.Fatalf("connect without a scheme: %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, "", hostPath, "-d", "@"+body, "-H", "X-Test: y", "--no-save")
	if r.code != 0 || !strings.Contains(r.stderr, "POST "+srv.URL+"/api/chat") {
		t.Fatalf("shorthand with flags: %d\n%s", r.code, r.stderr)
	}
	s := seen()
	if len(s) != 2 || s[1].method != "POST" || s[1].body != `{"message":"hi"}` || s[1].x != "y" {
		t.Errorf("requests: %+v", s)
	}
	// The capture shorthand takes open's flags too.
	har := twoEntryHAR(t)
	r = runCLI(t, "", har, "--entry", "1")
	// The inspector's exit status is check's (docs/inspector.md).
	if want := runCLI(t, "", "check", har, "--entry", "1").code; r.code != want || !strings.Contains(r.stdout, "response_id") || strings.Contains(r.stdout, "hello") {
		t.Errorf("FILE --entry 1: %d %q\n%s", r.code, r.stderr, r.stdout)
	}
}

// TestConnectCurlFlags: what "Copy as cURL" emits is accepted, and bare
// numbers are seconds.
func TestConnectCurlFlags(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
	}))
	defer srv.Close()
	u := srv.URL + "/api/chat"
	r := runCLI(t, "", "connect", "--headless", "--no-save", u, "--data-raw", `{"a":"@x"}`, "-b", "sid=1", "-u", "me:pw",
		"-N", "-s", "-i", "-v", "--max-time", "5", "--connect-timeout", "2", "--ttfe", "1.5", "--idle", "3")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, "", "connect", "--headless", "--no-save", u, "--json", `{"m":1}`)
	if r.code != 0 {
		t.Fatalf("--json: exit %d\n%s", r.code, r.stderr)
	}
	body := filepath.Join(t.TempDir(), "b.json")
	os.WriteFile(body, []byte(`{"f":1}`), 0o644)
	if r = runCLI(t, "", "connect", "--headless", "--no-save", u, "--data-binary", "@"+body); r.code != 0 {
		t.Fatalf("--data-binary: exit %d\n%s", r.code, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 {
		t.Fatalf("%d requests", len(got))
	}
	if r0 := got[0]; r0.Method != "POST" || bodies[0] != `{"a":"@x"}` || r0.Header.Get("Cookie") != "sid=1" {
		t.Errorf("request 0: %s %q cookie %q", r0.Method, bodies[0], r0.Header.Get("Cookie"))
	}
	if user, pw, ok := got[0].BasicAuth(); !ok || user != "me" || pw != "pw" {
		t.Errorf("-u: %q %q %v", user, pw, ok)
	}
	if bodies[1] != `{"m":1}` || got[1].Header.Get("Content-Type") != "application/json" {
		t.Errorf("--json: %q %q", bodies[1], got[1].Header.Get("Content-Type"))
	}
	if bodies[2] != `{"f":1}` {
		t.Errorf("--data-binary @file: %q", bodies[2])
	}
	if r := runCLI(t, "", "connect", "--headless", "--no-save", u, "-d", "x", "--json", "{}"); r.code != 2 || !strings.Contains(r.stderr, "one request body") {
		t.Errorf("two bodies: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "connect", "--no-save", u, "--connect-timeout", "soon"); r.code != 2 || !strings.Contains(r.stderr, "want seconds or a duration") {
		t.Errorf("bad timeout: %d %q", r.code, r.stderr)
	}
}

// TestConnectMaxTime: --max-time stops a stream that never ends.
func TestConnectMaxTime(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(": hi\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	start := time.Now()
	r := runCLI(t, "", "connect", "--headless", "--no-save", srv.URL, "--max-time", "0.3")
	if time.Since(start) > 10*time.Second || !strings.Contains(r.stderr, "--max-time 300ms reached") {
		t.Errorf("exit %d after %s\n%s", r.code, time.Since(start), r.stderr)
	}
}

// TestFlagErrorsArePlain: a bad number says what the flag wants, not Go's
// strconv error, and names the help to read.
func TestFlagErrorsArePlain(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--scenario", "flood", "--flood-frames", "x"},
		{"sessions", "prune", "--keep", "ten"},
	} {
		r := runCLI(t, "", args...)
		if r.code != 2 || strings.Contains(r.stderr, "strconv") || !strings.Contains(r.stderr, "want a whole number") ||
			!strings.Contains(r.stderr, "--help)") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}
