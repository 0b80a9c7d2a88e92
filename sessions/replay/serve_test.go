package replay

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"framescope/decode"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/faults"
)

// --- helpers ------------------------------------------------------------------

// rpLine is a chunk line of a test JSONL capture.
type rpLine struct {
	T    float64
	Data []byte
}

// rpWriteJSONL writes a framescope JSONL capture and returns its path.
func rpWriteJSONL(t testing.TB, dir, name string, status int, contentType string, lines []rpLine, endT float64) string {
	t.Helper()
	var b bytes.Buffer
	hdr := map[string]any{
		"framescope_capture": 1,
		"url":                "http://127.0.0.1:8080/api/chat",
		"method":             "POST",
		"started_at":         "2026-05-15T18:00:00.000Z",
	}
	if status != 0 {
		hdr["status"] = status
		hdr["response_headers"] = map[string]string{"Content-Type": contentType}
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(hdr); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		m := map[string]any{"t": l.T}
		if utf8.Valid(l.Data) {
			m["data"] = string(l.Data)
		} else {
			m["b64"] = base64.StdEncoding.EncodeToString(l.Data)
		}
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Encode(map[string]any{"t": endT, "end": "eof"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rpStream builds a PC3-like SSE stream of n frames plus a [DONE] frame,
// with keep-alive comments between some of them. pad makes frames bigger;
// the text holds ", " and ": " so that string contents look like JSON
// structure.
func rpStream(n, pad int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		if i%3 == 1 {
			b.WriteString(": keepalive\n\n")
		}
		fmt.Fprintf(&b, "event: text\ndata: {\"event_type\":\"text\",\"i\":%d,\"text\":\"%s\"}\n\n", i, strings.Repeat("abc, def: ", pad))
	}
	b.WriteString("event: done\ndata: [DONE]\n\n")
	return b.Bytes()
}

// rpSplit cuts a stream into chunks of irregular sizes around size, so that
// frames straddle chunk boundaries.
func rpSplit(stream []byte, size int) [][]byte {
	var out [][]byte
	x := uint32(12345)
	for len(stream) > 0 {
		x = x*1103515245 + 12345
		n := size/2 + int(x>>16)%size + 1
		n = min(n, len(stream))
		out = append(out, stream[:n])
		stream = stream[n:]
	}
	return out
}

// rpReplayOf makes an in-memory Replay of chunks all due at once.
func rpReplayOf(chunks [][]byte) *Replay {
	r := &Replay{}
	for _, c := range chunks {
		r.Chunks = append(r.Chunks, ReplayChunk{Data: c})
	}
	r.Frames = len(replayIndexFrames(r.Chunks))
	return r
}

// rpConcat is the concatenation of a replay's chunks.
func rpConcat(r *Replay) []byte {
	var b []byte
	for _, c := range r.Chunks {
		b = append(b, c.Data...)
	}
	return b
}

// rpFrame is a dispatched event as the client sees it.
type rpFrame struct {
	Raw  []byte
	Data []byte
	At   time.Duration // since the request was sent (rpRead only)
}

// rpFrames parses a body into its dispatched events.
func rpFrames(body []byte) []rpFrame {
	var out []rpFrame
	_ = decode.ReadEvents(bytes.NewReader(body), func(ev *decode.Event) {
		if ev.Dispatched() {
			c := ev.Clone()
			out = append(out, rpFrame{Raw: c.Raw, Data: c.Data})
		}
	})
	return out
}

// rpSpans are the original frames' byte ranges, found independently of
// the server.
func rpSpans(stream []byte) []replaySpan {
	var out []replaySpan
	_ = decode.ReadEvents(bytes.NewReader(stream), func(ev *decode.Event) {
		if ev.Dispatched() {
			out = append(out, replaySpan{ev.Offset, ev.Offset + ev.Size})
		}
	})
	return out
}

// rpTracker counts the replay handlers running and signals each end.
type rpTracker struct {
	active atomic.Int32
	done   chan struct{}
}

func rpTrack(h http.Handler) (*rpTracker, http.Handler) {
	tr := &rpTracker{done: make(chan struct{}, 1000)}
	return tr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr.active.Add(1)
		defer func() {
			tr.active.Add(-1)
			select {
			case tr.done <- struct{}{}:
			default:
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// rpServe serves a replay on a loopback httptest server.
func rpServe(t testing.TB, r *Replay, opts ReplayOptions) (*httptest.Server, *rpTracker) {
	t.Helper()
	tr, h := rpTrack(r.Handler(opts))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, tr
}

// rpRead sends a request and reads the whole body, timing each dispatched
// frame's arrival and each byte count reached.
type rpResult struct {
	Proto   int // major HTTP version
	Status  int
	Header  http.Header
	Body    []byte
	Err     error // the body read error (nil at a clean EOF)
	Frames  []rpFrame
	Arrival []rpArrival
	Total   time.Duration
}

type rpArrival struct {
	N  int // bytes received so far
	At time.Duration
}

func rpRead(t testing.TB, client *http.Client, method, url string, body io.Reader) rpResult {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	res := rpResult{Proto: resp.ProtoMajor, Status: resp.StatusCode, Header: resp.Header}
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			c := ev.Clone()
			res.Frames = append(res.Frames, rpFrame{Raw: c.Raw, Data: c.Data, At: time.Since(start)})
		}
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			res.Body = append(res.Body, buf[:n]...)
			res.Arrival = append(res.Arrival, rpArrival{len(res.Body), time.Since(start)})
			fr.Feed(buf[:n], emit)
		}
		if err != nil {
			if err != io.EOF {
				res.Err = err
			}
			break
		}
	}
	fr.Close(emit)
	res.Total = time.Since(start)
	return res
}

// rpArrivalOf is when the first n bytes had all arrived.
func (r rpResult) rpArrivalOf(n int) time.Duration {
	for _, a := range r.Arrival {
		if a.N >= n {
			return a.At
		}
	}
	return -1
}

// rpNoHandlerGoroutines fails if replay handler goroutines are still
// running after a grace period.
func rpNoHandlerGoroutines(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		stacks := string(buf[:n])
		if !strings.Contains(stacks, "sessions.(*replayHandler)") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replay handler goroutines still running:\n%s", stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// rpWaitDone waits for n handler ends.
func rpWaitDone(t testing.TB, tr *rpTracker, n int, within time.Duration) {
	t.Helper()
	timeout := time.After(within)
	for i := 0; i < n; i++ {
		select {
		case <-tr.done:
		case <-timeout:
			t.Fatalf("replay handler still running after %v (%d of %d ended)", within, i, n)
		}
	}
}

// rpLog is a concurrency-safe log buffer.
type rpLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *rpLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *rpLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func rpFast() ReplayOptions { return ReplayOptions{Speed: math.Inf(1), Faults: faults.None()} }

// --- byte-exact replay ----------------------------------------------------------

func TestReplayByteExactJSONL(t *testing.T) {
	dir := t.TempDir()
	// Chunks that cut lines and frames anywhere, a CRLF block, a comment,
	// and bytes that are not UTF-8 (stored as b64).
	chunks := [][]byte{
		[]byte("event: response_id\ndata: {\"event_type\":\"response_id\",\"response_id\":\"r1\"}\n"),
		[]byte("\n: keepalive\n\nevent: text\r\ndata: {\"event_type\":\"text\",\"text\":\"caf\xc3"),
		[]byte("\xa9 \xff\xfe\"}\r\n\r\nevent: te"),
		[]byte("xt\ndata: {\"event_type\":\"text\",\"text\":\"two\"}\n\ndata: [DONE]\n\n"),
	}
	var lines []rpLine
	var want []byte
	for i, c := range chunks {
		lines = append(lines, rpLine{T: 0.001 * float64(i), Data: c})
		want = append(want, c...)
	}
	path := rpWriteJSONL(t, dir, "exact.jsonl", 200, "text/event-stream; charset=utf-8", lines, 0.004)
	r, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Frames != 4 {
		t.Errorf("Frames = %d, want 4", r.Frames)
	}
	if len(r.Chunks) != len(chunks) {
		t.Errorf("%d chunks, want %d", len(r.Chunks), len(chunks))
	}
	srv, _ := rpServe(t, r, rpFast())
	res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
	if res.Err != nil {
		t.Fatalf("body read: %v", res.Err)
	}
	if !bytes.Equal(res.Body, want) {
		t.Fatalf("body differs from the capture's bytes:\n got %q\nwant %q", res.Body, want)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	for k, v := range map[string]string{"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Connection": "keep-alive"} {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}

	// The repository's JSONL captures replay as their chunks concatenated.
	for _, name := range []string{"happy.jsonl", "bom-crlf.sse.jsonl"} {
		path := filepath.Join("..", "testdata", name)
		want := rpOpenConcat(t, path)
		r, err := LoadReplay(path)
		if err != nil {
			t.Fatal(err)
		}
		srv, _ := rpServe(t, r, rpFast())
		res := rpRead(t, nil, "POST", srv.URL+"/api/chat", strings.NewReader(`{"q":"hi"}`))
		if res.Err != nil || !bytes.Equal(res.Body, want) {
			t.Errorf("%s: body (%d bytes, err %v) differs from the capture (%d bytes)", name, len(res.Body), res.Err, len(want))
		}
	}
	rpNoHandlerGoroutines(t)
}

// rpOpenConcat reads a capture with Open and concatenates its chunks.
func rpOpenConcat(t testing.TB, path string) []byte {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var b []byte
	for {
		ch, err := c.Next()
		if err == io.EOF {
			return b
		}
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, ch.Data...)
	}
}

func TestReplayByteExactRawSSE(t *testing.T) {
	for _, name := range []string{"happy.sse", "garbage-start.sse"} {
		path := filepath.Join("..", "testdata", name)
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := LoadReplay(path)
		if err != nil {
			t.Fatal(err)
		}
		if r.Meta.Kind != sessions.KindSSE || r.Meta.HTTP {
			t.Errorf("%s: meta %+v", name, r.Meta)
		}
		srv, _ := rpServe(t, r, rpFast())
		res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
		if res.Err != nil || !bytes.Equal(res.Body, want) {
			t.Errorf("%s: body differs from the file:\n got %q (err %v)\nwant %q", name, res.Body, res.Err, want)
		}
		if res.Status != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("%s: status %d, Content-Type %q", name, res.Status, res.Header.Get("Content-Type"))
		}
	}
	// A HAR: the first SSE entry.
	path := filepath.Join("..", "testdata", "multi.har")
	want := rpOpenConcat(t, path)
	r, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := rpServe(t, r, rpFast())
	res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
	if res.Err != nil || !bytes.Equal(res.Body, want) {
		t.Errorf("multi.har: body differs (%d bytes, want %d; err %v)", len(res.Body), len(want), res.Err)
	}
	rpNoHandlerGoroutines(t)
}

// rpRecorder records what is written between flushes.
type rpRecorder struct {
	hdr     http.Header
	status  int
	cur     []byte
	flushed [][]byte
}

func (w *rpRecorder) Header() http.Header {
	if w.hdr == nil {
		w.hdr = http.Header{}
	}
	return w.hdr
}
func (w *rpRecorder) WriteHeader(s int) { w.status = s }
func (w *rpRecorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = 200
	}
	w.cur = append(w.cur, p...)
	return len(p), nil
}
func (w *rpRecorder) Flush() {
	if len(w.cur) > 0 {
		w.flushed = append(w.flushed, w.cur)
		w.cur = nil
	}
}

func TestReplayFlushesAtChunkBoundaries(t *testing.T) {
	chunks := rpSplit(rpStream(20, 3), 50)
	r := rpReplayOf(chunks)
	rec := &rpRecorder{}
	r.Handler(rpFast()).ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/api/chat", nil))
	if len(rec.cur) > 0 {
		t.Errorf("%d bytes written but not flushed", len(rec.cur))
	}
	if len(rec.flushed) != len(chunks) {
		t.Fatalf("%d flushes with data, want one per chunk (%d)", len(rec.flushed), len(chunks))
	}
	for i := range chunks {
		if !bytes.Equal(rec.flushed[i], chunks[i]) {
			t.Fatalf("flush %d = %q, want chunk %q", i, rec.flushed[i], chunks[i])
		}
	}

	// Faults split chunks into several writes but flush only where the
	// original chunks ended (and before a stall).
	f := faults.None()
	f.Drop = []int{3}
	f.Dup = []int{5}
	rec = &rpRecorder{}
	opts := rpFast()
	opts.Faults = f
	r.Handler(opts).ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/api/chat", nil))
	if len(rec.flushed) > len(chunks) {
		t.Errorf("%d flushes with faults, more than the %d chunks", len(rec.flushed), len(chunks))
	}
}

// --- timing -------------------------------------------------------------------

func TestReplayTiming(t *testing.T) {
	dir := t.TempDir()
	stream := rpStream(6, 1)
	spans := rpSpans(stream)
	// One frame per chunk, 50 ms apart: 0, 50, ..., 300 ms; the stream
	// ends at 320 ms.
	var lines []rpLine
	var ends []int
	prev := int64(0)
	for i, sp := range spans {
		lines = append(lines, rpLine{T: 0.05 * float64(i), Data: stream[prev:sp.end]})
		ends = append(ends, int(sp.end))
		prev = sp.end
	}
	path := rpWriteJSONL(t, dir, "timed.jsonl", 200, "text/event-stream", lines, 0.32)
	r, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Chunks) != 7 || r.Chunks[6].At != 300*time.Millisecond {
		t.Fatalf("chunks: %d, last at %v", len(r.Chunks), r.Chunks[len(r.Chunks)-1].At)
	}
	for _, speed := range []float64{1, 4} {
		opts := rpFast()
		opts.Speed = speed
		srv, _ := rpServe(t, r, opts)
		res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
		if res.Err != nil || !bytes.Equal(res.Body, stream) {
			t.Fatalf("speed %v: body differs (err %v)", speed, res.Err)
		}
		for i, end := range ends {
			due := time.Duration(float64(r.Chunks[i].At) / speed)
			if got := res.rpArrivalOf(end); got < due {
				t.Errorf("speed %v: chunk %d arrived at %v, before it was due (%v)", speed, i, got, due)
			}
		}
		span := res.rpArrivalOf(ends[len(ends)-1]) - res.rpArrivalOf(ends[0])
		endDue := time.Duration(float64(320*time.Millisecond) / speed)
		t.Logf("speed %v: first to last chunk %v, response complete after %v", speed, span, res.Total)
		if res.Total < endDue {
			t.Errorf("speed %v: response ended after %v, before the capture's end (%v)", speed, res.Total, endDue)
		}
		switch speed {
		case 1:
			if span < 290*time.Millisecond || res.Total > 3*time.Second {
				t.Errorf("speed 1: first to last chunk %v (want ~300ms), total %v", span, res.Total)
			}
		case 4:
			// 75 ms due; anything under the real-time 300 ms shows scaling.
			if span > 250*time.Millisecond {
				t.Errorf("speed 4: first to last chunk %v, want ~75ms", span)
			}
		}
	}
	rpNoHandlerGoroutines(t)
}

// --- faults -------------------------------------------------------------------

// rpFaultStream is a stream whose frames straddle chunk boundaries.
func rpFaultStream() ([]byte, [][]byte, []replaySpan) {
	stream := rpStream(10, 2)
	return stream, rpSplit(stream, 37), rpSpans(stream)
}

// rpExpect builds the body a faulted replay must send, from the stream and
// its frame spans (garbled frames via garbled).
func rpExpect(stream []byte, spans []replaySpan, f faults.Set, garbled map[int][]byte) []byte {
	in := func(list []int, k int) bool {
		for _, n := range list {
			if n == k {
				return true
			}
		}
		return false
	}
	var out []byte
	pos := int64(0)
	for k, sp := range spans {
		out = append(out, stream[pos:sp.off]...)
		pos = sp.end
		if in(f.Drop, k) {
			if f.CutAfter == k {
				return out
			}
			continue
		}
		b := stream[sp.off:sp.end]
		if g, ok := garbled[k]; ok {
			b = g
		}
		out = append(out, b...)
		if in(f.Dup, k) {
			out = append(out, b...)
		}
		if f.CutAfter == k {
			return out
		}
	}
	return append(out, stream[pos:]...)
}

func TestReplayFaults(t *testing.T) {
	stream, chunks, spans := rpFaultStream()
	r := rpReplayOf(chunks)
	if r.Frames != 11 || len(spans) != 11 {
		t.Fatalf("frames %d / %d, want 11", r.Frames, len(spans))
	}
	orig := rpFrames(stream)
	idx := func(ks ...int) []rpFrame {
		var out []rpFrame
		for _, k := range ks {
			out = append(out, orig[k])
		}
		return out
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

	cases := []struct {
		name   string
		f      faults.Set
		frames []int // original index of each frame received
		cut    bool
	}{
		{"drop", faults.Set{Drop: []int{0, 4, 10}, CutAfter: -1}, []int{1, 2, 3, 5, 6, 7, 8, 9}, false},
		{"dup", faults.Set{Dup: []int{2, 10}, CutAfter: -1}, []int{0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10}, false},
		{"cut-after", faults.Set{CutAfter: 5}, []int{0, 1, 2, 3, 4, 5}, true},
		{"cut-after 0", faults.Set{CutAfter: 0}, []int{0}, true},
		{"cut-after dropped", faults.Set{Drop: []int{5}, CutAfter: 5}, []int{0, 1, 2, 3, 4}, true},
		{"cut-after dup", faults.Set{Dup: []int{3}, CutAfter: 3}, []int{0, 1, 2, 3, 3}, true},
		{"out of range ignored", faults.Set{Drop: []int{-1, 99}, Dup: []int{11}, CutAfter: 11}, all, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lg := &rpLog{}
			opts := rpFast()
			opts.Faults = tc.f
			opts.Log = lg
			srv, tr := rpServe(t, r, opts)
			res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
			if tc.cut {
				if !errors.Is(res.Err, io.ErrUnexpectedEOF) {
					t.Errorf("body read error %v, want an abrupt end (unexpected EOF)", res.Err)
				}
			} else if res.Err != nil {
				t.Errorf("body read error %v", res.Err)
			}
			if want := rpExpect(stream, spans, tc.f, nil); !bytes.Equal(res.Body, want) {
				t.Errorf("body differs:\n got %q\nwant %q", res.Body, want)
			}
			want := idx(tc.frames...)
			if len(res.Frames) != len(want) {
				t.Fatalf("received %d frames, want %d", len(res.Frames), len(want))
			}
			for i := range want {
				if !bytes.Equal(res.Frames[i].Raw, want[i].Raw) {
					t.Errorf("frame %d = %q, want original frame %d %q", i, res.Frames[i].Raw, tc.frames[i], want[i].Raw)
				}
			}
			rpWaitDone(t, tr, 1, 5*time.Second)
			logged := lg.String()
			if tc.cut && !strings.Contains(logged, fmt.Sprintf("cut after frame %d", tc.f.CutAfter)) {
				t.Errorf("log %q does not say where it cut", logged)
			}
			if !tc.cut && !strings.Contains(logged, fmt.Sprintf("frames=%d ", len(tc.frames))+"") {
				t.Errorf("log %q: want frames=%d", logged, len(tc.frames))
			}
		})
	}
	rpNoHandlerGoroutines(t)
}

func TestReplayFaultGarble(t *testing.T) {
	stream, chunks, spans := rpFaultStream()
	r := rpReplayOf(chunks)
	orig := rpFrames(stream)
	opts := rpFast()
	opts.Faults.Garble = []int{1, 7, 10} // 10 is [DONE], not JSON
	srv, _ := rpServe(t, r, opts)
	res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Frames) != len(orig) {
		t.Fatalf("received %d frames, want %d", len(res.Frames), len(orig))
	}
	if len(res.Body) != len(stream) {
		t.Errorf("garbling changed the body size: %d, want %d", len(res.Body), len(stream))
	}
	for i := range orig {
		got, want := res.Frames[i], orig[i]
		switch i {
		case 1, 7:
			if json.Valid(got.Data) {
				t.Errorf("frame %d still valid JSON: %s", i, got.Data)
			}
			if len(got.Raw) != len(want.Raw) {
				t.Errorf("frame %d size changed", i)
			}
			t.Logf("frame %d garbled: %s", i, got.Data)
		case 10:
			if bytes.Equal(got.Data, want.Data) {
				t.Errorf("frame 10 data unchanged: %s", got.Data)
			}
		default:
			if !bytes.Equal(got.Raw, want.Raw) {
				t.Errorf("frame %d changed: %q", i, got.Raw)
			}
		}
	}
	// The rest of the body is untouched.
	garbled := map[int][]byte{}
	for _, k := range []int{1, 7, 10} {
		garbled[k] = res.Frames[k].Raw
	}
	if want := rpExpect(stream, spans, opts.Faults, garbled); !bytes.Equal(res.Body, want) {
		t.Errorf("bytes outside the garbled frames changed")
	}
}

