package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// failingReader yields its data, then fails: a pipe that breaks part way.
type failingReader struct{ r io.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("connection reset by peer")
	}
	return n, err
}

// TestCheckReadErrorIsNotClean: an input whose reading fails part way is
// reported as far as it was read, with a capture-corrupt error (the bytes
// after the failure are lost), so check fails (exit 1), never 0, even when
// what was read is clean.
func TestCheckReadErrorIsNotClean(t *testing.T) {
	body := `data: {"type":"log","content":"a"}` + "\n\n" + `data: {"type":"done","stats":{}}` + "\n\n"
	var out, errOut bytes.Buffer
	root := NewRoot(Env{Stdin: &failingReader{strings.NewReader(body)}, Stdout: &out, Stderr: &errOut})
	code := Execute(root, []string{"check", "-"})
	if code != 1 || !strings.Contains(out.String(), "error  capture-corrupt") {
		t.Errorf("exit %d, want 1 with a capture-corrupt error; stdout %q stderr %q", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "read error") || !strings.Contains(out.String(), "dialect typed-lines") {
		t.Errorf("want the report of what was read and the read error named; stdout %q stderr %q", out.String(), errOut.String())
	}
}
