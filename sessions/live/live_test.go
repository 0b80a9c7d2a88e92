package live

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
	"framescope/sessions/record"
	"framescope/sessions/report"
)

// Tests of live connections, all against loopback servers started here.
// Every test checks that no goroutine outlives it (lvNoLeak).

// lvNoLeak fails the test when, once everything the test registered is
// cleaned up, more goroutines run than before it. Call it first, so its
// cleanup runs last.
func lvNoLeak(t testing.TB) {
	t.Helper()
	base := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			n := runtime.NumGoroutine()
			if n <= base {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				t.Errorf("goroutine leak: %d goroutines running, %d before the test:\n%s", n, base, buf)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// lvServer starts a loopback HTTP server closed at the end of the test.
func lvServer(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

const lvEnv = `"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"resp_live"`

// lvFrame is a typed v0.5 frame.
func lvFrame(typ, extra string) string {
	return "event: " + typ + "\ndata: {\"event_type\":\"" + typ + "\"," + lvEnv + extra + "}\n\n"
}

// lvTurn is a valid v0.5 turn of n text frames, as frames.
func lvTurn(n int) []string {
	out := []string{lvFrame("response_id", "")}
	for i := 0; i < n; i++ {
		out = append(out, lvFrame("text", fmt.Sprintf(`,"chunk":"word %d "`, i)))
	}
	return append(out, lvFrame("completed", ""), "data: [DONE]\n\n")
}

// lvPiece is something a scripted handler writes (and flushes), after
// waiting.
type lvPiece struct {
	wait time.Duration
	data string
}

// lvScript serves the pieces as text/event-stream, flushing each.
func lvScript(pieces ...lvPiece) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		for _, p := range pieces {
			if p.wait > 0 {
				select {
				case <-time.After(p.wait):
				case <-r.Context().Done():
					return
				}
			}
			io.WriteString(w, p.data)
			w.(http.Flusher).Flush()
		}
	}
}

func lvPieces(frames []string) []lvPiece {
	var out []lvPiece
	for _, f := range frames {
		out = append(out, lvPiece{data: f})
	}
	return out
}

// lvDrained is what a capture yielded.
type lvDrained struct {
	data   []byte
	chunks []sessions.Chunk // Data copied
	probs  []sessions.Problem
	end    invariants.End
}

// lvDrain reads c to its end (bounded by 20 s) and closes it.
func lvDrain(t testing.TB, c sessions.Capture) lvDrained {
	t.Helper()
	var d lvDrained
	deadline := time.Now().Add(20 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatal("capture never ends")
		}
		ch, err := c.Next()
		d.probs = append(d.probs, c.TakeProblems()...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		ch.Data = append([]byte(nil), ch.Data...)
		d.data = append(d.data, ch.Data...)
		d.chunks = append(d.chunks, ch)
	}
	d.end = c.End()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	return d
}

// lvConnect connects or fails the test; the Live is closed at the end.
func lvConnect(t testing.TB, opts ConnectOptions) *Live {
	t.Helper()
	l, err := Connect(context.Background(), opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// lvRecordPath records c to a file in a temp dir.
func lvRecordPath(t testing.TB, c sessions.Capture, opts record.Options) (sessions.Capture, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	f, err := record.File(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return record.New(c, f, opts), path
}

// lvReadBack opens a recording and drains it.
func lvReadBack(t testing.TB, path string) (sessions.Meta, lvDrained) {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatalf("Open(recording): %v", err)
	}
	meta := c.Meta()
	return meta, lvDrain(t, c)
}

func lvRules(rep *report.Report) []string {
	var out []string
	for _, a := range rep.Alarms {
		out = append(out, a.Rule)
	}
	return out
}

// TestLiveHappyTurn: a whole SSE turn arrives intact through Connect and
// Record: the request carries the defaults (or the user's own Accept),
// the body, and the recording redacts secrets.
func TestLiveHappyTurn(t *testing.T) {
	frames := lvTurn(20)
	want := strings.Join(frames, "")
	tests := []struct {
		name       string
		opts       ConnectOptions
		rec        record.Options
		wantMethod string
		wantAccept string
		wantBody   string
		wantCT     string
		secrets    map[string]string // header → value that must (not) reach the file
		keep       bool
	}{
		{name: "GET defaults", wantMethod: "GET", wantAccept: "text/event-stream"},
		{name: "user Accept kept", opts: ConnectOptions{Headers: []string{"accept: application/json, text/event-stream;q=0.9"}},
			wantMethod: "GET", wantAccept: "application/json, text/event-stream;q=0.9"},
		{name: "POST body", opts: ConnectOptions{Body: []byte(`{"message":"hi — ✓"}`)},
			wantMethod: "POST", wantAccept: "text/event-stream", wantBody: `{"message":"hi — ✓"}`, wantCT: "application/json"},
		{name: "explicit method and content type", opts: ConnectOptions{Method: "PUT", Body: []byte("a=1"), Headers: []string{"Content-Type: application/x-www-form-urlencoded"}},
			wantMethod: "PUT", wantAccept: "text/event-stream", wantBody: "a=1", wantCT: "application/x-www-form-urlencoded"},
		{name: "secrets redacted",
			opts: ConnectOptions{Headers: []string{"Authorization: Bearer sk-live-123", "Cookie: sid=cookie-456", "X-Api-Key: key-789", "X-Tenant-Token: tenant-000"}},
			rec:  record.Options{Redact: []string{"x-tenant-token"}}, wantMethod: "GET", wantAccept: "text/event-stream",
			secrets: map[string]string{"Authorization": "sk-live-123", "Cookie": "cookie-456", "X-Api-Key": "key-789", "X-Tenant-Token": "tenant-000", "Set-Cookie": "server-secret"}},
		{name: "secrets kept",
			opts: ConnectOptions{Headers: []string{"Authorization: Bearer sk-live-123"}, KeepSecrets: true},
			rec:  record.Options{KeepSecrets: true}, wantMethod: "GET", wantAccept: "text/event-stream",
			secrets: map[string]string{"Authorization": "sk-live-123", "Set-Cookie": "server-secret"}, keep: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lvNoLeak(t)
			type seen struct {
				method string
				header http.Header
				body   string
			}
			got := make(chan seen, 1)
			script := lvScript(lvPieces(frames)...)
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got <- seen{r.Method, r.Header.Clone(), string(b)}
				w.Header().Set("Set-Cookie", "session=server-secret")
				script(w, r)
			})
			opts := tc.opts
			opts.URL = srv.URL + "/api/chat"
			l := lvConnect(t, opts)
			s := <-got
			if s.method != tc.wantMethod {
				t.Errorf("method %q, want %q", s.method, tc.wantMethod)
			}
			if a := s.header.Values("Accept"); len(a) != 1 || a[0] != tc.wantAccept {
				t.Errorf("Accept %q, want just %q", a, tc.wantAccept)
			}
			if cc := s.header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("Cache-Control %q, want no-cache", cc)
			}
			if s.body != tc.wantBody {
				t.Errorf("server got body %q, want %q", s.body, tc.wantBody)
			}
			if ct := s.header.Get("Content-Type"); ct != tc.wantCT {
				t.Errorf("request Content-Type %q, want %q", ct, tc.wantCT)
			}
			for _, h := range tc.opts.Headers {
				name, value, _ := strings.Cut(h, ":")
				if v := s.header.Get(name); v != strings.TrimSpace(value) {
					t.Errorf("server got %s: %q, want %q (never redacted on the wire)", name, v, strings.TrimSpace(value))
				}
			}

			m := l.Meta()
			if m.Name != opts.URL || m.URL != opts.URL || m.Method != tc.wantMethod || !m.HTTP || m.Status != 200 ||
				m.ContentType != "text/event-stream" || m.Kind != sessions.KindSSE || !m.Timed || m.StartedAt.IsZero() {
				t.Errorf("Meta %+v", m)
			}
			if ri := l.Response(); ri.Status != 200 || ri.Proto != "HTTP/1.1" || ri.ErrorBody != nil {
				t.Errorf("Response %+v", ri)
			}

			rec, path := lvRecordPath(t, l, tc.rec)
			rep, err := report.Check(rec, invariants.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rec.Close()
			if rep.Frames != len(frames) || rep.Counts.Error != 0 || rep.Counts.Warn != 0 || rep.End.Kind != invariants.EndEOF {
				t.Errorf("check: %d frames (want %d), alarms %v, end %+v", rep.Frames, len(frames), lvRules(rep), rep.End)
			}

			meta, d := lvReadBack(t, path)
			if string(d.data) != want {
				t.Errorf("recording holds %d bytes, want the %d served", len(d.data), len(want))
			}
			if d.end.Kind != invariants.EndEOF || !d.end.HasTime || len(d.probs) != 0 {
				t.Errorf("recording end %+v, problems %v", d.end, d.probs)
			}
			if meta.Status != 200 || meta.Method != tc.wantMethod || meta.URL != opts.URL || meta.ContentType != "text/event-stream" {
				t.Errorf("recording meta %+v", meta)
			}
			file := string(sessiontest.ReadFile(t, path))
			header, _, _ := strings.Cut(file, "\n")
			for name, secret := range tc.secrets {
				if strings.Contains(file, secret) != tc.keep {
					t.Errorf("secret of %s in the recording: %v, want %v\n%s", name, !tc.keep, tc.keep, header)
				}
				hm := meta.RequestHeaders
				if name == "Set-Cookie" {
					hm = meta.ResponseHeaders
				}
				v, _ := sessions.HeaderLookup(hm, name)
				if tc.keep == (v == sessions.RedactedValue) {
					t.Errorf("%s recorded as %q", name, v)
				}
				if strings.Contains(header, `"`+name+`"`) && !tc.keep && !strings.Contains(header[strings.Index(header, `"redacted":`):], `"`+name+`"`) {
					t.Errorf("\"redacted\" does not list %s: %s", name, header)
				}
			}
			if tc.keep && strings.Contains(header, `"redacted"`) {
				t.Errorf("KeepSecrets, yet the header lists redactions: %s", header)
			}
		})
	}
}

