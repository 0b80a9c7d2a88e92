package sessions

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
)

func TestSSEHappy(t *testing.T) {
	want := readFile(t, "testdata/happy.sse")
	c := mustOpen(t, "testdata/happy.sse", OpenOptions{})
	m := c.Meta()
	if m.Kind != KindSSE || m.Timed || m.HTTP || m.Synthetic {
		t.Errorf("meta %+v", m)
	}
	d := drain(t, c)
	if !bytes.Equal(d.data, want) {
		t.Errorf("bytes differ")
	}
	for _, ch := range d.chunks {
		if ch.HasTime || ch.Line != 0 {
			t.Errorf("chunk %+v has a time or line", ch)
		}
	}
	if d.end != (End{Kind: EndEOF}) || len(d.probs) != 0 {
		t.Errorf("end %+v problems %v", d.end, d.probs)
	}
}

// BOM, CRLF and leading garbage are passed on exactly: the decoder judges them.
func TestSSEVerbatim(t *testing.T) {
	for _, name := range []string{"testdata/bom-crlf.sse.jsonl", "testdata/garbage-start.sse"} {
		want := readFile(t, name)
		d := drain(t, mustOpen(t, name, OpenOptions{}))
		if !bytes.Equal(d.data, want) {
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
	d := drain(t, c)
	if string(d.data) != "data: 1\n\n" {
		t.Errorf("data %q", d.data)
	}
	if d.end.Kind != EndError || !strings.Contains(d.end.Detail, "connection reset") {
		t.Errorf("end %+v", d.end)
	}
	if len(d.probs) != 1 || !strings.Contains(d.probs[0].Message, "connection reset") {
		t.Errorf("problems %v", d.probs)
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
