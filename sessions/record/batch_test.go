package record

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
)

// sliceCapture hands its chunks, then io.EOF.
type sliceCapture struct {
	chunks []string
	i      int
}

func (s *sliceCapture) Meta() sessions.Meta { return sessions.Meta{Kind: sessions.KindSSE} }
func (s *sliceCapture) Next() (sessions.Chunk, error) {
	if s.i == len(s.chunks) {
		return sessions.Chunk{}, io.EOF
	}
	s.i++
	return sessions.Chunk{Data: []byte(s.chunks[s.i-1])}, nil
}
func (s *sliceCapture) End() invariants.End              { return invariants.End{Kind: invariants.EndEOF} }
func (s *sliceCapture) TakeProblems() []sessions.Problem { return nil }
func (s *sliceCapture) Close() error                     { return nil }

// writeLog keeps every Write a recorder makes.
type writeLog struct {
	mu     sync.Mutex
	writes [][]byte
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, bytes.Clone(p))
	w.mu.Unlock()
	return len(p), nil
}

func (w *writeLog) snapshot() (n int, all []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, b := range w.writes {
		all = append(all, b...)
	}
	return len(w.writes), all
}

// TestRecordFlushDelay: with a FlushDelay the chunk lines are written in
// batches — many lines a write, every write whole lines — and a batch
// reaches the file within the delay even when no more chunks come (the
// crash-safety bound), the end line at once.
func TestRecordFlushDelay(t *testing.T) {
	var chunks []string
	for range 200 {
		chunks = append(chunks, "data: {\"x\":\"0123456789\"}\n\n")
	}
	src := &sliceCapture{chunks: chunks}
	w := &writeLog{}
	const delay = 50 * time.Millisecond
	rec := New(src, w, Options{FlushDelay: delay})
	if n, _ := w.snapshot(); n != 1 {
		t.Fatalf("the header must be written at once: %d writes", n)
	}
	for range 200 {
		if _, err := rec.Next(); err != nil {
			t.Fatal(err)
		}
	}
	// No more chunks: the batch still reaches the writer within the delay.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, all := w.snapshot()
		if bytes.Count(all, []byte("\n")) == 201 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch never reached the writer: %d lines", bytes.Count(all, []byte("\n")))
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := rec.Next(); err != io.EOF {
		t.Fatal(err)
	}
	rec.Close()
	n, all := w.snapshot()
	if n > 10 {
		t.Errorf("%d writes for 202 lines: not batched", n)
	}
	w.mu.Lock()
	for i, b := range w.writes {
		if len(b) == 0 || b[len(b)-1] != '\n' {
			t.Errorf("write %d does not end a line: %q", i, b[max(0, len(b)-20):])
		}
	}
	w.mu.Unlock()
	lines := strings.Split(strings.TrimSuffix(string(all), "\n"), "\n")
	if len(lines) != 202 || !strings.Contains(lines[201], `"end":"eof"`) {
		t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

// TestRecordFlushDelayWholeLines: a batch that fills the buffer is written
// before the line that would not fit, never split inside it.
func TestRecordFlushDelayWholeLines(t *testing.T) {
	var chunks []string
	for i := range 40 {
		chunks = append(chunks, "data: "+strings.Repeat("x", 3000+i*97)+"\n\n")
	}
	// A line longer than a batch may hold goes out on its own, in its place.
	chunks[20] = "data: " + strings.Repeat("y", 2*batchMax) + "\n\n"
	w := &writeLog{}
	rec := New(&sliceCapture{chunks: chunks}, w, Options{FlushDelay: time.Hour})
	for {
		if _, err := rec.Next(); err != nil {
			break
		}
	}
	rec.Close()
	n, all := w.snapshot()
	if n < 3 || bytes.Count(all, []byte("\n")) != 42 {
		t.Fatalf("%d writes, %d lines", n, bytes.Count(all, []byte("\n")))
	}
	if lines := bytes.Split(all, []byte("\n")); !bytes.Contains(lines[21], []byte("yyyy")) {
		t.Fatal("the long line is not the 20th chunk's")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, b := range w.writes {
		if b[len(b)-1] != '\n' {
			t.Fatalf("write %d (%d bytes) ends mid-line", i, len(b))
		}
	}
}
