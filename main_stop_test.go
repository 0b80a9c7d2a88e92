package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordMaxFramesAndBytes: record and connect --max-frames / --max-bytes
// against a server that never stops: the stream is stopped on purpose,
// the capture's end line says which limit, check reads it back as a
// cancel (exit 0, no alarm), and bad values are refused naming the flag.
func TestRecordMaxFramesAndBytes(t *testing.T) {
	frame := "event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"resp_f\",\"chunk\":\"x\"}\n\n"
	head := strings.Replace(strings.Replace(frame, "text", "response_id", 2), `,"chunk":"x"`, "", 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(head))
		piece := []byte(strings.Repeat(frame, 200))
		for r.Context().Err() == nil {
			if _, err := w.Write(piece); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	cases := []struct {
		args []string
		end  string
	}{
		{[]string{"record", srv.URL, "--max-frames", "500"}, "cancelled: stopped: --max-frames 500 reached"},
		{[]string{"record", srv.URL, "--max-bytes", "64KiB"}, "cancelled: stopped: --max-bytes 65536 reached"},
		{[]string{"connect", "--headless", srv.URL, "--max-frames", "3"}, "cancelled: stopped: --max-frames 3 reached"},
	}
	for i, tc := range cases {
		t.Run(tc.args[0]+" "+strings.Join(tc.args[len(tc.args)-2:], " "), func(t *testing.T) {
			out := filepath.Join(dir, "stop"+string(rune('a'+i))+".jsonl")
			flag := "-o"
			if tc.args[0] == "connect" {
				flag = "--record"
			}
			r := runCLI(t, "", append(tc.args, flag, out, "--no-save")...)
			if r.code != 0 || !strings.Contains(r.stdout, "ended "+tc.end) {
				t.Fatalf("exit %d (want 0, as a cancel)\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, `"end":"`+tc.end+`"`) {
				t.Fatalf("the capture's last line is %s", last)
			}
			c := runCLI(t, "", "check", "--format", "json", "--ttfe", "1h", out)
			if c.code != 0 || !strings.Contains(c.stdout, `"end":"`+tc.end+`"`) || !strings.Contains(c.stdout, `"counts":{"error":0,"warn":0`) {
				t.Fatalf("check: exit %d\n%s%s", c.code, c.stdout, c.stderr)
			}
		})
	}
	for _, bad := range [][]string{{"--max-frames", "-1"}, {"--max-frames", "many"}, {"--max-bytes", "12QB"}} {
		r := runCLI(t, "", append([]string{"record", srv.URL, "-o", filepath.Join(dir, "bad.jsonl"), "--no-save"}, bad...)...)
		if r.code != 2 || !strings.Contains(r.stderr, bad[0]) {
			t.Errorf("%v: exit %d, stderr %q (want 2 and the flag named)", bad, r.code, r.stderr)
		}
	}
}
