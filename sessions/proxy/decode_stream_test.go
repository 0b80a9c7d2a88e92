package proxy

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/library"
)

// flushWriter is an encoder flushed after every event, as a streaming
// server's must be.
type flushWriter interface {
	io.WriteCloser
	Flush() error
}

// encoders by coding name.
func encoder(t *testing.T, coding string, w io.Writer) flushWriter {
	t.Helper()
	switch coding {
	case "gzip":
		return gzip.NewWriter(w)
	case "br":
		return brotli.NewWriter(w)
	case "deflate":
		return zlib.NewWriter(w)
	case "raw-deflate":
		fw, _ := flate.NewWriter(w, flate.DefaultCompression)
		return fw
	}
	t.Fatalf("no encoder for %s", coding)
	return nil
}

// encodedUpstream serves body as a text/event-stream encoded with
// codings (as applied, "gzip, br": gzip first), flushed per event, and
// keeps every byte it wrote in sent.
func encodedUpstream(t *testing.T, body []byte, header string, codings ...string) (*httptest.Server, *bytes.Buffer) {
	sent := &bytes.Buffer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", header)
		out := io.MultiWriter(w, sent)
		var stack []flushWriter
		var dst io.Writer = out
		for i := len(codings) - 1; i >= 0; i-- { // the last applied is outermost
			e := encoder(t, codings[i], dst)
			stack = append([]flushWriter{e}, stack...)
			dst = e
		}
		for _, b := range blocks(body) {
			stack[0].Write(b)
			for _, e := range stack {
				e.Flush()
			}
			w.(http.Flusher).Flush()
		}
		for _, e := range stack {
			e.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, sent
}

// rawGet fetches u as an app that does not decompress: it asked for the
// encoding itself, so Go's transport hands the bytes on as they came.
func rawGet(t *testing.T, u string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rules(f Flow) string {
	var s []string
	for _, a := range f.Alarms {
		s = append(s, a.Rule+" "+string(a.Severity))
	}
	return strings.Join(s, "; ")
}

// TestEncodedStreamsCheckedDecoded: a real stream, encoded each way (and
// stacked), reaches the app byte for byte as the upstream encoded it, and
// is checked and recorded decoded: its dialect, every frame, no alarm but
// delivery-compressed, and the recording says what it was decoded from.
func TestEncodedStreamsCheckedDecoded(t *testing.T) {
	body := realStream(t)
	wantFrames := 0
	for _, b := range blocks(body) {
		if strings.TrimSpace(string(b)) != "" {
			wantFrames++
		}
	}
	for _, c := range []struct {
		header  string
		codings []string
	}{
		{"gzip", []string{"gzip"}},
		{"br", []string{"br"}},
		{"deflate", []string{"deflate"}},
		{"deflate", []string{"raw-deflate"}}, // some servers send RFC 1951 without zlib's wrapper
		{"gzip, br", []string{"gzip", "br"}},
	} {
		t.Run(strings.Join(c.codings, "+"), func(t *testing.T) {
			up, sent := encodedUpstream(t, body, c.header, c.codings...)
			lib := &library.Library{Dir: t.TempDir()}
			u, _ := url.Parse(up.URL)
			p, px := startProxy(t, Options{Upstream: u, Library: lib})
			got := rawGet(t, px.URL+"/chat")
			if !bytes.Equal(got, sent.Bytes()) {
				t.Fatalf("the app got %d bytes, not the %d encoded bytes the upstream sent", len(got), sent.Len())
			}
			f := waitDone(t, p, 1)[0]
			if f.Kind != KindStream || f.Dialect != "openai-chat" || f.Frames != wantFrames || f.Bytes != int64(sent.Len()) {
				t.Fatalf("flow: kind %s dialect %q frames %d (want %d) bytes %d; alarms %s; notes %q", f.Kind, f.Dialect, f.Frames, wantFrames, f.Bytes, rules(f), f.Notes)
			}
			if f.Counts.Error+f.Counts.Warn != 0 || rules(f) != "delivery-compressed info" {
				t.Fatalf("alarms: %s (notes %q)", rules(f), f.Notes)
			}
			rec, _ := os.ReadFile(filepath.Join(lib.Dir, f.SessionID+".jsonl"))
			want := `"decoded_from":"` + strings.Join(c.codings, ", ") + `"`
			want = strings.ReplaceAll(want, "raw-deflate", "deflate")
			if !bytes.Contains(rec, []byte(want)) || !bytes.Contains(rec, []byte(`chat.completion.chunk`)) {
				t.Fatalf("recording lacks %s or the decoded stream:\n%.600s", want, rec)
			}
		})
	}
}

// TestBrokenEncodingIsCaptureCorrupt: a body its Content-Encoding cannot
// decode — not gzip at all, cut short, or 6 codings stacked — is passed
// to the app untouched and reported as capture-corrupt (error), once,
// and the flow ends (no hang, no panic).
func TestBrokenEncodingIsCaptureCorrupt(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(realStream(t))
	zw.Close()
	for _, c := range []struct {
		name, enc string
		body      []byte
		want      string
	}{
		{"not gzip", "gzip", []byte("data: {\"x\":1}\n\n"), "gzip body: gzip: invalid header"},
		{"cut", "gzip", gz.Bytes()[:gz.Len()/2], "gzip body truncated"},
		{"stacked 6", "gzip, gzip, gzip, gzip, gzip, gzip", gz.Bytes(), "stacks 6 codings"},
		{"br garbage", "br", bytes.Repeat([]byte{0xff}, 100), "br body:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", c.enc)
				w.Write(c.body)
			}))
			defer up.Close()
			u, _ := url.Parse(up.URL)
			p, px := startProxy(t, Options{Upstream: u})
			if got := rawGet(t, px.URL); !bytes.Equal(got, c.body) {
				t.Fatal("the app's bytes changed")
			}
			f := waitDone(t, p, 1)[0]
			n := 0
			for _, a := range f.Alarms {
				if a.Rule == "capture-corrupt" {
					n++
					if string(a.Severity) != "error" || !strings.Contains(a.Message, c.want) {
						t.Fatalf("capture-corrupt: %s %q, want %q", a.Severity, a.Message, c.want)
					}
				}
			}
			if n != 1 || !strings.Contains(f.Err, c.want) {
				t.Fatalf("want one capture-corrupt and the flow's error naming %q; got %s, err %q", c.want, rules(f), f.Err)
			}
		})
	}
}

