package e2e

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"framescope/decode"
	"framescope/sessions/capture"
)

// hostileBody is a stream meant to hurt whoever cats its capture: escape
// sequences (an OSC 52 that writes the clipboard, a screen clear), C1
// controls (U+009B is a CSI on its own), bidi overrides and isolates,
// zero-width characters, a BOM mid-stream, DEL, and a chunk that is not
// UTF-8 (a lone 0x9b byte).
var hostileBody = []string{
	"event: text\x1b]52;c;aGk=\x07\ndata: {\"event_type\":\"text\",\"chunk\":\"\x1b[2J\u009b31m\u202egnp.exe\u2066\u200b\u200d\ufeff\x7f\"}\n\n",
	": keepalive \u2028 \u061c\u00ad\n\n",
	"data: {\"chunk\":\"\x9b[31m raw C1 byte\"}\n\n",
}

// TestCaptureSafeToCat: a hostile stream recorded to a capture (issue 11,
// item 14). The file holds no raw C0/C1 control, bidi or zero-width
// character — not even from a response header that is not UTF-8, which
// used to reach the file through json.Marshal with its U+009B and U+202E
// raw — and it reads back byte-exact.
func TestCaptureSafeToCat(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header()["X-Evil"] = []string{"a\xff\u009b\u202eb\u200b"}
		for _, p := range hostileBody {
			io.WriteString(w, p)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "hostile.jsonl")
	r := runCLI(t, "", "record", srv.URL, "-o", out, "--no-save")
	if r.code > 1 || !strings.Contains(r.stdout+r.stderr, "recorded to") { // 1: the stream raised errors
		t.Fatalf("record: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	assertCatSafe(t, file)

	// Read back: the same bytes, the same header (its invalid byte as U+FFFD).
	c, err := capture.Open(out, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got []byte
	for {
		ch, err := c.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ch.Data...)
	}
	if want := strings.Join(hostileBody, ""); string(got) != want {
		t.Errorf("read back:\n%q\nserved:\n%q", got, want)
	}
	if h := c.Meta().ResponseHeaders["X-Evil"]; h != "a\ufffd\u009b\u202eb\u200b" {
		t.Errorf("header read back as %q", h)
	}
}

// assertCatSafe fails for a raw control (but the line feeds), a C1, bidi
// or zero-width character, or invalid UTF-8 anywhere in a file.
func assertCatSafe(t *testing.T, file []byte) {
	t.Helper()
	if !utf8.Valid(file) {
		t.Errorf("the file is not UTF-8")
	}
	for i, line := range bytes.Split(file, []byte("\n")) {
		for _, r := range string(line) {
			if decode.UnsafeRune(r) {
				t.Errorf("line %d holds a raw %U: %q", i+1, r, line)
				break
			}
		}
	}
}
