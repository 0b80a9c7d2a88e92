package report

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
)

// byteRepeater yields n copies of one byte.
type byteRepeater struct {
	b byte
	n int
}

func (r *byteRepeater) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// TestLostLineIsAnError: a JSONL line too long to read (over 64 MiB) is
// skipped, and the bytes it recorded are missing from the check: a
// capture-corrupt error, so check fails, not the warn of damage that may
// have lost nothing.
func TestLostLineIsAnError(t *testing.T) {
	src, err := os.ReadFile("../../testdata/examples/example-happy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	header, rest, _ := bytes.Cut(src, []byte("\n"))
	long := io.MultiReader(strings.NewReader(`{"t":0,"data":"`), &byteRepeater{'x', 64<<20 + 16}, strings.NewReader("\"}\n"))
	in := io.MultiReader(bytes.NewReader(header), strings.NewReader("\n"), long, bytes.NewReader(rest))
	c, err := capture.OpenReader("long.jsonl", in, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(c, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range rep.Alarms {
		if a.Rule == "capture-corrupt" {
			found = true
			if a.Severity != invariants.SevError || !strings.Contains(a.Message, "longer than 64 MiB") {
				t.Errorf("capture-corrupt %s %q, want an error naming the skipped line", a.Severity, a.Message)
			}
		}
	}
	if !found || rep.Counts.Error == 0 {
		t.Errorf("no capture-corrupt error; alarms %+v", rep.Alarms)
	}
}