func TestReplayFaultStall(t *testing.T) {
	_, chunks, _ := rpFaultStream()
	r := rpReplayOf(chunks)
	opts := rpFast()
	const d = 300 * time.Millisecond
	opts.Faults.Stalls = []faults.Stall{{Before: 4, For: d}}
	srv, _ := rpServe(t, r, opts)
	res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
	if res.Err != nil || len(res.Frames) != 11 {
		t.Fatalf("err %v, %d frames", res.Err, len(res.Frames))
	}
	gap := res.Frames[4].At - res.Frames[3].At
	t.Logf("gap before frame 4: %v (stall %v); frame 3 at %v", gap, d, res.Frames[3].At)
	if res.Frames[4].At < d {
		t.Errorf("frame 4 arrived at %v, before the %v stall was over", res.Frames[4].At, d)
	}
	if gap < d/2 {
		t.Errorf("gap before frame 4 is %v, want about %v", gap, d)
	}
	if res.Total > d+3*time.Second {
		t.Errorf("replay took %v", res.Total)
	}
}

func TestReplayFaultsCombined(t *testing.T) {
	stream, chunks, spans := rpFaultStream()
	r := rpReplayOf(chunks)
	orig := rpFrames(stream)
	f := faults.Set{
		Drop:     []int{1},
		Dup:      []int{2},
		Garble:   []int{4},
		Stalls:   []faults.Stall{{Before: 5, For: 150 * time.Millisecond}},
		CutAfter: 6,
	}
	if err := r.CheckFaults(f); err != nil {
		t.Fatal(err)
	}
	opts := rpFast()
	opts.Faults = f
	lg := &rpLog{}
	opts.Log = lg
	srv, tr := rpServe(t, r, opts)
	res := rpRead(t, nil, "POST", srv.URL+"/api/chat", strings.NewReader(`{"message":"hi"}`))
	if !errors.Is(res.Err, io.ErrUnexpectedEOF) {
		t.Errorf("body read error %v, want unexpected EOF", res.Err)
	}
	want := []int{0, 2, 2, 3, 4, 5, 6}
	if len(res.Frames) != len(want) {
		t.Fatalf("received %d frames, want %d", len(res.Frames), len(want))
	}
	for i, k := range want {
		got := res.Frames[i]
		if k == 4 {
			if json.Valid(got.Data) {
				t.Errorf("frame 4 not garbled: %s", got.Data)
			}
			continue
		}
		if !bytes.Equal(got.Raw, orig[k].Raw) {
			t.Errorf("received frame %d = %q, want original %d", i, got.Raw, k)
		}
	}
	if gap := res.Frames[5].At - res.Frames[4].At; res.Frames[5].At < 150*time.Millisecond || gap < 75*time.Millisecond {
		t.Errorf("no stall before frame 5: gap %v, at %v", gap, res.Frames[5].At)
	}
	if exp := rpExpect(stream, spans, f, map[int][]byte{4: res.Frames[4].Raw}); !bytes.Equal(res.Body, exp) {
		t.Errorf("body differs:\n got %q\nwant %q", res.Body, exp)
	}
	rpWaitDone(t, tr, 1, 5*time.Second)
	if l := lg.String(); !strings.Contains(l, "frames=7 ") || !strings.Contains(l, "cut after frame 6") {
		t.Errorf("log: %q", l)
	}
	rpNoHandlerGoroutines(t)
}

