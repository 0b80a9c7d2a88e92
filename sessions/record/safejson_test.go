package record

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
)

// TestRecordEscapesUnsafeRunes: chunks, headers (one not UTF-8: it used to
// reach the file through json.Marshal with its U+009B and U+202E raw), the
// URL and the end line of a capture are written with every unsafe rune
// escaped, and the chunks read back byte-exact.
func TestRecordEscapesUnsafeRunes(t *testing.T) {
	body := "data: {\"chunk\":\"\x1b[2J\u009b\u202e\u2066\u200b\ufeff\u061c\u00ad\x7f\"}\n\n: \u2028\n\n"
	c, err := capture.OpenReader("in", strings.NewReader(body), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	rc := New(&metaOverride{Capture: c, m: sessions.Meta{Name: "in", Kind: sessions.KindSSE, URL: "http://127.0.0.1/\u202eevil",
		ResponseHeaders: map[string]string{"X-Evil": "a\xff\u009b\u202eb", "X-\u200bName": "v"}}}, &file, Options{})
	for {
		if _, err := rc.Next(); err != nil {
			break
		}
	}
	rc.Close()
	if r := sessiontest.CatUnsafe(file.Bytes()); r != -1 {
		t.Fatalf("the capture holds a raw %U:\n%s", r, file.String())
	}
	back, err := capture.OpenReader("back.jsonl", bytes.NewReader(file.Bytes()), capture.OpenOptions{})
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
	sessions.Capture
	m sessions.Meta
}

func (c *metaOverride) Meta() sessions.Meta { return c.m }
