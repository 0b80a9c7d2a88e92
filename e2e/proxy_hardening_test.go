package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The proxy's hardening (the proxy red-team report), through the real
// binary: every server is a loopback one started here.

// phBuffer is a buffer safe to read while a process writes it.
type phBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *phBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *phBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// phProxy is a running `framescope proxy --headless --no-save`.
type phProxy struct {
	cmd            *exec.Cmd
	addr           string
	stdout, stderr *phBuffer
}

// phStart runs `framescope proxy --headless --no-save ARGS` (ARGS should
// name a loopback --listen) and waits for the address it prints.
func phStart(t *testing.T, args ...string) *phProxy {
	t.Helper()
	cmd := exec.Command(binaryPath(t), append([]string{"proxy", "--headless", "--no-save"}, args...)...)
	cmd.Env = append(os.Environ(), "FRAMESCOPE_DATA_DIR="+t.TempDir())
	p := &phProxy{cmd: cmd, stdout: &phBuffer{}, stderr: &phBuffer{}}
	cmd.Stdout = p.stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(pipe)
	re := regexp.MustCompile(`^framescope proxy: (?:forward proxy at )?http://(\S+)`)
	for sc.Scan() {
		p.stderr.Write([]byte(sc.Text() + "\n"))
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			p.addr = m[1]
			go io.Copy(p.stderr, pipe)
			return p
		}
	}
	t.Fatalf("proxy printed no address: %s", p.stderr.String())
	return nil
}

// stop interrupts the proxy and returns its stdout (the flow lines and the
// total).
func (p *phProxy) stop(t *testing.T) string {
	t.Helper()
	p.cmd.Process.Signal(os.Interrupt)
	p.cmd.Wait()
	return p.stdout.String()
}

// phRun runs the binary to its end (at most 20 s) and returns its stderr
// and exit status.
func phRun(t *testing.T, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binaryPath(t), args...)
	cmd.Env = append(os.Environ(), "FRAMESCOPE_DATA_DIR="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return stderr.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return stderr.String(), 0
}

// phServe runs `framescope serve CAPTURE --addr 127.0.0.1:0` and returns
// its address.
func phServe(t *testing.T, capture string) string {
	t.Helper()
	cmd := exec.Command(binaryPath(t), "serve", filepath.Join(repoRoot(t), capture), "--addr", "127.0.0.1:0")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(pipe)
	re := regexp.MustCompile(`^serving .* at http://(\S+?)/`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, pipe)
			return m[1]
		}
	}
	t.Fatal("serve printed no address")
	return ""
}

