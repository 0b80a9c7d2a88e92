package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/sessions/internal/sessiontest"
)

// TestInputStdin: stdin is sniffed once and read on; an unrecognised
// stream is Open's error; a regular file is opened again by name.
func TestInputStdin(t *testing.T) {
	in := OpenInput("-", OpenOptions{Stdin: strings.NewReader("data: x\n\n")})
	c, err := in.Open(-1)
	if err != nil {
		t.Fatal(err)
	}
	if d := sessiontest.Drain(t, c); string(d.Data) != "data: x\n\n" {
		t.Errorf("read %q", d.Data)
	}
	if _, err := OpenInput("-", OpenOptions{Stdin: strings.NewReader("hello\nworld\n")}).Open(-1); err == nil || !strings.Contains(err.Error(), "not a recognised capture") {
		t.Errorf("garbage on stdin: %v", err)
	}
	if _, err := OpenInput("-", OpenOptions{}).Open(-1); err == nil {
		t.Error("no stdin: no error")
	}
	p := filepath.Join(t.TempDir(), "a.sse")
	if err := os.WriteFile(p, []byte("data: y\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := OpenInput(p, OpenOptions{})
	for i := 0; i < 2; i++ {
		c, err := f.Open(-1)
		if err != nil {
			t.Fatal(err)
		}
		if d := sessiontest.Drain(t, c); !bytes.Equal(d.Data, []byte("data: y\n\n")) {
			t.Errorf("open %d read %q", i, d.Data)
		}
		c.Close()
	}
	if IsStream(p) || IsStream(filepath.Dir(p)) || IsStream(p+".missing") || !IsStream("-") {
		t.Error("IsStream: a file, a folder, a missing path are no streams; - is")
	}
}
