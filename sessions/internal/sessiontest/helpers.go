package sessiontest

import (
	"io"
	"os"
	"testing"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// Drained is everything a capture yields.
type Drained struct {
	Data   []byte
	Chunks []sessions.Chunk // Data copied
	Probs  []sessions.Problem
	End    invariants.End
}

// Drain reads a capture to the end, copying each chunk.
func Drain(t testing.TB, c sessions.Capture) Drained {
	t.Helper()
	var d Drained
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
		d.Data = append(d.Data, ch.Data...)
		d.Chunks = append(d.Chunks, ch)
		d.Probs = append(d.Probs, c.TakeProblems()...)
	}
	d.Probs = append(d.Probs, c.TakeProblems()...)
	d.End = c.End()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	return d
}

func ReadFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FakeCapture is a scripted Capture.
type FakeCapture struct {
	Info   sessions.Meta
	Chunks []sessions.Chunk
	Ending invariants.End
	i      int
	Probs  []sessions.Problem
	closed bool
}

func (f *FakeCapture) Meta() sessions.Meta { return f.Info }

func (f *FakeCapture) Next() (sessions.Chunk, error) {
	if f.closed || f.i >= len(f.Chunks) {
		return sessions.Chunk{}, io.EOF
	}
	f.i++
	return f.Chunks[f.i-1], nil
}

func (f *FakeCapture) End() invariants.End { return f.Ending }

func (f *FakeCapture) TakeProblems() []sessions.Problem {
	p := f.Probs
	f.Probs = nil
	return p
}

func (f *FakeCapture) Close() error { f.closed = true; return nil }

// CatUnsafe returns the first rune of a written file that a terminal could
// act on or that hides text (a raw control but the line feed, C1, bidi,
// zero-width), or -1; invalid UTF-8 counts as unsafe.
func CatUnsafe(b []byte) rune {
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

func Clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

const BenchSeed = 20260515

// reportWriter is a check report's three formats.
type reportWriter interface {
	WriteText(w io.Writer) error
	WriteJSON(w io.Writer) error
	WriteJUnit(w io.Writer, failOn invariants.Severity) error
}

// WriteReport writes rep in format (text, json, junit), failing tb on an
// error.
func WriteReport(tb testing.TB, rep reportWriter, format string, w io.Writer) {
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

const JSONLHeader = `{"framescope_capture":1,"url":"http://h/x","method":"POST","status":200,"response_headers":{"Content-Type":"text/event-stream"},"started_at":"2026-03-02T09:15:00Z"}`

const PC3Envelope = `"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"r1"`