func TestParseSpeed(t *testing.T) {
	for in, want := range map[string]float64{"1": 1, "2x": 2, "0.5": 0.5, "max": math.Inf(1), "MAX": math.Inf(1), "0": math.Inf(1), "0x": math.Inf(1)} {
		if got, err := ParseSpeed(in); err != nil || got != want {
			t.Errorf("ParseSpeed(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "-1", "-0.0001", "fast", "NaN", "1e-300", "0.0009", "1e-400"} { // tiny: they overflowed into full speed
		if _, err := ParseSpeed(in); err == nil {
			t.Errorf("ParseSpeed(%q): no error", in)
		}
	}
}

func TestCheckFaults(t *testing.T) {
	_, chunks, _ := rpFaultStream()
	r := rpReplayOf(chunks)
	if err := r.CheckFaults(faults.None()); err != nil {
		t.Errorf("no faults: %v", err)
	}
	if err := r.CheckFaults(faults.Set{Drop: []int{0, 10}, CutAfter: 10, Stalls: []faults.Stall{{Before: 3, For: time.Second}}}); err != nil {
		t.Errorf("valid faults: %v", err)
	}
	err := r.CheckFaults(faults.Set{Drop: []int{11}, Dup: []int{-2}, CutAfter: 40, Garble: []int{12}, Stalls: []faults.Stall{{Before: 99, For: time.Second}}})
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{"--drop 11", "--dup -2", "--cut-after 40", "--garble 12", "--stall 1s@99", "11 frames, 0..10"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%q does not mention %q", err, s)
		}
	}
}

// --- host, origin, CORS, methods, paths ---------------------------------------

// rpListen serves h on a real loopback listener.
func rpListen(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func TestReplayHostOriginCheck(t *testing.T) {
	stream := rpStream(2, 0)
	r := rpReplayOf([][]byte{stream})
	lg := &rpLog{}
	opts := rpFast()
	opts.Log = lg
	base := rpListen(t, r.Handler(opts))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "http://"))

	do := func(host, origin string) (int, string) {
		req, _ := http.NewRequest("GET", base+"/api/chat", nil)
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, host := range []string{"", "localhost:" + port, "[::1]:" + port, "127.0.0.1"} {
		if st, body := do(host, ""); st != 200 || body != string(stream) {
			t.Errorf("Host %q: status %d", host, st)
		}
	}
	for _, host := range []string{"attacker.example:" + port, "192.168.1.20:" + port, "localhost.attacker.example"} {
		st, body := do(host, "")
		if st != http.StatusForbidden || !strings.Contains(body, "--allow-origin") || !strings.Contains(body, "Host") {
			t.Errorf("Host %q: status %d, body %q; want 403 naming --allow-origin", host, st, body)
		}
	}
	for origin, ok := range map[string]bool{
		"http://localhost:5173": true, "http://127.0.0.1:" + port: true,
		"http://attacker.example": false, "null": false, "https://192.168.1.20": false,
	} {
		st, body := do("", origin)
		if ok && st != 200 {
			t.Errorf("Origin %q: status %d, want 200", origin, st)
		}
		if !ok && (st != http.StatusForbidden || !strings.Contains(body, "Origin") || !strings.Contains(body, "--allow-origin")) {
			t.Errorf("Origin %q: status %d, body %q; want 403", origin, st, body)
		}
	}
	if !strings.Contains(lg.String(), " 403 ") {
		t.Errorf("refusals not logged: %q", lg.String())
	}

	// --allow-origin names hosts and origins: those are served, the
	// guard stays on for every other one.
	allow, err := ParseAllowList([]string{"192.168.1.20", "http://phone.lan"})
	if err != nil {
		t.Fatal(err)
	}
	opts.Allow = allow
	opts.Log = nil
	base = rpListen(t, r.Handler(opts))
	_, port, _ = net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	if st, body := do("192.168.1.20:"+port, "http://phone.lan"); st != 200 || body != string(stream) {
		t.Errorf("allowed host and origin: status %d", st)
	}
	for _, hv := range [][2]string{{"attacker.example:" + port, ""}, {"192.168.1.20:" + port, "http://attacker.example"}, {"", "https://phone.lan"}} {
		if st, _ := do(hv[0], hv[1]); st != http.StatusForbidden {
			t.Errorf("Host %q Origin %q with an allow-list: status %d, want 403", hv[0], hv[1], st)
		}
	}
	rpNoHandlerGoroutines(t)
}

func TestReplayCORS(t *testing.T) {
	r := rpReplayOf([][]byte{rpStream(1, 0)})
	opts := rpFast()
	opts.CORS = true
	srv, _ := rpServe(t, r, opts)

	req, _ := http.NewRequest("OPTIONS", srv.URL+"/api/chat", nil)
	req.Header.Set("Origin", "http://localhost:5173")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type, authorization")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("preflight status %d", resp.StatusCode)
	}
	for k, v := range map[string]string{
		"Access-Control-Allow-Origin":  "http://localhost:5173",
		"Access-Control-Allow-Headers": "content-type, authorization",
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("preflight %s = %q, want %q", k, got, v)
		}
	}
	if m := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") || !strings.Contains(m, "GET") {
		t.Errorf("preflight Access-Control-Allow-Methods = %q", m)
	}

	req, _ = http.NewRequest("POST", srv.URL+"/api/chat", strings.NewReader("{}"))
	req.Header.Set("Origin", "http://localhost:5173")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "http://localhost:5173" {
		t.Errorf("POST Access-Control-Allow-Origin = %q", got)
	}

	// Without CORS no such header.
	srv2, _ := rpServe(t, r, rpFast())
	req, _ = http.NewRequest("GET", srv2.URL+"/api/chat", nil)
	req.Header.Set("Origin", "http://localhost:5173")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("CORS off: Access-Control-Allow-Origin = %q", got)
	}
}

