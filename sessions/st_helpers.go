package sessions

import (
	"io"
	"os"
	"testing"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
)

// drained is everything a capture yields.
type drained struct {
	data   []byte
	chunks []Chunk // Data copied
	probs  []Problem
	end    End
}

// drain reads a capture to the end, copying each chunk.
func drain(t testing.TB, c Capture) drained {
	t.Helper()
	var d drained
	for i := 0; ; i++ {
		if i > 1<<22 {
			t.Fatal("capture never ends")
		}
		ch, err := c.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		ch.Data = append([]byte(nil), ch.Data...)
		d.data = append(d.data, ch.Data...)
		d.chunks = append(d.chunks, ch)
		d.probs = append(d.probs, c.TakeProblems()...)
	}
	d.probs = append(d.probs, c.TakeProblems()...)
	d.end = c.End()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	return d
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lvFake is a scripted Capture.
type lvFake struct {
	meta   Meta
	chunks []Chunk
	end    End
	i      int
	probs  []Problem
	closed bool
}

func (f *lvFake) Meta() Meta { return f.meta }

func (f *lvFake) Next() (Chunk, error) {
	if f.closed || f.i >= len(f.chunks) {
		return Chunk{}, io.EOF
	}
	f.i++
	return f.chunks[f.i-1], nil
}

func (f *lvFake) End() End { return f.end }

func (f *lvFake) TakeProblems() []Problem {
	p := f.probs
	f.probs = nil
	return p
}

func (f *lvFake) Close() error { f.closed = true; return nil }

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

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

const benchSeed = 20260515

// reportWriter is a check report's three formats.
type reportWriter interface {
	WriteText(w io.Writer) error
	WriteJSON(w io.Writer) error
	WriteJUnit(w io.Writer, failOn invariants.Severity) error
}

// writeReport writes rep in format (text, json, junit), failing tb on an
// error.
func writeReport(tb testing.TB, rep reportWriter, format string, w io.Writer) {
	tb.Helper()
	var err error
	switch format {
	case "text":
		err = rep.WriteText(w)
	case "json":
		err = rep.WriteJSON(w)
	case "junit":
		err = rep.WriteJUnit(w, invariants.SevError)
	default:
		tb.Fatalf("format %q", format)
	}
	if err != nil {
		tb.Fatal(err)
	}
}

const jsonlHeader = `{"framescope_capture":1,"url":"http://h/x","method":"POST","status":200,"response_headers":{"Content-Type":"text/event-stream"},"started_at":"2026-03-02T09:15:00Z"}`

const env = `"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"r1"`