// TestLiveEnds: every way a stream can end is told apart, and everything
// received before the end is delivered.
func TestLiveEnds(t *testing.T) {
	first := lvFrame("response_id", "")
	midEvent := "event: text\ndata: {\"event_type\":\"text\"," + lvEnv + ",\"chunk\":\"x\"}\n" // no blank line
	midLine := "event: text\ndata: {\"event_type\":\"te"
	tests := []struct {
		name    string
		handler func(w http.ResponseWriter, r *http.Request, proceed <-chan struct{})
		sent    string
		end     invariants.EndKind
		detail  string // a substring of End.Detail
		rules   []string
	}{
		{
			name: "server closes mid-event",
			handler: func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
				lvScript(lvPiece{data: first + midEvent})(w, r)
			},
			sent: first + midEvent, end: invariants.EndEOF, rules: []string{"sse-truncated"},
		},
		{
			name: "connection dropped inside a chunked body",
			handler: func(w http.ResponseWriter, r *http.Request, proceed <-chan struct{}) {
				conn, bw := lvHijack(t, w, "Transfer-Encoding: chunked\r\n")
				fmt.Fprintf(bw, "%x\r\n%s\r\n", len(first+midEvent), first+midEvent)
				bw.Flush()
				<-proceed
				conn.Close()
			},
			sent: first + midEvent, end: invariants.EndError, detail: "unexpected EOF",
		},
		{
			name: "connection reset mid-line",
			handler: func(w http.ResponseWriter, r *http.Request, proceed <-chan struct{}) {
				conn, bw := lvHijack(t, w, "")
				bw.WriteString(first + midLine)
				bw.Flush()
				<-proceed
				conn.(*net.TCPConn).SetLinger(0)
				conn.Close()
			},
			sent: first + midLine, end: invariants.EndError, detail: "reset",
		},
		{
			name: "close-delimited body ends cleanly",
			handler: func(w http.ResponseWriter, r *http.Request, proceed <-chan struct{}) {
				conn, bw := lvHijack(t, w, "")
				bw.WriteString(strings.Join(lvTurn(2), ""))
				bw.Flush()
				<-proceed
				conn.Close()
			},
			sent: strings.Join(lvTurn(2), ""), end: invariants.EndEOF,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lvNoLeak(t)
			proceed := make(chan struct{})
			var once sync.Once
			release := func() { once.Do(func() { close(proceed) }) }
			t.Cleanup(release)
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) { tc.handler(w, r, proceed) })
			l := lvConnect(t, ConnectOptions{URL: srv.URL})
			rec, path := lvRecordPath(t, l, record.Options{})
			// Read until everything sent has arrived, then let the server
			// end the connection: a reset can drop unread bytes.
			var got []byte
			for len(got) < len(tc.sent) {
				ch, err := rec.Next()
				if err != nil {
					break
				}
				got = append(got, ch.Data...)
			}
			release()
			rest := lvDrain(t, rec)
			got = append(got, rest.data...)
			if string(got) != tc.sent {
				t.Errorf("delivered %q, want %q", got, tc.sent)
			}
			e := rest.end
			if e.Kind != tc.end || !strings.Contains(e.Detail, tc.detail) || !e.HasTime {
				t.Errorf("End %+v, want %s with %q", e, tc.end, tc.detail)
			}
			_, d := lvReadBack(t, path)
			if string(d.data) != tc.sent || d.end.Kind != tc.end || d.end.Detail != e.Detail {
				t.Errorf("recording: %q, end %+v; want %q, end %+v", d.data, d.end, tc.sent, e)
			}
			c, _ := capture.Open(path, capture.OpenOptions{Entry: -1})
			rep, _ := report.Check(c, invariants.Options{})
			c.Close()
			for _, r := range tc.rules {
				if !strings.Contains(strings.Join(lvRules(rep), ","), r) {
					t.Errorf("alarms %v, want %s", lvRules(rep), r)
				}
			}
		})
	}
}

