package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// encodedServer serves body encoded as the path says (/gzip, /deflate,
// /br) whatever the request asked.
func encodedServer(t *testing.T, body []byte) string {
	encoded := map[string][]byte{}
	for _, c := range []string{"gzip", "deflate", "br"} {
		encoded[c] = encodeBody(c, body)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", c)
		w.Write(encoded[c])
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestCompressedBombBounded: a br bomb (12 MiB of frames from a few KB)
// stops at the default ratio bound and the capture stays bounded; a
// --max-decoded bound holds through curl as well.
func TestCompressedBombBounded(t *testing.T) {
	frame := "data: " + strings.Repeat("x", 1000) + "\n\n"
	bomb := bytes.Repeat([]byte(frame), 12<<20/len(frame))
	u := encodedServer(t, bomb)
	capture := filepath.Join(t.TempDir(), "bomb.jsonl")
	r := runCLI(t, "", "record", u+"/br", "--compressed", "-o", capture, "--no-save")
	if !strings.Contains(r.stdout, "decompression ratio passed 100×") {
		t.Fatalf("exit %d; want the bomb stopped\n%s", r.code, tail(r.stdout+r.stderr, 800))
	}
	if fi, err := os.Stat(capture); err != nil || fi.Size() > 10<<20 {
		t.Errorf("capture: %v, %d bytes", err, fi.Size())
	}
	r = runCLI(t, "", "curl", u+"/br", "--compressed", "--", "--max-decoded", "256KiB", "-o", capture, "--no-save", "--headless")
	if !strings.Contains(r.stdout, "decoded size passed 256 KiB") {
		t.Errorf("--max-decoded: exit %d\n%s", r.code, tail(r.stdout+r.stderr, 800))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