func TestReplayMethodsAndPaths(t *testing.T) {
	stream := rpStream(3, 0)
	r := rpReplayOf(rpSplit(stream, 20))
	lg := &rpLog{}
	opts := rpFast()
	opts.Log = lg
	srv, _ := rpServe(t, r, opts)

	big := strings.Repeat("x", 300<<10) // a body well beyond socket buffers
	res := rpRead(t, nil, "POST", srv.URL+"/api/chat", strings.NewReader(`{"message":"`+big+`"}`))
	if res.Status != 200 || res.Err != nil || !bytes.Equal(res.Body, stream) {
		t.Errorf("POST: status %d, err %v, %d bytes", res.Status, res.Err, len(res.Body))
	}
	res = rpRead(t, nil, "GET", srv.URL+"/api/chat?x=1", nil)
	if res.Status != 200 || !bytes.Equal(res.Body, stream) {
		t.Errorf("GET with a query: status %d", res.Status)
	}
	res = rpRead(t, nil, "GET", srv.URL+"/other", nil)
	if res.Status != 404 || !strings.Contains(string(res.Body), "/api/chat") {
		t.Errorf("wrong path: status %d, body %q", res.Status, res.Body)
	}
	res = rpRead(t, nil, "PUT", srv.URL+"/api/chat", nil)
	if res.Status != http.StatusMethodNotAllowed || res.Header.Get("Allow") == "" {
		t.Errorf("PUT: status %d, Allow %q", res.Status, res.Header.Get("Allow"))
	}
	res = rpRead(t, nil, "HEAD", srv.URL+"/api/chat", nil)
	if res.Status != 200 || len(res.Body) != 0 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("HEAD: status %d, %d bytes", res.Status, len(res.Body))
	}

	// A custom path.
	opts.Path = "v1/turn"
	srv2, _ := rpServe(t, r, opts)
	if res := rpRead(t, nil, "POST", srv2.URL+"/v1/turn", nil); res.Status != 200 || !bytes.Equal(res.Body, stream) {
		t.Errorf("custom path: status %d", res.Status)
	}
	if res := rpRead(t, nil, "POST", srv2.URL+"/api/chat", nil); res.Status != 404 || !strings.Contains(string(res.Body), "/v1/turn") {
		t.Errorf("custom path, default path asked: status %d, %q", res.Status, res.Body)
	}

	time.Sleep(50 * time.Millisecond) // the last log lines
	logged := lg.String()
	for _, s := range []string{" POST /api/chat 200 frames=4 bytes=", " eof", " GET /other 404 ", " PUT /api/chat 405 "} {
		if !strings.Contains(logged, s) {
			t.Errorf("log lacks %q:\n%s", s, logged)
		}
	}
	rpNoHandlerGoroutines(t)
}