// lvHijack takes over the connection and writes a 200 event-stream
// response head (plus extra header lines).
func lvHijack(t testing.TB, w http.ResponseWriter, extra string) (net.Conn, *bufio.ReadWriter) {
	conn, bw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Error(err)
		panic(http.ErrAbortHandler)
	}
	bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n" + extra + "\r\n")
	return conn, bw
}

// TestLiveDrip: a server that drips one byte every ~20 ms — frames are
// delivered as they complete, not when the stream ends.
func TestLiveDrip(t *testing.T) {
	lvNoLeak(t)
	body := "data: a\n\ndata: b\n\ndata: c\n\n"
	var pieces []lvPiece
	for i := range body {
		pieces = append(pieces, lvPiece{wait: 20 * time.Millisecond, data: body[i : i+1]})
	}
	srv := lvServer(t, lvScript(pieces...))
	l := lvConnect(t, ConnectOptions{URL: srv.URL})
	var firstFrame time.Duration = -1
	chunks := 0
	start := time.Now()
	res, err := pipeline.Run(&lvCounting{Capture: l, n: &chunks}, invariants.Options{}, pipeline.Handler{OnItem: func(it *pipeline.Item) {
		if it.Frame != nil && firstFrame < 0 {
			firstFrame = time.Since(start)
		}
	}})
	total := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if res.Frames != 3 || res.End.Kind != invariants.EndEOF {
		t.Fatalf("%d frames, end %+v", res.Frames, res.End)
	}
	// The first frame completes after 9 of 27 bytes: well before the end.
	if firstFrame < 0 || firstFrame > total-150*time.Millisecond {
		t.Errorf("first frame seen at %s, the stream ended at %s: frames are not live", firstFrame, total)
	}
	if chunks < 5 {
		t.Errorf("%d chunks for 27 dripped bytes: reads wait to fill the buffer", chunks)
	}
	t.Logf("first frame at %s of %s, %d chunks", firstFrame.Round(time.Millisecond), total.Round(time.Millisecond), chunks)
}

