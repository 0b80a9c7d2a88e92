package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// Test helpers: the same as the ui package's (a test package cannot share
// them with another).

// captureSource is the inspector's capture source (ui/source.Capture,
// which a test of this package cannot import) as the store's tests need
// it: a raw SSE file's blocks are read back from the file, others spill.
func captureSource(name string, c sessions.Capture, opts invariants.Options) Source {
	return Source{Name: name, Run: func(ctx context.Context, f *Feeder) {
		var file ByteSource
		if m := c.Meta(); m.Kind == sessions.KindSSE && m.Name != "" && m.Name != "-" {
			if fh, err := os.Open(m.Name); err == nil {
				file = fh
			}
		}
		h := f.Capture(file, c.Meta())
		res, err := pipeline.Run(c, report.Listed(opts), h)
		f.Finish(EndOf(res, err))
	}}
}

// examples is the repository's example captures.
var examples = filepath.Join("..", "..", "testdata", "examples")

// storeOf runs a source to its end and applies every batch to a fresh
// store.
func storeOf(t testing.TB, src Source) *Store {
	t.Helper()
	var batches []*Batch
	f := Start(context.Background(), src, func(b *Batch) { batches = append(batches, b) }, time.Millisecond)
	<-f.Sent()
	st := NewStore()
	for _, b := range batches {
		st.Apply(b)
	}
	return st
}

func openSource(t testing.TB, path string) Source {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return captureSource(filepath.Base(path), c, invariants.Options{})
}

func readerSource(t testing.TB, name, data string) Source {
	t.Helper()
	c, err := capture.OpenReader(name, strings.NewReader(data), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	return captureSource(name, c, invariants.Options{})
}

const frameFmt = "event: %s\ndata: {\"event_type\":\"%s\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.%03dZ\",\"response_id\":\"%s\"%s}\n\n"

func frame(typ, rid string, ms int, extra string) string {
	return fmt.Sprintf(frameFmt, typ, typ, ms, rid, extra)
}

// floodFile writes n frames of body (every one an alarm under PC3).
func floodFile(t testing.TB, body string, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "flood.sse")
	if err := os.WriteFile(path, []byte(strings.Repeat(body, n)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func pc3Source(t testing.TB, path string) Source {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return captureSource(filepath.Base(path), c, invariants.Options{Dialect: "pc3"})
}

// sseFrame is one raw SSE event of a v0.5 frame of turn rid.
func sseFrame(typ, rid, extra string) string {
	data := fmt.Sprintf(`{"event_type":%q,"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":%q`, typ, rid)
	if extra != "" {
		data += "," + extra
	}
	return "event: " + typ + "\ndata: " + data + "}\n\n"
}

// writeSSE writes a capture made of events and returns its path.
func writeSSE(t testing.TB, events []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "capture.sse")
	if err := os.WriteFile(p, []byte(strings.Join(events, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