// --- client gone, loop, concurrency, error captures -----------------------------

func TestReplayClientGone(t *testing.T) {
	dir := t.TempDir()
	stream := rpStream(30, 1)
	spans := rpSpans(stream)
	var lines []rpLine
	prev := int64(0)
	for i, sp := range spans { // 100 ms apart: 3 s in all
		lines = append(lines, rpLine{T: 0.1 * float64(i), Data: stream[prev:sp.end]})
		prev = sp.end
	}
	path := rpWriteJSONL(t, dir, "slow.jsonl", 200, "text/event-stream", lines, 3.1)
	r, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"GET", "POST"} {
		lg := &rpLog{}
		opts := rpFast()
		opts.Speed = 1
		opts.Log = lg
		srv, tr := rpServe(t, r, opts)
		ctx, cancel := context.WithCancel(context.Background())
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(`{"message":"hello"}`)
		}
		req, _ := http.NewRequestWithContext(ctx, method, srv.URL+"/api/chat", body)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		// Read the first two frames, then leave.
		got := 0
		buf := make([]byte, 4096)
		for got < int(spans[1].end) {
			n, err := resp.Body.Read(buf)
			got += n
			if err != nil {
				t.Fatal(err)
			}
		}
		left := time.Now()
		cancel()
		resp.Body.Close()
		rpWaitDone(t, tr, 1, 2*time.Second)
		if d := time.Since(left); d > time.Second {
			t.Errorf("%s: handler ran %v after the client left", method, d)
		}
		if tr.active.Load() != 0 {
			t.Errorf("%s: handler still active", method)
		}
		if l := lg.String(); !strings.Contains(l, "client gone after frame ") {
			t.Errorf("%s: log %q does not say the client left", method, l)
		} else {
			t.Logf("%s: %s", method, strings.TrimSpace(l))
		}
	}
	rpNoHandlerGoroutines(t)
}