// lvCounting counts chunks.
type lvCounting struct {
	sessions.Capture
	n *int
}

func (c *lvCounting) Next() (sessions.Chunk, error) {
	ch, err := c.Capture.Next()
	if err == nil {
		*c.n++
	}
	return ch, err
}

// TestLiveSilence: a silence in the stream shows in the chunks' arrival
// times (live and recorded).
func TestLiveSilence(t *testing.T) {
	lvNoLeak(t)
	const silence = 300 * time.Millisecond
	frames := lvTurn(1)
	srv := lvServer(t, lvScript(lvPiece{data: frames[0]}, lvPiece{wait: silence, data: strings.Join(frames[1:], "")}))
	l := lvConnect(t, ConnectOptions{URL: srv.URL})
	rec, path := lvRecordPath(t, l, record.Options{})
	live := lvDrain(t, rec)
	_, d := lvReadBack(t, path)
	for _, got := range []lvDrained{live, d} {
		if string(got.data) != strings.Join(frames, "") || len(got.chunks) < 2 {
			t.Fatalf("%d chunks, data %q", len(got.chunks), got.data)
		}
		var gap time.Duration
		for i := 1; i < len(got.chunks); i++ {
			if !got.chunks[i].HasTime {
				t.Fatalf("chunk %d untimed", i)
			}
			gap = max(gap, got.chunks[i].T-got.chunks[i-1].T)
		}
		if gap < silence*2/3 || gap > silence+5*time.Second {
			t.Errorf("largest gap between chunks %s, want about %s", gap, silence)
		}
		if got.end.At < got.chunks[len(got.chunks)-1].T {
			t.Errorf("end at %s before the last chunk at %s", got.end.At, got.chunks[len(got.chunks)-1].T)
		}
	}
	// Chunk times are kept to the microsecond.
	for i := range d.chunks {
		if diff := d.chunks[i].T - live.chunks[i].T; diff < -time.Microsecond || diff > time.Microsecond {
			t.Errorf("chunk %d recorded at %s, arrived at %s", i, d.chunks[i].T, live.chunks[i].T)
		}
	}
}

// TestLiveNotSSE: a non-2xx or non-SSE response is no Connect error: its
// body streams as chunks, Response shows it, the pipeline raises the
// HTTP rules.
func TestLiveNotSSE(t *testing.T) {
	html := "<!doctype html><html><body><h1>500 Internal Server Error</h1>\x1b[31m</body></html>\n"
	big := strings.Repeat("<p>spam</p>\n", 10000) // 120 KB
	tests := []struct {
		name      string
		status    int
		ct        string
		body      string
		rules     []string
		truncated bool
	}{
		{"500 html", 500, "text/html; charset=utf-8", html, []string{"http-status", "content-type"}, false},
		{"200 html", 200, "text/html", html, []string{"content-type"}, false},
		{"404 plain big", 404, "text/plain", big, []string{"http-status", "content-type"}, true},
		{"503 event stream", 503, "text/event-stream", "data: overloaded\n\n", []string{"http-status"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lvNoLeak(t)
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.ct)
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			l := lvConnect(t, ConnectOptions{URL: srv.URL})
			ri := l.Response()
			wantBody := tc.body
			if len(wantBody) > errorBodyMax {
				wantBody = wantBody[:errorBodyMax]
			}
			if ri.Status != tc.status || ri.ContentType != tc.ct || !strings.HasPrefix(ri.StatusText, fmt.Sprint(tc.status)) ||
				string(ri.ErrorBody) != wantBody || ri.ErrorBodyTruncated != tc.truncated {
				t.Errorf("Response: status %d %q, type %q, %d-byte error body (truncated %v); want %d, %q, %d bytes (%v)",
					ri.Status, ri.StatusText, ri.ContentType, len(ri.ErrorBody), ri.ErrorBodyTruncated, tc.status, tc.ct, len(wantBody), tc.truncated)
			}
			m := l.Meta()
			if m.Status != tc.status || m.ContentType != tc.ct || !m.HTTP {
				t.Errorf("Meta %+v", m)
			}
			rec, path := lvRecordPath(t, l, record.Options{})
			rep, err := report.Check(rec, invariants.Options{})
			rec.Close()
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(lvRules(rep), ",")
			for _, r := range tc.rules {
				if !strings.Contains(got, r) {
					t.Errorf("alarms %s, want %s", got, r)
				}
			}
			_, d := lvReadBack(t, path)
			if string(d.data) != tc.body || d.end.Kind != invariants.EndEOF {
				t.Errorf("recording holds %d bytes (want %d), end %+v", len(d.data), len(tc.body), d.end)
			}
		})
	}
}

