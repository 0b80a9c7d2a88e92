package proxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/pipeline"
)

// realStream is a real recording (testdata/real/MANIFEST.tsv: vercel/ai
// packages/deepseek/src/chat/__fixtures__/deepseek-text.chunks.txt,
// Apache-2.0), an openai-chat stream.
func realStream(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/real/openai-chat/deepseek-text.sse")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// blocks splits SSE bytes after each blank line.
func blocks(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.Index(b, []byte("\n\n"))
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+2])
		b = b[i+2:]
	}
	return out
}

// sseUpstream serves body as text/event-stream, one block per write,
// each flushed; before block i (i ≥ 1) it waits for gate, when set.
func sseUpstream(t *testing.T, body []byte, gate chan struct{}) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i, b := range blocks(body) {
			if i == 1 && gate != nil {
				select {
				case <-gate:
				case <-r.Context().Done():
					return
				}
			}
			w.Write(b)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func startProxy(t *testing.T, opts Options) (*Proxy, *httptest.Server) {
	t.Helper()
	p := New(opts)
	srv := httptest.NewServer(p)
	t.Cleanup(func() { srv.Close(); p.Wait() })
	return p, srv
}

// waitDone waits for n finished flows from the feed.
func waitDone(t *testing.T, p *Proxy, n int) []Flow {
	t.Helper()
	sub := p.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := map[int64]Flow{}
	for len(done) < n {
		fs, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("only %d of %d flows finished: %v", len(done), n, err)
		}
		for _, f := range fs {
			if f.Done {
				done[f.ID] = f
			}
		}
	}
	var out []Flow
	for _, f := range p.Flows() {
		if _, ok := done[f.ID]; ok {
			out = append(out, done[f.ID])
		}
	}
	return out
}

