package e2e

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Issue 11, items 3–7, through the real binary: a hostile or broken
// server (loopback, started here) and a disk that fails.

const hardenTurn = "event: response_id\ndata: {\"event_type\":\"response_id\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"r1\"}\n\n" +
	"event: completed\ndata: {\"event_type\":\"completed\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"r1\"}\n\ndata: [DONE]\n\n"

// hardenServer serves a short turn and keeps every request's headers.
type hardenServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func newHardenServer(t *testing.T, h http.HandlerFunc) *hardenServer {
	s := &hardenServer{}
	if h == nil {
		h = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte(hardenTurn))
		}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(r.Context()))
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *hardenServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

// TestRecordRedirects: no redirect is followed without -L (the 3xx is the
// response: Location shown, http-status, exit 1); with -L a hop to another
// origin carries none of the user's headers, and the final URL is shown.
func TestRecordRedirects(t *testing.T) {
	other := newHardenServer(t, nil)
	first := newHardenServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/stream?token=SECRET1", http.StatusFound)
	})
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := runCLI(t, "", "record", first.URL+"/start", "-o", out, "--no-save", "-H", "X-Api-Key: SECRET2", "-H", "Authorization: Bearer SECRET3")
	if r.code != 1 || !strings.Contains(r.stderr, "Location: "+other.URL+"/stream?token=[redacted]") || !strings.Contains(r.stdout, "http-status") ||
		strings.Contains(r.stdout+r.stderr, "SECRET") {
		t.Errorf("without -L: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("without -L the redirect was followed (%d requests)", n)
	}

	r = runCLI(t, "", "record", first.URL+"/start", "-L", "-o", out, "--no-save", "-H", "X-Api-Key: SECRET2", "-H", "Authorization: Bearer SECRET3", "-H", "X-Auth-Token: SECRET4")
	if r.code != 0 || !strings.Contains(r.stderr, "GET "+other.URL+"/stream?token=[redacted] → HTTP/1.1 200 OK") ||
		!strings.Contains(r.stderr, "(redirected from "+first.URL+"/start)") || !strings.Contains(r.stdout, "followed 1 redirect") {
		t.Errorf("-L: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := other.requests()
	if len(reqs) != 1 {
		t.Fatalf("-L: %d requests reached the other origin", len(reqs))
	}
	for _, h := range []string{"X-Api-Key", "Authorization", "X-Auth-Token", "Referer"} {
		if v := reqs[0].Header.Get(h); v != "" {
			t.Errorf("-L: the other origin got %s: %s", h, v)
		}
	}
	if b, _ := os.ReadFile(out); !bytes.Contains(b, []byte(`"url":"`+other.URL+`/stream?token=[redacted]"`)) || bytes.Contains(b, []byte("SECRET")) {
		t.Errorf("-L: the capture's header:\n%s", bytes.SplitN(b, []byte("\n"), 2)[0])
	}
}

// TestRecordQuerySecrets: secrets in the query string and in token headers
// reach no file (capture, library) and no output; --keep-secrets keeps
// them in the capture.
func TestRecordQuerySecrets(t *testing.T) {
	srv := newHardenServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Session-Token", "SECRET5")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(hardenTurn))
	})
	data := t.TempDir()
	t.Setenv("FRAMESCOPE_DATA_DIR", data)
	out := filepath.Join(t.TempDir(), "q.jsonl")
	url := srv.URL + "/chat?api_key=SECRET1&model=m&sig=SECRET2"
	args := []string{"record", url, "-o", out, "--frames", "-H", "X-Auth-Token: SECRET3", "-H", "X-Goog-Api-Key: SECRET4"}
	var outputs strings.Builder
	r := runCLI(t, "", args...)
	if r.code != 0 {
		t.Fatalf("record: exit %d\n%s", r.code, r.stderr)
	}
	outputs.WriteString(r.stdout + r.stderr)
	for _, a := range [][]string{{"sessions"}, {"sessions", "--format", "json"}, {"check", "@last"}, {"dump", "@last"}, {"check", "--format", "json", out}} {
		r := runCLI(t, "", a...)
		outputs.WriteString(r.stdout + r.stderr)
	}
	if strings.Contains(outputs.String(), "SECRET") {
		t.Errorf("a secret was printed:\n%s", outputs.String())
	}
	files := []string{out}
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 3 {
		t.Errorf("files: %v", files)
	}
	for _, f := range files {
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte("SECRET")) {
			t.Errorf("%s holds a secret:\n%s", f, b)
		}
	}
	if b, _ := os.ReadFile(out); !bytes.Contains(b, []byte("api_key=[redacted]&model=m&sig=[redacted]")) {
		t.Errorf("capture header:\n%s", bytes.SplitN(b, []byte("\n"), 2)[0])
	}

	if r := runCLI(t, "", append(args, "--keep-secrets", "--no-save")...); r.code != 0 {
		t.Fatalf("--keep-secrets: exit %d\n%s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(out)
	for _, s := range []string{"SECRET1", "SECRET2", "SECRET3", "SECRET4", "SECRET5"} {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("--keep-secrets: %s is not in the capture", s)
		}
	}
}

// TestRecordGzipBomb: a gzip body inflating 1000× stops at --max-decoded
// in both the capture and the library copy, with a message that says so.
func TestRecordGzipBomb(t *testing.T) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte("data: x\n\n"), 1<<20)) // 9 MiB → ~10 KiB
	zw.Close()
	srv := newHardenServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	data := t.TempDir()
	t.Setenv("FRAMESCOPE_DATA_DIR", data)
	out := filepath.Join(t.TempDir(), "bomb.jsonl")
	r := runCLI(t, "", "record", srv.URL, "-o", out, "--max-decoded", "1MiB")
	if r.code == 2 || !strings.Contains(r.stdout, "decoded size passed 1 MiB") || !strings.Contains(r.stdout, "--max-decoded") {
		t.Errorf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	libFiles, _ := filepath.Glob(filepath.Join(data, "sessions", "*.jsonl"))
	for _, f := range append(libFiles, out) {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > 3<<19 { // 1.5 MiB: JSON escapes each "\n" as 2 bytes
			t.Errorf("%s: %d bytes past a 1 MiB bound", f, fi.Size())
		}
		t.Logf("%s: %d bytes from %d compressed", filepath.Base(f), fi.Size(), gz.Len())
	}
	if len(libFiles) != 1 {
		t.Errorf("library captures: %v", libFiles)
	}
	if r := runCLI(t, "", "record", srv.URL, "-o", out, "--max-decoded", "lots"); r.code != 2 || !strings.Contains(r.stderr, "--max-decoded") {
		t.Errorf("--max-decoded lots: exit %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "record", srv.URL, "-o", out, "--max-ratio", "0.5"); r.code != 2 || !strings.Contains(r.stderr, "--max-ratio") {
		t.Errorf("--max-ratio 0.5: exit %d %s", r.code, r.stderr)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests: a bad flag must fail before connecting", n)
	}
}