// TestLiveErrorBodySlow: Connect waits only so long for an error body;
// the rest of it still streams.
func TestLiveErrorBodySlow(t *testing.T) {
	lvNoLeak(t)
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(502)
		io.WriteString(w, "bad gateway: ")
		w.(http.Flusher).Flush()
		select {
		case <-time.After(errorBodyWait + 500*time.Millisecond):
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "upstream timed out\n")
	})
	start := time.Now()
	l := lvConnect(t, ConnectOptions{URL: srv.URL})
	if el := time.Since(start); el > errorBodyWait+400*time.Millisecond {
		t.Errorf("Connect took %s", el)
	}
	if ri := l.Response(); string(ri.ErrorBody) != "bad gateway: " {
		t.Errorf("ErrorBody %q right after Connect", ri.ErrorBody)
	}
	d := lvDrain(t, l)
	if string(d.data) != "bad gateway: upstream timed out\n" || d.end.Kind != invariants.EndEOF {
		t.Errorf("data %q, end %+v", d.data, d.end)
	}
	if ri := l.Response(); string(ri.ErrorBody) != "bad gateway: upstream timed out\n" {
		t.Errorf("ErrorBody %q at the end", ri.ErrorBody)
	}
}

// TestLiveConnectErrors: when no response arrives, Connect says which URL
// and what failed, and returns promptly.
func TestLiveConnectErrors(t *testing.T) {
	// A port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/chat"
	ln.Close()

	tests := []struct {
		name  string
		setup func(t *testing.T) ConnectOptions
		want  []string
	}{
		{"redirect loop", func(t *testing.T) ConnectOptions {
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path, http.StatusFound) })
			return ConnectOptions{URL: srv.URL + "/loop", FollowRedirects: true}
		}, []string{"/loop", "redirect loop", "10 redirects"}},
		{"Accept-Encoding zstd", func(t *testing.T) ConnectOptions {
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) { t.Error("the request was sent") })
			return ConnectOptions{URL: srv.URL, Headers: []string{"Accept-Encoding: gzip, br, zstd"}}
		}, []string{"Accept-Encoding", "cannot decode", `"zstd"`}},
		{"connect timeout", func(t *testing.T) ConnectOptions {
			// A listener that never accepts: the kernel completes the
			// handshake, nobody answers.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			return ConnectOptions{URL: "http://" + ln.Addr().String() + "/never", ConnectTimeout: 300 * time.Millisecond}
		}, []string{"/never", "timeout", "300ms"}},
		{"connection refused", func(t *testing.T) ConnectOptions {
			return ConnectOptions{URL: refused}
		}, []string{refused, "connection refused"}},
		{"TLS certificate", func(t *testing.T) ConnectOptions {
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
			srv.Config.ErrorLog = lvQuietLog()
			t.Cleanup(srv.Close)
			return ConnectOptions{URL: srv.URL}
		}, []string{"TLS", "certificate", "--insecure"}},
		{"plain HTTP on https", func(t *testing.T) ConnectOptions {
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {})
			return ConnectOptions{URL: strings.Replace(srv.URL, "http:", "https:", 1)}
		}, []string{"TLS", "did not answer with TLS"}},
		{"bad header", func(t *testing.T) ConnectOptions {
			return ConnectOptions{URL: "http://127.0.0.1:1/", Headers: []string{"no colon here"}}
		}, []string{`"no colon here"`, "Name: value"}},
		{"bad scheme", func(t *testing.T) ConnectOptions {
			return ConnectOptions{URL: "ftp://example.com/x"}
		}, []string{"ftp://example.com/x", "unsupported scheme"}},
		{"DNS", func(t *testing.T) ConnectOptions {
			return ConnectOptions{URL: "http://no-such-host.invalid/", ConnectTimeout: 2 * time.Second}
		}, []string{"no-such-host.invalid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lvNoLeak(t)
			opts := tc.setup(t)
			start := time.Now()
			l, err := Connect(context.Background(), opts)
			if err == nil {
				l.Close()
				t.Fatal("Connect succeeded")
			}
			if el := time.Since(start); el > 6*time.Second {
				t.Errorf("Connect took %s", el)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			t.Log(err)
		})
	}
}

func lvQuietLog() *log.Logger { return log.New(io.Discard, "", 0) }

