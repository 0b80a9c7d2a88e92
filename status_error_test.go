package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNonSuccessStatusIsNotSSE: a non-2xx body is an error page, not a turn
// stream. Through every face (record, check with and without a forced
// dialect, dump) only http-status — and content-type where the
// Content-Type is not text/event-stream — is raised: no sse-truncated, no
// terminal-missing, no dialect rule, no frame.
func TestNonSuccessStatusIsNotSSE(t *testing.T) {
	serve := func(status int, ct, body string) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.WriteHeader(status)
			w.Write([]byte(body))
		}))
		t.Cleanup(s.Close)
		return s.URL + "/api/chat"
	}
	dir := t.TempDir()
	capture502 := filepath.Join(dir, "502.jsonl")
	// A gateway that answers 502 but claims SSE and sends half an event:
	// still nothing but http-status.
	os.WriteFile(capture502, []byte(`{"framescope_capture":1,"url":"http://127.0.0.1:1/api/chat","method":"POST","status":502,"response_headers":{"Content-Type":"text/event-stream"},"started_at":"2026-05-15T18:00:00.000Z"}
{"t":0.01,"data":"event: response_id\ndata: {\"type\":\"response_id\",\"data\":{\"response_id\":\"r1\"}}\n\nevent: text\ndata: {\"type\":\"te"}
{"t":0.02,"end":"eof"}
`), 0o600)

	cases := []struct {
		name   string
		source func(t *testing.T) string // the capture to check
		want   []string
	}{
		{"500 html", func(t *testing.T) string {
			return record(t, serve(500, "text/html; charset=utf-8", "<html><body><h1>Internal Server Error</h1>\n<p>event: x\ndata: {\n"))
		}, []string{"content-type warn -", "http-status error -"}},
		{"404 json", func(t *testing.T) string {
			return record(t, serve(404, "application/json", `{"error":{"code":"not_found","message":"no such route"}}`))
		}, []string{"content-type warn -", "http-status error -"}},
		{"500 claiming sse", func(t *testing.T) string {
			return record(t, serve(500, "text/event-stream", "event: response_id\ndata: {\"type\":\"response_id\""))
		}, []string{"http-status error -"}},
		{"502 jsonl capture", func(t *testing.T) string { return capture502 }, []string{"http-status error -"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.source(t)
			for _, args := range [][]string{{"check", path, "--format", "json"}, {"check", path, "--format", "json", "--dialect", "pc3"}, {"check", path, "--format", "json", "--dialect", "openai-chat"}} {
				r := runCLI(t, "", args...)
				reps := parseReports(t, r.stdout)
				if r.code != 1 || len(reps) != 1 {
					t.Fatalf("%v: exit %d, %d reports\n%s%s", args[3:], r.code, len(reps), r.stdout, r.stderr)
				}
				if got := strings.Join(alarmLines(reps[0]), ", "); got != strings.Join(tc.want, ", ") || reps[0].Frames != 0 || len(reps[0].Turns) != 0 {
					t.Errorf("%v: alarms %q, %d frames, %d turns; want %q and no frame", args[3:], got, reps[0].Frames, len(reps[0].Turns), tc.want)
				}
				if reps[0].Counts["error"] != 1 {
					t.Errorf("%v: counts %v", args[3:], reps[0].Counts)
				}
			}
			r := runCLI(t, "", "dump", path)
			if strings.Contains(r.stdout, "truncated") || strings.Contains(r.stdout, "terminal-missing") || strings.Contains(r.stdout, "#0") {
				t.Errorf("dump framed the error body:\n%s", r.stdout)
			}
		})
	}
}

// record records url with the real binary (exit 1: http-status) and
// returns the capture; its own report must agree with check.
func record(t *testing.T, url string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := runCLI(t, "", "record", url, "-o", out, "--no-save")
	if r.code != 1 || !strings.Contains(r.stdout, "http-status") {
		t.Fatalf("record: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, rule := range []string{"sse-truncated", "terminal-missing", "start-missing", "frame-json"} {
		if strings.Contains(r.stdout+r.stderr, rule) {
			t.Errorf("record raised %s on an error page:\n%s%s", rule, r.stdout, r.stderr)
		}
	}
	return out
}

// TestRecordRequestBody: record keeps the request body in the capture's
// header, secrets redacted; --no-body leaves it out, --keep-secrets keeps
// it as sent.
func TestRecordRequestBody(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(": hi\n\n"))
	}))
	defer s.Close()
	body := `{"q":"hello","password":"SECRET"}`
	for _, tc := range []struct {
		flag, want string
	}{
		{"", `"request_body":"{\"q\":\"hello\",\"password\":\"[redacted]\"}"`},
		{"--no-body", ""},
		{"--keep-secrets", `"request_body":"{\"q\":\"hello\",\"password\":\"SECRET\"}"`},
	} {
		out := filepath.Join(t.TempDir(), "r.jsonl")
		args := []string{"record", s.URL, "-d", body, "-o", out, "--no-save"}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		if r := runCLI(t, "", args...); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", tc.flag, r.code, r.stdout, r.stderr)
		}
		b, _ := os.ReadFile(out)
		header, _, _ := strings.Cut(string(b), "\n")
		if tc.want == "" && strings.Contains(header, "request_body") || tc.want != "" && !strings.Contains(header, tc.want) {
			t.Errorf("%q: header %s", tc.flag, header)
		}
		if tc.flag != "--keep-secrets" && strings.Contains(string(b), "SECRET") {
			t.Errorf("%q: the secret was recorded", tc.flag)
		}
	}
}