func TestReplayLoop(t *testing.T) {
	stream := rpStream(5, 1)
	r := rpReplayOf(rpSplit(stream, 40))
	for _, speed := range []float64{math.Inf(1), 20} {
		lg := &rpLog{}
		opts := rpFast()
		opts.Speed = speed
		opts.Loop = true
		opts.Log = lg
		srv, tr := rpServe(t, r, opts)
		resp, err := http.Get(srv.URL + "/api/chat")
		if err != nil {
			t.Fatal(err)
		}
		want := bytes.Repeat(stream, 3)
		got := make([]byte, len(want))
		if _, err := io.ReadFull(resp.Body, got); err != nil {
			t.Fatalf("speed %v: %v", speed, err)
		}
		resp.Body.Close()
		if !bytes.Equal(got, want) {
			t.Errorf("speed %v: the turn was not sent three times over", speed)
		}
		rpWaitDone(t, tr, 1, 3*time.Second)
		if l := lg.String(); !strings.Contains(l, "client gone") || !strings.Contains(l, "passes=") {
			t.Errorf("speed %v: log %q", speed, l)
		}
	}
	rpNoHandlerGoroutines(t)
}

func TestReplayConcurrent50(t *testing.T) {
	stream := rpStream(400, 40) // ~180 KB
	r := rpReplayOf(rpSplit(stream, 4096))
	srv, tr := rpServe(t, r, rpFast())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}
	defer client.CloseIdleConnections()
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			method := "GET"
			if i%2 == 1 {
				method = "POST"
			}
			req, _ := http.NewRequest(method, srv.URL+"/api/chat", strings.NewReader(`{"i":1}`))
			resp, err := client.Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				errs <- fmt.Errorf("client %d: %v", i, err)
				return
			}
			if !bytes.Equal(b, stream) {
				errs <- fmt.Errorf("client %d: body differs (%d bytes, want %d)", i, len(b), len(stream))
			}
		}(i)
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rpWaitDone(t, tr, n, 5*time.Second)
	rpNoHandlerGoroutines(t)
}