// TestLiveRedirect: with -L, a short redirect chain is followed; Meta names
// where the bytes came from.
func TestLiveRedirect(t *testing.T) {
	lvNoLeak(t)
	frames := lvTurn(1)
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusTemporaryRedirect) })
	mux.HandleFunc("/b", lvScript(lvPieces(frames)...))
	srv := lvServer(t, mux.ServeHTTP)
	l := lvConnect(t, ConnectOptions{URL: srv.URL + "/a", FollowRedirects: true})
	if m := l.Meta(); m.URL != srv.URL+"/b" || m.Name != srv.URL+"/a" {
		t.Errorf("Meta URL %q, Name %q", m.URL, m.Name)
	}
	if d := lvDrain(t, l); string(d.data) != strings.Join(frames, "") || d.end.Kind != invariants.EndEOF {
		t.Errorf("data %q, end %+v", d.data, d.end)
	}
}

// TestLiveTLSInsecure: --insecure reaches a self-signed HTTP/2 server.
func TestLiveTLSInsecure(t *testing.T) {
	lvNoLeak(t)
	frames := lvTurn(3)
	srv := httptest.NewUnstartedServer(lvScript(lvPieces(frames)...))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	l := lvConnect(t, ConnectOptions{URL: srv.URL, Insecure: true})
	if p := l.Response().Proto; p != "HTTP/2.0" {
		t.Errorf("proto %s, want HTTP/2.0", p)
	}
	if d := lvDrain(t, l); string(d.data) != strings.Join(frames, "") || d.end.Kind != invariants.EndEOF {
		t.Errorf("data %q, end %+v", d.data, d.end)
	}
}

// TestLiveEncodings: gzip and deflate bodies are decoded, live; a gzip
// stream cut short ends in an error after everything before the cut.
func TestLiveEncodings(t *testing.T) {
	frames := lvTurn(30)
	plain := strings.Join(frames, "")
	gz := func(flushEvery int) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		for i, f := range frames {
			io.WriteString(zw, f)
			if flushEvery > 0 && i%flushEvery == 0 {
				zw.Flush()
			}
		}
		zw.Close()
		return b.Bytes()
	}
	// cut: the gzip stream of the first half of the frames (flushed), then
	// a part of the rest without the trailer.
	half := strings.Join(frames[:len(frames)/2], "")
	var cut bytes.Buffer
	{
		zw := gzip.NewWriter(&cut)
		io.WriteString(zw, half)
		zw.Flush()
		n := cut.Len()
		io.WriteString(zw, strings.Join(frames[len(frames)/2:], ""))
		zw.Close()
		cut.Truncate(n + (cut.Len()-n)/2)
	}
	var zl, raw bytes.Buffer
	{
		zw := zlib.NewWriter(&zl)
		io.WriteString(zw, plain)
		zw.Close()
		fw, _ := flate.NewWriter(&raw, flate.DefaultCompression)
		io.WriteString(fw, plain)
		fw.Close()
	}
	br := func(flushEvery int) []byte {
		var b bytes.Buffer
		bw := brotli.NewWriter(&b)
		for i, f := range frames {
			io.WriteString(bw, f)
			if flushEvery > 0 && i%flushEvery == 0 {
				bw.Flush()
			}
		}
		bw.Close()
		return b.Bytes()
	}
	var brCut bytes.Buffer
	{
		bw := brotli.NewWriter(&brCut)
		io.WriteString(bw, half)
		bw.Flush()
		n := brCut.Len()
		io.WriteString(bw, strings.Join(frames[len(frames)/2:], ""))
		bw.Close()
		brCut.Truncate(n + (brCut.Len()-n)/2)
	}
	tests := []struct {
		name     string
		encoding string
		accept   string // the user's Accept-Encoding
		body     []byte
		pieces   int // write the body in this many flushed pieces
		end      invariants.EndKind
		detail   string
		prefix   string // for a truncated body: what must have arrived
	}{
		{name: "gzip", encoding: "gzip", accept: "gzip", body: gz(0), pieces: 1, end: invariants.EndEOF},
		{name: "gzip flushed per frame", encoding: "gzip", body: gz(1), pieces: 7, end: invariants.EndEOF},
		{name: "gzip truncated mid-way", encoding: "gzip", body: cut.Bytes(), pieces: 1, end: invariants.EndError, detail: "unexpected EOF", prefix: half},
		{name: "deflate (zlib)", encoding: "deflate", accept: "deflate, identity", body: zl.Bytes(), pieces: 3, end: invariants.EndEOF},
		{name: "deflate (raw)", encoding: "deflate", body: raw.Bytes(), pieces: 3, end: invariants.EndEOF},
		{name: "empty gzip body", encoding: "gzip", body: nil, pieces: 1, end: invariants.EndEOF},
		{name: "br", encoding: "br", accept: "gzip, deflate, br", body: br(0), pieces: 1, end: invariants.EndEOF},
		{name: "br unasked", encoding: "br", body: br(1), pieces: 7, end: invariants.EndEOF},
		{name: "br truncated mid-way", encoding: "br", body: brCut.Bytes(), pieces: 1, end: invariants.EndError, detail: "br body", prefix: half},
		{name: "empty br body", encoding: "br", body: nil, pieces: 1, end: invariants.EndEOF},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lvNoLeak(t)
			var gotAE atomic.Value
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
				gotAE.Store(r.Header.Get("Accept-Encoding"))
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", tc.encoding)
				w.WriteHeader(200)
				step := len(tc.body)/tc.pieces + 1
				for i := 0; i < len(tc.body); i += step {
					w.Write(tc.body[i:min(i+step, len(tc.body))])
					w.(http.Flusher).Flush()
				}
			})
			opts := ConnectOptions{URL: srv.URL}
			if tc.accept != "" {
				opts.Headers = []string{"Accept-Encoding: " + tc.accept}
			}
			l := lvConnect(t, opts)
			rec, path := lvRecordPath(t, l, record.Options{})
			d := lvDrain(t, rec)
			if ae := gotAE.Load().(string); ae != tc.accept {
				t.Errorf("server got Accept-Encoding %q, want %q", ae, tc.accept)
			}
			want := plain
			if tc.body == nil {
				want = ""
			}
			if tc.prefix != "" {
				if !strings.HasPrefix(string(d.data), tc.prefix) || !strings.HasPrefix(plain, string(d.data)) {
					t.Errorf("delivered %d bytes: not the %d bytes before the cut (or more of the plain text)", len(d.data), len(tc.prefix))
				}
			} else if string(d.data) != want {
				t.Errorf("delivered %d bytes, want the %d decoded bytes", len(d.data), len(want))
			}
			if d.end.Kind != tc.end || !strings.Contains(d.end.Detail, tc.detail) {
				t.Errorf("End %+v, want %s %q", d.end, tc.end, tc.detail)
			}
			meta, back := lvReadBack(t, path)
			if !bytes.Equal(back.data, d.data) || back.end.Kind != tc.end {
				t.Errorf("recording: %d bytes, end %+v", len(back.data), back.end)
			}
			if meta.DecodedFrom != tc.encoding || meta.ResponseHeaders["Content-Encoding"] != tc.encoding {
				t.Errorf("recording says decoded from %q, Content-Encoding %q; want %q", meta.DecodedFrom, meta.ResponseHeaders["Content-Encoding"], tc.encoding)
			}
		})
	}
}