// TestReverseStreamPassesThroughAndIsChecked: the app gets each event
// before the upstream sends the next (nothing held back), the bytes are
// identical, and the stream is detected, checked and saved.
func TestReverseStreamPassesThroughAndIsChecked(t *testing.T) {
	body := realStream(t)
	gate := make(chan struct{})
	up := sseUpstream(t, body, gate)
	lib := &library.Library{Dir: t.TempDir()}
	u, _ := url.Parse(up.URL + "/base")
	p, px := startProxy(t, Options{Upstream: u, Library: lib})

	resp, err := http.Post(px.URL+"/v1/chat?x=1", "application/json", strings.NewReader(`{"model":"m","api_key":"sk-secret"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	first := blocks(body)[0]
	got := make([]byte, len(first))
	if _, err := io.ReadFull(br, got); err != nil { // the upstream waits on gate: only the proxy's flush can deliver this
		t.Fatal(err)
	}
	close(gate)
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(got, rest...), body) {
		t.Fatalf("the app got %d bytes, not the %d the upstream sent", len(got)+len(rest), len(body))
	}
	fs := waitDone(t, p, 1)
	f := fs[0]
	if f.Kind != KindStream || f.Dialect != "openai-chat" || f.Frames == 0 || f.Status != 200 || f.Bytes != int64(len(body)) {
		t.Fatalf("flow: %+v", f)
	}
	if f.Counts.Error+f.Counts.Warn != 0 {
		t.Fatalf("a valid real stream raised alarms: %+v", f.Alarms)
	}
	if !strings.HasSuffix(f.URL, "/base/v1/chat?x=1") {
		t.Fatalf("upstream URL %q", f.URL)
	}
	m, err := lib.Find(f.SessionID)
	if err != nil || m.Source != "proxy" || m.Frames != f.Frames || m.Dialect != "openai-chat" {
		t.Fatalf("library: %+v %v", m, err)
	}
	capture, _ := os.ReadFile(filepath.Join(lib.Dir, f.SessionID+".jsonl"))
	if bytes.Contains(capture, []byte("sk-secret")) || !bytes.Contains(capture, []byte(`"request_body"`)) {
		t.Fatalf("recording: secret kept or body missing:\n%.400s", capture)
	}
}

// TestSlowCheckerNeverSlowsTheApp: a checker that cannot keep up never
// slows the app, and misses nothing: what its queue cannot hold waits in
// the spill, and the check (and recording) finish after the stream,
// complete and clean.
func TestSlowCheckerNeverSlowsTheApp(t *testing.T) {
	body := realStream(t)
	up := sseUpstream(t, body, nil)
	u, _ := url.Parse(up.URL)
	release := make(chan struct{})
	lib := &library.Library{Dir: t.TempDir()}
	p, px := startProxy(t, Options{Upstream: u, QueueBytes: 1024, Library: lib, OnStream: func(Flow, sessions.Meta) pipeline.Handler {
		return pipeline.Handler{OnItem: func(*pipeline.Item) { <-release }}
	}})
	resp, err := http.Get(px.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body) // completes while the checker is stuck
	resp.Body.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("app got %d of %d bytes: %v", len(got), len(body), err)
	}
	close(release)
	f := waitDone(t, p, 1)[0]
	if f.Behind != 0 || f.Counts.Error+f.Counts.Warn != 0 || p.spill.spilled.Load() == 0 {
		t.Fatalf("a checker that fell behind must still check everything (spilled %d): %+v", p.spill.spilled.Load(), f)
	}
	m, err := lib.Find(f.SessionID)
	if err != nil || m.Bytes != int64(len(body)) {
		t.Fatalf("the recording must hold every byte: %+v %v", m, err)
	}
	if p.spill.held.Load() != 0 {
		t.Fatalf("spill not given back: %d", p.spill.held.Load())
	}
}

// waitForwarded waits until the proxy's copy loop of its only flow has
// ended (its Duration set), the check perhaps not.
func waitForwarded(t *testing.T, p *Proxy) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if fs := p.Flows(); len(fs) == 1 && fs[0].Duration > 0 {
			return
		}
	}
	t.Fatal("the copy loop never ended")
}

// TestSlowCheckerPastTheSpill: past the spill's bound (here none) the
// checker loses bytes from its check, said by an alarm and Behind; the
// app still gets every byte.
func TestSlowCheckerPastTheSpill(t *testing.T) {
	body := realStream(t)
	up := sseUpstream(t, body, nil)
	u, _ := url.Parse(up.URL)
	release := make(chan struct{})
	p, px := startProxy(t, Options{Upstream: u, QueueBytes: 1024, MaxSpill: -1, OnStream: func(Flow, sessions.Meta) pipeline.Handler {
		return pipeline.Handler{OnItem: func(*pipeline.Item) { <-release }}
	}})
	resp, err := http.Get(px.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body) // completes while the checker is stuck
	resp.Body.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("app got %d of %d bytes: %v", len(got), len(body), err)
	}
	waitForwarded(t, p) // every read pushed: the check has one gap
	close(release)
	f := waitDone(t, p, 1)[0]
	if f.Behind == 0 || f.Counts.Error == 0 {
		t.Fatalf("a checker that fell behind must say so: %+v", f)
	}
	// Each gap is told once, where it was: together they are Behind.
	var told int64
	for _, a := range f.Alarms {
		if a.Rule == "capture-corrupt" {
			var n int64
			fmt.Sscanf(a.Message, "the checker fell behind: %d bytes", &n)
			told += n
		}
	}
	if told != f.Behind {
		t.Fatalf("gaps tell %d bytes, Behind %d: %+v", told, f.Behind, f.Alarms)
	}
}

// TestUpstreamCutReachesTheApp: an upstream that breaks its body mid-stream
// breaks the app's too (no clean end), and the check says the stream was cut.
func TestUpstreamCutReachesTheApp(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"a\":1}\n\n"))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u})
	resp, err := http.Get(px.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil {
		t.Fatal("the app saw a clean end of a body the upstream cut")
	}
	f := waitDone(t, p, 1)[0]
	if !strings.Contains(f.Err, "error") {
		t.Fatalf("flow: %+v", f)
	}
}

// TestHeadersRedirectsAndBodies: hop-by-hop headers stop at the proxy, a
// redirect reaches the app unfollowed, a non-stream body is kept up to its cap.
func TestHeadersRedirectsAndBodies(t *testing.T) {
	var seen http.Header
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		if r.URL.Path == "/go" {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(bytes.Repeat([]byte("x"), 100))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u, BodyCap: 10})
	req, _ := http.NewRequest("GET", px.URL+"/go", nil)
	req.Header.Set("Proxy-Authorization", "Basic c2VjcmV0")
	req.Header.Set("Connection", "X-Private")
	req.Header.Set("X-Private", "hop")
	req.Header.Set("X-App", "kept")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/elsewhere" {
		t.Fatalf("redirect: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if seen.Get("Proxy-Authorization") != "" || seen.Get("X-Private") != "" || seen.Get("X-App") != "kept" {
		t.Fatalf("upstream saw %v", seen)
	}
	resp, err = http.Get(px.URL + "/json")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	fs := waitDone(t, p, 2)
	if f := fs[1]; f.Kind != KindHTTP || len(f.Body) != 10 || !f.BodyCut || f.Bytes != 100 {
		t.Fatalf("flow: %+v", f)
	}
}

// TestForwardAbsoluteFormAndLoop: without an upstream, HTTP_PROXY-style
// requests are forwarded; one to the proxy itself is refused (508).
func TestForwardAbsoluteFormAndLoop(t *testing.T) {
	body := realStream(t)
	up := sseUpstream(t, body, nil)
	p := New(Options{})
	px := httptest.NewServer(p)
	defer px.Close()
	p.opts.Listen = strings.TrimPrefix(px.URL, "http://")
	pu, _ := url.Parse(px.URL)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := client.Get(up.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, body) {
		t.Fatalf("forwarded body differs (%d bytes)", len(got))
	}
	resp, err = client.Get(px.URL + "/loop")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusLoopDetected {
		t.Fatalf("loop: %d", resp.StatusCode)
	}
	if f := waitDone(t, p, 1)[0]; f.Dialect != "openai-chat" {
		t.Fatalf("flow: %+v", f)
	}
	p.Wait()
}

// TestConnectBlindAndMITM: CONNECT is a blind tunnel (the app checks the
// upstream's own certificate); with a CA the app trusts, the same request
// is decrypted, forwarded over TLS and checked.
func TestConnectBlindAndMITM(t *testing.T) {
	body := realStream(t)
	up := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	defer up.Close()
	upPool := x509.NewCertPool()
	upPool.AddCert(up.Certificate())

	get := func(p *Proxy, roots *x509.CertPool) []byte {
		px := httptest.NewServer(p)
		defer px.Close()
		pu, _ := url.Parse(px.URL)
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: roots}}}
		resp, err := client.Get(up.URL)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		client.CloseIdleConnections() // the tunnel ends with the app's connection
		return got
	}
	blind := New(Options{})
	if got := get(blind, upPool); !bytes.Equal(got, body) {
		t.Fatal("blind tunnel changed the body")
	}
	if f := waitDone(t, blind, 1)[0]; f.Kind != KindTunnel || f.Bytes == 0 {
		t.Fatalf("tunnel flow: %+v", f)
	}

	ca, created, err := LoadOrCreateCA(t.TempDir())
	if err != nil || !created {
		t.Fatal(err)
	}
	tr := DefaultTransport()
	tr.TLSClientConfig.RootCAs = upPool
	mitm := New(Options{CA: ca, Transport: tr})
	caPool := x509.NewCertPool()
	caPool.AppendCertsFromPEM(ca.CertPEM())
	if got := get(mitm, caPool); !bytes.Equal(got, body) {
		t.Fatal("MITM changed the body")
	}
	f := waitDone(t, mitm, 1)[0]
	if f.Kind != KindStream || f.Dialect != "openai-chat" || !strings.HasPrefix(f.URL, "https://") {
		t.Fatalf("MITM flow: %+v", f)
	}
	mitm.Wait()
	// --mitm-hosts leaves other hosts blind.
	only := New(Options{CA: ca, MITMHosts: []string{"*.example.com"}})
	if got := get(only, upPool); !bytes.Equal(got, body) {
		t.Fatal("tunnel outside --mitm-hosts changed the body")
	}
}

// TestCAFiles: the key is 0600 and refused when others can read it; a
// second load finds the same CA; a leaf verifies against it.
func TestCAFiles(t *testing.T) {
	dir := t.TempDir()
	ca, _, err := LoadOrCreateCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, CAKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key mode: %v %v", fi.Mode(), err)
	}
	again, created, err := LoadOrCreateCA(dir)
	if err != nil || created || !bytes.Equal(again.CertPEM(), ca.CertPEM()) {
		t.Fatalf("reload: created=%v %v", created, err)
	}
	leaf, err := ca.Leaf("api.example.com")
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(leaf.Certificate[0])
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca.CertPEM())
	if _, err := cert.Verify(x509.VerifyOptions{DNSName: "api.example.com", Roots: pool}); err != nil {
		t.Fatal(err)
	}
	if again, _ := ca.Leaf("API.example.com."); again != leaf {
		t.Fatal("leaf not cached")
	}
	os.Chmod(filepath.Join(dir, CAKeyFile), 0o644)
	if _, _, err := LoadOrCreateCA(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a readable key was accepted: %v", err)
	}
}

// TestIsStream: what is recorded and checked as a stream.
func TestIsStream(t *testing.T) {
	for _, c := range []struct {
		ct, enc, first string
		want           bool
	}{
		{"text/event-stream; charset=utf-8", "", "", true},
		{"application/x-ndjson", "", "{}", true},
		{"", "", "data: {}\n\n", true},
		{"text/plain", "", "event: x\n", true},
		{"application/json", "", "data: x", false},
		{"text/event-stream", "gzip", "", true},
		{"text/event-stream", "zstd", "", false},
		{"", "gzip", "data: x", false},
		{"text/html", "", "<html>", false},
	} {
		if got := isStream(c.ct, c.enc, []byte(c.first)); got != c.want {
			t.Errorf("isStream(%q, %q, %q) = %v", c.ct, c.enc, c.first, got)
		}
	}
}

// TestNDJSONStreamChecked: an NDJSON body's lines are read as frames.
func TestNDJSONStreamChecked(t *testing.T) {
	var sse bytes.Buffer
	for _, b := range blocks(realStream(t)) {
		line := strings.TrimSpace(strings.TrimPrefix(string(b), "data: "))
		if line != "[DONE]" && line != "" {
			sse.WriteString(line + "\n")
		}
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Write(sse.Bytes())
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u, Check: invariants.Options{}})
	resp, err := http.Get(px.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, sse.Bytes()) {
		t.Fatal("NDJSON body changed")
	}
	if f := waitDone(t, p, 1)[0]; f.Frames < 10 || f.Dialect != "openai-chat" {
		t.Fatalf("flow: %+v", f)
	}
}

// TestCheckListen: loopback by default; anything else needs allowRemote.
func TestCheckListen(t *testing.T) {
	for _, c := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:7071", false, true}, {"[::1]:7071", false, true}, {"localhost:7071", false, true},
		{"0.0.0.0:7071", false, false}, {":7071", false, false}, {"192.168.1.5:7071", false, false},
		{"0.0.0.0:7071", true, true}, {"nonsense", true, false},
	} {
		if err := CheckListen(c.addr, c.remote); (err == nil) != c.ok {
			t.Errorf("CheckListen(%q, %v) = %v", c.addr, c.remote, err)
		}
	}
}

// TestNoBodyStatusIsNoStream: a 204 labelled text/event-stream has no
// body to check (RFC 9110 §15.3.5): listed, not checked as an empty stream.
func TestNoBodyStatusIsNoStream(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u})
	resp, err := http.Get(px.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if f := waitDone(t, p, 1)[0]; f.Kind != KindHTTP || f.Status != 204 {
		t.Fatalf("flow: %+v", f)
	}
}

// TestCopyBufferGrows: a body starts with a small read buffer and moves
// to a large one at the first read that fills it; the app and the
// recording get every byte, in order, on both sides of the switch, for
// a stream (events flushed one by one, then a burst larger than any
// buffer, then events again) and for a body that is not a stream.
func TestCopyBufferGrows(t *testing.T) {
	bl := blocks(realStream(t))
	var burst []byte
	for len(burst) < 3*copyBufSize {
		burst = append(burst, bytes.Join(bl[1:len(bl)-2], nil)...)
	}
	parts := [][]byte{bl[0], bl[1], bl[2], burst, bl[3]}
	parts = append(parts, bl[len(bl)-2:]...)
	stream := bytes.Join(parts, nil)
	blob := bytes.Repeat([]byte{0, 1, 2, 0xff}, smallCopyBufSize) // 4 × the small buffer
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/blob" {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(blob)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range parts {
			w.Write(p)
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	lib := &library.Library{Dir: t.TempDir()}
	p, px := startProxy(t, Options{Upstream: u, Library: lib, BodyCap: len(blob)})
	for _, c := range []struct {
		path string
		want []byte
	}{{"/", stream}, {"/blob", blob}} {
		resp, err := http.Get(px.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || !bytes.Equal(got, c.want) {
			t.Fatalf("%s: app got %d of %d bytes (%v)", c.path, len(got), len(c.want), err)
		}
	}
	for _, f := range waitDone(t, p, 2) {
		switch f.Kind {
		case KindStream:
			m, err := lib.Find(f.SessionID)
			if err != nil || m.Bytes != int64(len(stream)) || f.Counts.Error+f.Counts.Warn != 0 {
				t.Fatalf("stream: recorded %+v (%v), flow %+v", m, err, f)
			}
		default:
			if !bytes.Equal(f.Body, blob) || f.BodyCut {
				t.Fatalf("blob: kept %d of %d bytes, cut %v", len(f.Body), len(blob), f.BodyCut)
			}
		}
	}
}