func TestReplayErrorCapture(t *testing.T) {
	dir := t.TempDir()
	page := []byte("<html><body><h1>500 Internal Server Error</h1></body></html>\n")
	path := rpWriteJSONL(t, dir, "error.jsonl", 500, "text/html; charset=utf-8", []rpLine{{T: 0.01, Data: page[:20]}, {T: 0.02, Data: page[20:]}}, 0.02)
	r, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Frames != 0 {
		t.Errorf("Frames = %d", r.Frames)
	}
	opts := rpFast()
	opts.ContentType = ContentTypeKeep
	srv, _ := rpServe(t, r, opts)
	res := rpRead(t, nil, "POST", srv.URL+"/api/chat", strings.NewReader("{}"))
	if res.Status != 500 {
		t.Errorf("status %d, want 500", res.Status)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if !bytes.Equal(res.Body, page) || res.Err != nil {
		t.Errorf("body %q, err %v", res.Body, res.Err)
	}
}

func TestReplayHTTP2(t *testing.T) {
	stream, chunks, _ := rpFaultStream()
	r := rpReplayOf(chunks)
	for _, cut := range []bool{false, true} {
		opts := rpFast()
		if cut {
			opts.Faults.CutAfter = 3
		}
		tr, h := rpTrack(r.Handler(opts))
		srv := httptest.NewUnstartedServer(h)
		srv.EnableHTTP2 = true
		srv.StartTLS()
		res := rpRead(t, srv.Client(), "POST", srv.URL+"/api/chat", strings.NewReader("{}"))
		if res.Status != 200 || res.Proto != 2 {
			t.Errorf("cut %v: status %d, HTTP/%d", cut, res.Status, res.Proto)
		}
		if !cut && (res.Err != nil || !bytes.Equal(res.Body, stream)) {
			t.Errorf("HTTP/2: body differs (%d bytes, err %v)", len(res.Body), res.Err)
		}
		if cut && (res.Err == nil || len(res.Frames) != 4) {
			t.Errorf("HTTP/2 cut: err %v, %d frames; want an error after 4 frames", res.Err, len(res.Frames))
		}
		rpWaitDone(t, tr, 1, 5*time.Second)
		srv.Close()
	}
	rpNoHandlerGoroutines(t)
}

func TestReplayGarbleEmptyDataAcrossChunks(t *testing.T) {
	stream := []byte("event: a\ndata:\n\n: c\n\nevent: b\ndata: {\"k\":1}\n\n")
	var chunks [][]byte
	for i := range stream {
		chunks = append(chunks, stream[i:i+1])
	}
	r := rpReplayOf(chunks)
	opts := rpFast()
	opts.Faults.Garble = []int{0}
	opts.Faults.Dup = []int{0}
	rec := &rpRecorder{}
	r.Handler(opts).ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/api/chat", nil))
	got := bytes.Join(rec.flushed, nil)
	want := "event: a\ndata: #garbled\n\nevent: a\ndata: #garbled\n\n: c\n\nevent: b\ndata: {\"k\":1}\n\n"
	if string(got) != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