// TestLiveCancel: Cancel, Close and the context each end a stream that
// would never end by itself — also while Next is blocked — as cancelled;
// the recording's end line says "cancelled".
func TestLiveCancel(t *testing.T) {
	tests := []struct {
		name string
		stop func(l *Live, cancelCtx context.CancelFunc)
	}{
		{"Cancel", func(l *Live, _ context.CancelFunc) { l.Cancel() }},
		{"context", func(_ *Live, cancel context.CancelFunc) { cancel() }},
		{"Close", func(l *Live, _ context.CancelFunc) { l.Close() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lvNoLeak(t)
			frame := lvFrame("text", `,"chunk":"tick "`)
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, lvFrame("response_id", ""))
				w.(http.Flusher).Flush()
				for i := 0; ; i++ {
					wait := 20 * time.Millisecond
					if i >= 3 {
						wait = time.Hour // then silence: Next blocks
					}
					select {
					case <-r.Context().Done():
						return
					case <-time.After(wait):
					}
					io.WriteString(w, frame)
					w.(http.Flusher).Flush()
				}
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			l, err := Connect(ctx, ConnectOptions{URL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			rec, path := lvRecordPath(t, l, record.Options{})
			want := lvFrame("response_id", "") + strings.Repeat(frame, 3)
			var got []byte
			for len(got) < len(want) {
				ch, err := rec.Next()
				if err != nil {
					t.Fatalf("stream ended early: %+v", rec.End())
				}
				got = append(got, ch.Data...)
			}
			// Next is now blocked on the silent server.
			stopped := time.Now()
			time.AfterFunc(100*time.Millisecond, func() { tc.stop(l, cancel) })
			d := lvDrain(t, rec)
			if el := time.Since(stopped); el > 5*time.Second {
				t.Errorf("Next returned %s after the stop", el)
			}
			got = append(got, d.data...)
			if string(got) != want {
				t.Errorf("delivered %q, want %q", got, want)
			}
			if d.end.Kind != invariants.EndCancelled || !d.end.HasTime || d.end.At < 100*time.Millisecond {
				t.Errorf("End %+v, want cancelled", d.end)
			}
			if !strings.Contains(string(sessiontest.ReadFile(t, path)), `"end":"cancelled"`) {
				t.Errorf("recording has no cancelled end line:\n%s", sessiontest.ReadFile(t, path))
			}
			_, back := lvReadBack(t, path)
			if string(back.data) != want || back.end.Kind != invariants.EndCancelled || len(back.probs) != 0 {
				t.Errorf("recording: %q, end %+v, problems %v", back.data, back.end, back.probs)
			}
		})
	}
}

// TestLiveCloseDuringErrorBodyWait: Close does not wait for a silent error
// body's pre-read to finish on its own.
func TestLiveCloseDuringErrorBody(t *testing.T) {
	lvNoLeak(t)
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	l := lvConnect(t, ConnectOptions{URL: srv.URL})
	start := time.Now()
	l.Close()
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("Close took %s", el)
	}
	if _, err := l.Next(); err != io.EOF || l.End().Kind != invariants.EndCancelled {
		t.Errorf("Next after Close: %v, end %+v", err, l.End())
	}
}

