package sessiontest

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"io"
	"os"
	"runtime"
	"sync"
	"testing"

	"framescope/sessions"
)

const HAREntryHead = `{"log":{"version":"1.2","entries":[
{"startedDateTime":"2026-05-15T18:00:00.000Z","request":{"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":[{"name":"Accept","value":"text/event-stream"}]},
 "response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"mimeType":"text/event-stream"`

const HAREntryTail = "}}}\n]}}\n"

// jsonEscapingWriter writes base64 text into a JSON string as some
// exporters do: "/" escaped as "\/", a "\n" escape every 76 characters.
type jsonEscapingWriter struct {
	w   *bufio.Writer
	col int
}

func (j *jsonEscapingWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		if c == '/' {
			j.w.WriteString(`\/`)
		} else {
			j.w.WriteByte(c)
		}
		if j.col++; j.col == 76 {
			j.w.WriteString(`\n`)
			j.col = 0
		}
	}
	return len(p), nil
}

// WriteBase64HAR writes a HAR whose one SSE entry holds a generated, valid
// PC3 stream of at least size bytes in base64, and returns the stream's
// SHA-256 and stats.
func WriteBase64HAR(t testing.TB, path string, size int64) ([]byte, GenStats) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.WriteString(HAREntryHead + `,"encoding":"base64","text":"`)
	enc := base64.NewEncoder(base64.StdEncoding, &jsonEscapingWriter{w: bw})
	sum := sha256.New()
	st, err := WriteCapture(io.MultiWriter(enc, sum), size, BenchSeed)
	if err != nil {
		t.Fatal(err)
	}
	enc.Close()
	bw.WriteString(`"` + HAREntryTail)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return sum.Sum(nil), st
}

// HeapPeak samples HeapInuse while f runs (every 5 ms and at the end) and
// returns the peak above the heap in use before.
func HeapPeak(f func()) (peak uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var mu sync.Mutex
	stop, done := make(chan struct{}), make(chan struct{})
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		if ms.HeapInuse > base {
			peak = max(peak, ms.HeapInuse-base)
		}
		mu.Unlock()
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				sample()
				runtime.Gosched()
			}
		}
	}()
	f()
	close(stop)
	<-done
	sample()
	return peak
}

// DrainInto reads a capture to its end into h.
func DrainInto(t testing.TB, c sessions.Capture, h hash.Hash) (n int64, chunks int) {
	t.Helper()
	for {
		ch, err := c.Next()
		if err == io.EOF {
			return n, chunks
		}
		if err != nil {
			t.Fatal(err)
		}
		h.Write(ch.Data)
		n += int64(len(ch.Data))
		chunks++
	}
}