// chanCapture is a capture fed by a test, one chunk at a time.
type chanCapture struct {
	meta   sessions.Meta
	chunks chan []byte
	asked  chan struct{} // a Next is waiting
	probs  []sessions.Problem
	lostAt int // the chunk before which a Lost problem is reported (0: none)
	n      int
	end    invariants.End
}

func (c *chanCapture) Meta() sessions.Meta { return c.meta }
func (c *chanCapture) Next() (sessions.Chunk, error) {
	select {
	case c.asked <- struct{}{}:
	default:
	}
	b, ok := <-c.chunks
	if !ok {
		return sessions.Chunk{}, io.EOF
	}
	if c.n++; c.n == c.lostAt {
		c.probs = append(c.probs, sessions.Problem{Message: "the checker fell behind: 9 bytes", Lost: true})
	}
	return sessions.Chunk{Data: b, T: time.Duration(c.n) * time.Second, HasTime: true}, nil
}
func (c *chanCapture) End() invariants.End { return c.end }
func (c *chanCapture) TakeProblems() []sessions.Problem {
	p := c.probs
	c.probs = nil
	return p
}
func (c *chanCapture) Close() error { return nil }

func gzipMeta() sessions.Meta {
	return sessions.Meta{HTTP: true, ResponseHeaders: map[string]string{"Content-Encoding": "gzip"}}
}

// TestDecodeIsIncremental: an event flushed by the upstream's compressor
// comes out of the decoder as soon as its encoded bytes came in, before
// the next encoded chunk is even asked for, with its arrival time.
func TestDecodeIsIncremental(t *testing.T) {
	src := &chanCapture{meta: gzipMeta(), chunks: make(chan []byte, 1), asked: make(chan struct{}, 1), end: invariants.End{Kind: invariants.EndEOF}}
	d := decodedIfEncoded(src)
	if d.Meta().DecodedFrom != "gzip" {
		t.Fatalf("DecodedFrom %q", d.Meta().DecodedFrom)
	}
	var enc bytes.Buffer
	zw := gzip.NewWriter(&enc)
	events := []string{"data: {\"a\":1}\n\n", "data: {\"b\":2}\n\n"}
	var got []string
	for _, ev := range events {
		zw.Write([]byte(ev))
		zw.Flush()
		src.chunks <- bytes.Clone(enc.Bytes())
		enc.Reset()
		ch, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(ch.Data))
		if ch.T != time.Duration(len(got))*time.Second {
			t.Fatalf("chunk time %v", ch.T)
		}
	}
	zw.Close()
	src.chunks <- bytes.Clone(enc.Bytes())
	close(src.chunks)
	if _, err := d.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	if strings.Join(got, "") != strings.Join(events, "") {
		t.Fatalf("decoded %q", got)
	}
	if ps := d.TakeProblems(); len(ps) != 0 || d.End().Kind != invariants.EndEOF {
		t.Fatalf("problems %v end %v", ps, d.End())
	}
}