// phFreePort is a loopback port free a moment ago.
func phFreePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// phDo sends one request as written to addr and returns the status and
// body of the response (0 when none came within 10 s).
func phDo(t *testing.T, addr, head, body string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, head+"\r\n"+body); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestProxyRebindingGuard (item 1): a page on a rebound name gets 403 from
// the proxy, as it does from serve, instead of the upstream's body — the
// proxy used to answer it 200, and to serve's own guard it presented the
// upstream's Host, so serve said 403 directly and 200 through the proxy.
func TestProxyRebindingGuard(t *testing.T) {
	serve := phServe(t, "testdata/examples/example-happy.sse")
	_, servePort, _ := net.SplitHostPort(serve)
	p := phStart(t, "--listen", "127.0.0.1:0", "http://"+serve)
	_, port, _ := net.SplitHostPort(p.addr)

	evil := "GET /api/chat HTTP/1.1\r\nHost: evil.example:" + port + "\r\nOrigin: http://evil.example:" + port + "\r\n"
	if st, _ := phDo(t, serve, strings.ReplaceAll(evil, port, servePort), ""); st != http.StatusForbidden {
		t.Fatalf("serve itself: %d, want 403", st)
	}
	if st, body := phDo(t, p.addr, evil, ""); st != http.StatusForbidden || !strings.Contains(body, "--allow-origin") {
		t.Errorf("rebound Host and Origin through the proxy: %d %q, want 403", st, body)
	}
	post := "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
	if st, _ := phDo(t, p.addr, post, "{}"); st != http.StatusForbidden {
		t.Errorf("cross-site text/plain POST: %d, want 403", st)
	}
	if st, body := phDo(t, p.addr, "GET /api/chat HTTP/1.1\r\nHost: 127.0.0.1:"+port+"\r\n", ""); st != 200 || !strings.Contains(body, "data:") {
		t.Errorf("loopback: %d %q, want serve's stream", st, body)
	}
	out := p.stop(t)
	if !strings.Contains(out, "403 GET") || !strings.Contains(out, "refused: Host") {
		t.Errorf("the refusal is not in the flow lines:\n%s", out)
	}

	// --allow-origin names a host (and origin) that is then proxied.
	p = phStart(t, "--listen", "127.0.0.1:0", "--allow-origin", "http://dev.test:5173", "http://"+serve)
	if st, _ := phDo(t, p.addr, "GET /api/chat HTTP/1.1\r\nHost: dev.test:7071\r\n", ""); st != 200 {
		t.Errorf("allowed host: %d, want 200", st)
	}
	// The Origin is passed on as sent: serve (no --allow-origin of its
	// own) judges it.
	ok := "GET /api/chat HTTP/1.1\r\nHost: dev.test:7071\r\nOrigin: http://dev.test:5173\r\n"
	if st, body := phDo(t, p.addr, ok, ""); st != http.StatusForbidden || !strings.HasPrefix(body, "framescope serve: refused: Origin") {
		t.Errorf("allowed origin, refused by serve: %d %q", st, body)
	}
	if st, _ := phDo(t, p.addr, evil, ""); st != http.StatusForbidden {
		t.Errorf("with an allow-list, a foreign Host: %d, want 403", st)
	}
	if _, code := phRun(t, "proxy", "--allow-origin", "*", "http://127.0.0.1:1"); code != 2 {
		t.Errorf("--allow-origin '*': exit %d, want 2", code)
	}
}

// TestProxyRefusesItselfAsUpstream (item 2): `framescope proxy
// http://127.0.0.1:7071` on the default listen address turned one request
// into 11,918 hops; now it is refused before anything is bound, however
// the port is written. Two proxies pointing at each other answer 508 at
// the second hop (Via).
func TestProxyRefusesItselfAsUpstream(t *testing.T) {
	for _, args := range [][]string{
		{"proxy", "http://127.0.0.1:7071"},
		{"proxy", "http://localhost:07071/v1"},
		{"proxy", "--listen", "localhost:7071", "http://[::1]:7071"},
	} {
		stderr, code := phRun(t, args...)
		if code != 2 || !strings.Contains(stderr, "the proxy's own listen address") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}

	pa, pb := phFreePort(t), phFreePort(t)
	b := phStart(t, "--listen", "127.0.0.1:"+pb, "http://127.0.0.1:"+pa)
	a := phStart(t, "--listen", "127.0.0.1:"+pa, "http://127.0.0.1:"+pb)
	st, body := phDo(t, a.addr, "GET /x HTTP/1.1\r\nHost: 127.0.0.1:"+pa+"\r\n", "")
	if st != http.StatusLoopDetected || !strings.Contains(body, "Via") {
		t.Errorf("a ring of two proxies: %d %q, want 508", st, body)
	}
	outA, outB := a.stop(t), b.stop(t)
	if !strings.Contains(outA, "total: 1 flow,") || !strings.Contains(outB, "total: 1 flow,") {
		t.Errorf("a ring of two proxies: want one flow each:\n%s\n%s", outA, outB)
	}
}

