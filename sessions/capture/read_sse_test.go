package capture

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

func TestSSEHappy(t *testing.T) {
	want := sessiontest.ReadFile(t, "../testdata/happy.sse")
	c := mustOpen(t, "../testdata/happy.sse", OpenOptions{})
	m := c.Meta()
	if m.Kind != sessions.KindSSE || m.Timed || m.HTTP || m.Synthetic {
		t.Errorf("meta %+v", m)
	}
	d := sessiontest.Drain(t, c)
	if !bytes.Equal(d.Data, want) {
		t.Errorf("bytes differ")
	}
	for _, ch := range d.Chunks {
		if ch.HasTime || ch.Line != 0 {
			t.Errorf("chunk %+v has a time or line", ch)
		}
	}
	if d.End != (invariants.End{Kind: invariants.EndEOF}) || len(d.Probs) != 0 {
		t.Errorf("end %+v problems %v", d.End, d.Probs)
	}
}

// BOM, CRLF and leading garbage are passed on exactly: the decoder judges them.
func TestSSEVerbatim(t *testing.T) {
	for _, name := range []string{"../testdata/bom-crlf.sse.jsonl", "../testdata/garbage-start.sse"} {
		want := sessiontest.ReadFile(t, name)
		d := sessiontest.Drain(t, mustOpen(t, name, OpenOptions{}))
		if !bytes.Equal(d.Data, want) {
			t.Errorf("%s: bytes differ", name)
		}
	}
}

func TestSSEReadErrorEndsStream(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: 1\n\n"), iotest.ErrReader(errors.New("connection reset")))
	c, err := OpenReader("net", r, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := sessiontest.Drain(t, c)
	if string(d.Data) != "data: 1\n\n" {
		t.Errorf("data %q", d.Data)
	}
	if d.End.Kind != invariants.EndError || !strings.Contains(d.End.Detail, "connection reset") {
		t.Errorf("end %+v", d.End)
	}
	if len(d.Probs) != 1 || !strings.Contains(d.Probs[0].Message, "connection reset") {
		t.Errorf("problems %v", d.Probs)
	}
}

// A large raw SSE file streams in bounded chunks without being read whole.
func TestSSELargeFileStreams(t *testing.T) {
	const size = 50 << 20
	path := filepath.Join(t.TempDir(), "big.sse")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	block := []byte("event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"response_id\":\"resp_big\",\"chunk\":\"lorem ipsum dolor sit amet\"}\n\n")
	written := 0
	for written < size {
		n, _ := w.Write(block)
		written += n
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)

	c := mustOpen(t, path, OpenOptions{})
	total, chunks, maxChunk := 0, 0, 0
	for {
		ch, err := c.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(ch.Data) > readChunkSize {
			t.Fatalf("chunk of %d bytes", len(ch.Data))
		}
		maxChunk = max(maxChunk, len(ch.Data))
		total += len(ch.Data)
		chunks++
	}
	c.Close()
	runtime.ReadMemStats(&after)

	if total != written {
		t.Fatalf("read %d bytes, wrote %d", total, written)
	}
	if chunks < written/readChunkSize {
		t.Errorf("only %d chunks", chunks)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("allocated %d bytes to stream a %d-byte file", alloc, written)
	}
	t.Logf("%d bytes in %d chunks (largest %d)", total, chunks, maxChunk)
}