// TestDecodeStopsAtAGap: bytes the checker missed (the tap's Lost
// problem) leave a compressed stream undecodable: the Lost problem is
// passed on once (capture-corrupt), a note says the rest is not checked,
// no second alarm is made of the decoder's failure, and the rest of the
// tap is read to its end.
func TestDecodeStopsAtAGap(t *testing.T) {
	var enc bytes.Buffer
	zw := gzip.NewWriter(&enc)
	zw.Write([]byte("data: {\"a\":1}\n\n"))
	zw.Flush()
	first := bytes.Clone(enc.Bytes())
	zw.Write([]byte("data: {\"b\":2}\n\n"))
	zw.Close()
	rest := enc.Bytes()[len(first):]
	src := &chanCapture{meta: gzipMeta(), chunks: make(chan []byte, 4), asked: make(chan struct{}, 1), lostAt: 2, end: invariants.End{Kind: invariants.EndEOF}}
	src.chunks <- first
	src.chunks <- rest[len(rest)/2:] // after a gap
	src.chunks <- []byte("more after the gap")
	close(src.chunks)
	d := decodedIfEncoded(src)
	ch, err := d.Next()
	if err != nil || string(ch.Data) != "data: {\"a\":1}\n\n" {
		t.Fatalf("first: %q %v", ch.Data, err)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Fatalf("after the gap: %v", err)
	}
	ps := d.TakeProblems()
	lost, notes := 0, 0
	for _, p := range ps {
		if p.Lost {
			lost++
		}
		if p.Note && strings.Contains(p.Message, "cannot be decoded past") {
			notes++
		}
	}
	if lost != 1 || notes != 1 || len(ps) != 2 || d.End().Kind != invariants.EndEOF {
		t.Fatalf("problems %+v end %+v", ps, d.End())
	}
	if len(src.chunks) != 0 {
		t.Fatal("the tap was not read to its end")
	}
}

// TestDecodeRatioBound: a body that inflates past connect's ratio bound
// (100× past 8 MiB) stops the check there, as a bound (an error end that
// says so, no capture-corrupt), while the app gets every byte.
func TestDecodeRatioBound(t *testing.T) {
	var enc bytes.Buffer
	zw := gzip.NewWriter(&enc)
	zw.Write([]byte("data: "))
	zw.Write(bytes.Repeat([]byte("a"), 12<<20))
	zw.Write([]byte("\n\n"))
	zw.Close()
	src := &chanCapture{meta: gzipMeta(), chunks: make(chan []byte, 1), asked: make(chan struct{}, 1), end: invariants.End{Kind: invariants.EndEOF}}
	src.chunks <- enc.Bytes()
	close(src.chunks)
	d := decodedIfEncoded(src)
	total := 0
	for {
		ch, err := d.Next()
		if err != nil {
			break
		}
		total += len(ch.Data)
	}
	e := d.End()
	if e.Kind != invariants.EndError || !strings.Contains(e.Detail, "decompression ratio passed 100×") || total > 12<<20 || total < 8<<20 {
		t.Fatalf("end %+v after %d bytes", e, total)
	}
	for _, p := range d.TakeProblems() {
		if p.Lost {
			t.Fatalf("a bound is no damage: %+v", p)
		}
	}
}

// TestDecodeCancelledMidway: a compressed stream the app left mid-way
// ends cancelled, as the tap says, without a decoding alarm.
func TestDecodeCancelledMidway(t *testing.T) {
	var enc bytes.Buffer
	zw := gzip.NewWriter(&enc)
	zw.Write([]byte("data: {\"a\":1}\n\n"))
	zw.Flush()
	src := &chanCapture{meta: gzipMeta(), chunks: make(chan []byte, 1), asked: make(chan struct{}, 1), end: invariants.End{Kind: invariants.EndCancelled}}
	src.chunks <- enc.Bytes()
	close(src.chunks)
	d := decodedIfEncoded(src)
	if ch, err := d.Next(); err != nil || len(ch.Data) == 0 {
		t.Fatal(err)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Fatal(err)
	}
	if ps := d.TakeProblems(); len(ps) != 0 || d.End().Kind != invariants.EndCancelled {
		t.Fatalf("problems %+v end %+v", ps, d.End())
	}
}