// TestProxyMaxConns (item 4): at most --max-conns connections are open at
// once; one more is answered 503 (and the cap is logged), and a slot
// frees when a connection closes. Before, 1,000 concurrent 1 MiB uploads
// were all taken in (2.26 GB peak RSS).
func TestProxyMaxConns(t *testing.T) {
	gate := make(chan struct{})
	arrived := make(chan struct{}, 8)
	up := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-gate:
		case <-r.Context().Done():
		}
		io.WriteString(w, "ok")
	}), ReadHeaderTimeout: 5 * time.Second}
	uln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go up.Serve(uln)
	defer up.Close()
	p := phStart(t, "--listen", "127.0.0.1:0", "--max-conns", "2", "http://"+uln.Addr().String())

	type result struct {
		status int
		body   string
	}
	held := make(chan result, 2)
	for range 2 {
		go func() {
			st, body := phDo(t, p.addr, "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n", "")
			held <- result{st, body}
		}()
	}
	<-arrived
	<-arrived
	st, body := phDo(t, p.addr, "GET /third HTTP/1.1\r\nHost: 127.0.0.1\r\n", "")
	if st != http.StatusServiceUnavailable || !strings.HasPrefix(body, "framescope proxy: too many connections") {
		t.Errorf("a third connection: %d %q, want 503", st, body)
	}
	close(gate)
	for range 2 {
		if r := <-held; r.status != 200 || r.body != "ok" {
			t.Errorf("a held connection: %d %q", r.status, r.body)
		}
	}
	// phDo closed both: their slots are free again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _ = phDo(t, p.addr, "GET /again HTTP/1.1\r\nHost: 127.0.0.1\r\n", "")
		if st == 200 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st != 200 {
		t.Errorf("after the held connections closed: %d, want 200", st)
	}
	p.stop(t)
	if log := p.stderr.String(); !strings.Contains(log, "the cap (--max-conns 2): refusing more with 503") {
		t.Errorf("the cap is not logged:\n%s", log)
	}
	if stderr, code := phRun(t, "proxy", "--max-conns", "0", "http://127.0.0.1:1"); code != 2 || !strings.Contains(stderr, "--max-conns 0: want at least 1") {
		t.Errorf("--max-conns 0: exit %d, %q", code, stderr)
	}
}

// TestProxyPriorKnowledgeHTTP2 (item 13): the HTTP/2 preface gets a clear
// 505 (it went to the upstream transport and came back a puzzling 502).
func TestProxyPriorKnowledgeHTTP2(t *testing.T) {
	p := phStart(t, "--listen", "127.0.0.1:0", "http://127.0.0.1:1")
	st, body := phDo(t, p.addr, "PRI * HTTP/2.0\r\n", "SM\r\n\r\n")
	if st != http.StatusHTTPVersionNotSupported || !strings.Contains(body, "speak HTTP/1.1 to the proxy") {
		t.Errorf("PRI * HTTP/2.0: %d %q, want 505", st, body)
	}
}

// TestProxyUpstreamSecrets (item 14): an upstream URL's ?key=SECRET was
// printed in clear at start-up, and its query and user:pass then dropped
// without a word; now both are refused, the message masked.
func TestProxyUpstreamSecrets(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:1/v1?key=SECRET":            "has a query, which the proxy would not send",
		"http://user:SECRET@127.0.0.1:1/v1":           "has credentials (user:pass@)",
		"http://SECRET@127.0.0.1:1/v1?api_key=SECRET": "has credentials",
	} {
		stderr, code := phRun(t, "proxy", "--no-save", raw)
		if code != 2 || !strings.Contains(stderr, want) || strings.Contains(stderr, "SECRET") || strings.Contains(stderr, "]]") {
			t.Errorf("%s: exit %d, %q", raw, code, stderr)
		}
	}
}

// TestProxyKeepsTETrailers (item 21): "TE: trailers" reaches the upstream
// through the binary (it was dropped with the hop-by-hop headers), and
// the upstream's trailers reach the app.
func TestProxyKeepsTETrailers(t *testing.T) {
	te := make(chan string, 1)
	up := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		te <- strings.Join(r.Header.Values("Te"), ",")
		w.Header().Set("Trailer", "Grpc-Status")
		w.Header().Set("Content-Type", "application/grpc")
		io.WriteString(w, "msg")
		w.Header().Set("Grpc-Status", "0")
	}), ReadHeaderTimeout: 5 * time.Second}
	uln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go up.Serve(uln)
	defer up.Close()
	p := phStart(t, "--listen", "127.0.0.1:0", "http://"+uln.Addr().String())
	req, _ := http.NewRequest("POST", "http://"+p.addr+"/pkg.Service/Call", strings.NewReader("x"))
	req.Header.Set("TE", "trailers")
	req.Header.Set("Content-Type", "application/grpc")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := <-te; got != "trailers" {
		t.Errorf("the upstream got TE %q, want trailers", got)
	}
	if resp.Trailer.Get("Grpc-Status") != "0" {
		t.Errorf("the app got trailers %v", resp.Trailer)
	}
}
