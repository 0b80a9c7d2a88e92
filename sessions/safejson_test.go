package sessions

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"framescope/decode"
)

// catUnsafe returns the first rune of a written file that a terminal could
// act on or that hides text (a raw control but the line feed, C1, bidi,
// zero-width), or -1; invalid UTF-8 counts as unsafe.
func catUnsafe(b []byte) rune {
	if !utf8.Valid(b) {
		return utf8.RuneError
	}
	for _, r := range string(b) {
		if r != '\n' && decode.UnsafeRune(r) {
			return r
		}
	}
	return -1
}

// TestRecordEscapesUnsafeRunes: chunks, headers (one not UTF-8: it used to
// reach the file through json.Marshal with its U+009B and U+202E raw), the
// URL and the end line of a capture are written with every unsafe rune
// escaped, and the chunks read back byte-exact.
func TestRecordEscapesUnsafeRunes(t *testing.T) {
	body := "data: {\"chunk\":\"\x1b[2J\u009b\u202e\u2066\u200b\ufeff\u061c\u00ad\x7f\"}\n\n: \u2028\n\n"
	c, err := openString(t, body, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	rc := Record(&metaOverride{Capture: c, m: Meta{Name: "in", Kind: KindSSE, URL: "http://127.0.0.1/\u202eevil",
		ResponseHeaders: map[string]string{"X-Evil": "a\xff\u009b\u202eb", "X-\u200bName": "v"}}}, &file, RecordOptions{})
	for {
		if _, err := rc.Next(); err != nil {
			break
		}
	}
	rc.Close()
	if r := catUnsafe(file.Bytes()); r != -1 {
		t.Fatalf("the capture holds a raw %U:\n%s", r, file.String())
	}
	back, err := OpenReader("back.jsonl", bytes.NewReader(file.Bytes()), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for {
		ch, err := back.Next()
		if err == io.EOF {
			break
		}
		got = append(got, ch.Data...)
	}
	if string(got) != body {
		t.Errorf("read back %q, want %q", got, body)
	}
	if h := back.Meta().ResponseHeaders["X-Evil"]; h != "a\ufffd\u009b\u202eb" {
		t.Errorf("header read back as %q", h)
	}
}

// metaOverride is a capture with other metadata (a live session's).
type metaOverride struct {
	Capture
	m Meta
}

func (c *metaOverride) Meta() Meta { return c.m }

// TestLibraryMetadataSafeToCat: a session's metadata file escapes what the
// listing escapes.
func TestLibraryMetadataSafeToCat(t *testing.T) {
	l := &Library{Dir: filepath.Join(t.TempDir(), "lib")}
	id, f, err := l.Create(time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	meta := SessionMeta{ID: id, URL: "http://127.0.0.1/\u202eexe.txt\u009b", Source: "record", End: "error: \u2066x\u200b",
		Turns: []TurnSummary{{ResponseID: "r\u061c\u00ad"}}}
	if err := l.Finish(meta); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(l.metaPath(id))
	if err != nil {
		t.Fatal(err)
	}
	if r := catUnsafe(b); r != -1 {
		t.Fatalf("the metadata holds a raw %U:\n%s", r, b)
	}
	list, err := l.List()
	if err != nil || len(list) != 1 || list[0].URL != meta.URL || !strings.HasPrefix(list[0].End, "error: \u2066") {
		t.Fatalf("read back %+v (%v)", list, err)
	}
}
