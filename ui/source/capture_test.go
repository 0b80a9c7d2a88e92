package source

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"framescope/sessions"
	"framescope/sessions/capture"
)

var examples = filepath.Join("..", "..", "testdata", "examples")

// TestSSEFileReadsBack: a raw SSE capture's blocks are read back from its
// file; stdin and a JSONL capture, whose bytes are not the stream's, spill
// (no file).
func TestSSEFileReadsBack(t *testing.T) {
	sse := filepath.Join(examples, "example-broken.sse")
	raw, err := os.ReadFile(sse)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		open     func() (sessions.Capture, error)
		fromFile bool
	}{
		{"sse file", func() (sessions.Capture, error) { return capture.Open(sse, capture.OpenOptions{Entry: -1}) }, true},
		{"jsonl", func() (sessions.Capture, error) {
			return capture.Open(filepath.Join(examples, "example-happy.jsonl"), capture.OpenOptions{Entry: -1})
		}, false},
		{"stdin", func() (sessions.Capture, error) {
			return capture.Open("-", capture.OpenOptions{Entry: -1, Stdin: bytes.NewReader(raw)})
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.open()
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			file := sseFile(c.Meta())
			if (file != nil) != tc.fromFile {
				t.Fatalf("sseFile = %v, want a file: %v", file, tc.fromFile)
			}
			if file == nil {
				return
			}
			defer file.(*os.File).Close()
			b := make([]byte, len(raw))
			if n, _ := file.ReadAt(b, 0); n != len(raw) || !bytes.Equal(b, raw) {
				t.Errorf("read back %d bytes, not the capture's", n)
			}
		})
	}
}