// TestLiveMemoryFlat: a never-ending stream, read and recorded for ~2 s,
// keeps the heap flat: Live keeps no history.
func TestLiveMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("2 s")
	}
	lvNoLeak(t)
	block := []byte(strings.Repeat(lvFrame("text", `,"chunk":"never ending "`), 300))
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, lvFrame("response_id", ""))
		for r.Context().Err() == nil {
			if _, err := w.Write(block); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	l := lvConnect(t, ConnectOptions{URL: srv.URL})
	var written lvCountWriter
	rec := record.New(l, &written, record.Options{})

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	time.AfterFunc(2*time.Second, l.Cancel)
	var n int64
	for {
		ch, err := rec.Next()
		if err != nil {
			break
		}
		n += int64(len(ch.Data))
	}
	close(stop)
	<-sampled
	rec.Close()
	if rec.End().Kind != invariants.EndCancelled {
		t.Errorf("end %+v", rec.End())
	}
	t.Logf("read %.1f MB in 2 s (recorded %.1f MB); HeapInuse %.1f MB before, peak %.1f MB",
		float64(n)/1e6, float64(written.n)/1e6, float64(base)/(1<<20), float64(peak)/(1<<20))
	if n < 10<<20 {
		t.Errorf("only %d bytes read in 2 s", n)
	}
	if peak > base+20<<20 {
		t.Errorf("HeapInuse grew from %.1f MB to %.1f MB", float64(base)/(1<<20), float64(peak)/(1<<20))
	}
}

type lvCountWriter struct{ n int64 }

func (w *lvCountWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// TestLiveHeaderParsing: -H lines as curl takes them.
func TestLiveHeaderParsing(t *testing.T) {
	h, host, err := requestHeaders(ConnectOptions{Headers: []string{
		"X-One:1", "X-Two:   spaced  ", "x-one: again", "Host: example.test", "Empty:",
	}, Body: []byte(" [1]")})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Values("X-One"); len(got) != 2 || got[0] != "1" || got[1] != "again" {
		t.Errorf("X-One %q", got)
	}
	if h.Get("X-Two") != "spaced" || host != "example.test" || h.Get("Host") != "" || len(h.Values("Empty")) != 1 {
		t.Errorf("headers %v, host %q", h, host)
	}
	if h.Get("Content-Type") != "application/json" || h.Get("Accept") != "text/event-stream" {
		t.Errorf("defaults %v", h)
	}
	for _, bad := range []string{"", ": v", "Bad Name: v", "X: a\rb"} {
		if _, _, err := requestHeaders(ConnectOptions{Headers: []string{bad}}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, ae := range []string{"gzip", "gzip, deflate", "identity", "x-gzip;q=0.5", "zstd;q=0, gzip", "GZIP", "br", "gzip, deflate, br"} {
		if _, _, err := requestHeaders(ConnectOptions{Headers: []string{"Accept-Encoding: " + ae}}); err != nil {
			t.Errorf("Accept-Encoding %q: %v", ae, err)
		}
	}
	for _, ae := range []string{"zstd", "zstd, gzip", "*", "gzip;q=1, compress"} {
		if _, _, err := requestHeaders(ConnectOptions{Headers: []string{"Accept-Encoding: " + ae}}); err == nil || !strings.Contains(err.Error(), "cannot decode") {
			t.Errorf("Accept-Encoding %q: %v", ae, err)
		}
	}
}

// TestLiveURLPassword: a password in the URL is sent (as Basic auth) but
// never shown or recorded, unless secrets are kept.
func TestLiveURLPassword(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprint("keep=", keep), func(t *testing.T) {
			lvNoLeak(t)
			gotPass := make(chan string, 1)
			script := lvScript(lvPieces(lvTurn(1))...)
			srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
				_, p, _ := r.BasicAuth()
				gotPass <- p
				script(w, r)
			})
			url := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1)
			l := lvConnect(t, ConnectOptions{URL: url, KeepSecrets: keep})
			if p := <-gotPass; p != "hunter2" {
				t.Errorf("server got password %q", p)
			}
			rec, path := lvRecordPath(t, l, record.Options{KeepSecrets: keep})
			lvDrain(t, rec)
			m := l.Meta()
			shown := strings.Contains(m.Name+m.URL, "hunter2")
			if shown != keep || strings.Contains(string(sessiontest.ReadFile(t, path)), "hunter2") != keep {
				t.Errorf("keep %v: Meta %q %q; recording:\n%s", keep, m.Name, m.URL, sessiontest.ReadFile(t, path))
			}
		})
	}
	// Nor in an error message.
	_, err := Connect(context.Background(), ConnectOptions{URL: "ftp://user:hunter2@example.com/"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %v", err)
	}
}
