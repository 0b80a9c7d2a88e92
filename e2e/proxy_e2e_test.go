package e2e

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"framescope/sessions/library"
)

// The proxy end to end, through the real binary: each stream reaches the
// client byte-identical and un-delayed (the upstream holds its second
// event until the client has the first: only a proxy that flushes every
// read lets the test go on), lands in the session library and is checked.
//
// Streams are real recordings (testdata/real/MANIFEST.tsv):
// anthropic-messages/anthropic-advisor-tool-stream.sse (pydantic/pydantic-ai,
// tests/models/cassettes/test_anthropic/test_anthropic_advisor_tool_stream.yaml,
// 4fda389, MIT) and openai-chat/deepseek-text.sse (vercel/ai,
// packages/deepseek/src/chat/__fixtures__/deepseek-text.chunks.txt,
// ed857f5, Apache-2.0).

// proxyRun is a `framescope proxy` process.
type proxyRun struct {
	cmd    *exec.Cmd
	addr   string
	stdout *lockedBuffer
	data   string // its FRAMESCOPE_DATA_DIR
}

func startProxyBin(t *testing.T, env []string, args ...string) *proxyRun {
	t.Helper()
	data := t.TempDir()
	cmd := command(append([]string{"proxy", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "FRAMESCOPE_DATA_DIR="+data), env...)
	stdout := &lockedBuffer{}
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`^framescope proxy: (?:forward proxy at )?http://(\S+)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return &proxyRun{cmd: cmd, addr: m[1], stdout: stdout, data: data}
		}
	}
	t.Fatal("proxy printed no address")
	return nil
}

// stop interrupts the proxy (Ctrl-C) and returns its output and exit status.
func (p *proxyRun) stop(t *testing.T) (string, int) {
	t.Helper()
	p.cmd.Process.Signal(os.Interrupt)
	err := p.cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return p.stdout.String(), code
}

func readReal(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(repoPath("testdata/real/" + name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gatedSSE serves body as SSE, block by block, and holds every block
// after the first until gate is closed.
func gatedSSE(body []byte, gate chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		first := bytes.Index(body, []byte("\n\n")) + 2
		w.Write(body[:first])
		w.(http.Flusher).Flush()
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		w.Write(body[first:])
	})
}

// readGated reads the first SSE block of a response, opens the gate, then
// reads the rest: what it returns is the whole body.
func readGated(t *testing.T, resp *http.Response, gate chan struct{}) []byte {
	t.Helper()
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var got []byte
	for !bytes.HasSuffix(got, []byte("\n\n")) {
		line, err := br.ReadBytes('\n')
		got = append(got, line...)
		if err != nil {
			t.Fatalf("first event: %v (got %q)", err, got)
		}
	}
	close(gate)
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	return append(got, rest...)
}

// sessionOf finds the session a flow line names and checks it was saved.
func sessionOf(t *testing.T, out, data, dialect string) library.SessionMeta {
	t.Helper()
	m := regexp.MustCompile(`stream .* ` + regexp.QuoteMeta(dialect) + ` (\d+) frames? .* @(\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %s stream line in:\n%s", dialect, out)
	}
	lib := &library.Library{Dir: filepath.Join(data, "sessions")}
	meta, err := lib.Find(m[2])
	if err != nil || meta.Dialect != dialect || meta.Source != "proxy" || meta.Frames == 0 {
		t.Fatalf("session %s: %+v %v", m[2], meta, err)
	}
	return meta
}

// TestProxyReverseAppClient: an app-style client (POST, JSON body, bearer
// token) against the reverse proxy.
func TestProxyReverseAppClient(t *testing.T) {
	body := readReal(t, "anthropic-messages/anthropic-advisor-tool-stream.sse")
	gate := make(chan struct{})
	up := httptest.NewServer(gatedSSE(body, gate))
	defer up.Close()
	px := startProxyBin(t, nil, up.URL)
	req, _ := http.NewRequest("POST", "http://"+px.addr+"/v1/messages", strings.NewReader(`{"model":"claude","stream":true}`))
	req.Header.Set("Authorization", "Bearer sk-ant-e2e-secret")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if got := readGated(t, resp, gate); !bytes.Equal(got, body) {
		t.Fatalf("the client got %d bytes, not the upstream's %d", len(got), len(body))
	}
	out, code := px.stop(t)
	if code != 0 || !strings.Contains(out, "total: 1 flow, 1 stream checked: 0 error, 0 warn") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	meta := sessionOf(t, out, px.data, "anthropic-messages")
	capture, err := os.ReadFile(filepath.Join(px.data, "sessions", meta.Capture))
	if err != nil || bytes.Contains(capture, []byte("sk-ant-e2e-secret")) {
		t.Fatalf("recording keeps the token (or is missing: %v)", err)
	}
}

// TestProxyForwardGoClient: a Go net/http client through the proxy as its
// HTTP proxy (http.ProxyURL: what HTTP_PROXY sets, which Go's environment
// lookup skips for loopback hosts such as the test's upstream).
func TestProxyForwardGoClient(t *testing.T) {
	body := readReal(t, "openai-chat/deepseek-text.sse")
	gate := make(chan struct{})
	up := httptest.NewServer(gatedSSE(body, gate))
	defer up.Close()
	px := startProxyBin(t, nil)
	pu, _ := url.Parse("http://" + px.addr)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := client.Post(up.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := readGated(t, resp, gate); !bytes.Equal(got, body) {
		t.Fatal("body changed through the forward proxy")
	}
	out, code := px.stop(t)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	sessionOf(t, out, px.data, "openai-chat")
}

// TestProxyMITMGoClient: the same client over HTTPS through --mitm,
// trusting the CA `framescope proxy ca` made.
func TestProxyMITMGoClient(t *testing.T) {
	body := readReal(t, "openai-chat/deepseek-text.sse")
	gate := make(chan struct{})
	up := httptest.NewTLSServer(gatedSSE(body, gate))
	defer up.Close()
	dir := t.TempDir()
	upCA := filepath.Join(dir, "upstream.pem")
	os.WriteFile(upCA, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: up.Certificate().Raw}), 0o644)
	env := []string{"FRAMESCOPE_CONFIG_DIR=" + dir}

	cmd := command("proxy", "ca")
	cmd.Env = append(os.Environ(), env...)
	caOut, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	certPath := filepath.Join(dir, "ca", "framescope-ca.pem")
	if !strings.Contains(string(caOut), certPath) || strings.Contains(string(caOut), "PRIVATE KEY") {
		t.Fatalf("proxy ca:\n%s", caOut)
	}
	if fi, err := os.Stat(filepath.Join(dir, "ca", "framescope-ca-key.pem")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("CA key: %v %v", fi, err)
	}
	pemCA, _ := os.ReadFile(certPath)
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pemCA)

	px := startProxyBin(t, env, "--mitm", "--upstream-cacert", upCA, "--fail-on", "error")
	pu, _ := url.Parse("http://" + px.addr)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: roots}}}
	resp, err := client.Get(up.URL + "/v1/chat/completions")
	if err != nil {
		t.Fatal(err)
	}
	if got := readGated(t, resp, gate); !bytes.Equal(got, body) {
		t.Fatal("body changed through --mitm")
	}
	client.CloseIdleConnections()
	out, code := px.stop(t)
	if code != 0 || !strings.Contains(out, "https://127.0.0.1:") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	sessionOf(t, out, px.data, "openai-chat")
}

// TestProxyFailOn: a stream with an error alarm makes --fail-on error
// exit 1 once the proxy stops; the line names the alarm.
func TestProxyFailOn(t *testing.T) {
	broken, err := os.ReadFile(repoPath("testdata/dialects/openai-chat/after-terminal.fires.sse"))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(broken)
	}))
	defer up.Close()
	px := startProxyBin(t, nil, up.URL, "--fail-on", "error", "--no-save")
	resp, err := http.Get("http://" + px.addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, broken) {
		t.Fatal("a broken stream must still pass through unchanged")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(px.stdout.String(), "after-terminal") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	out, code := px.stop(t)
	if code != 1 || !strings.Contains(out, "! error after-terminal") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestProxyRefusesRemoteListen: a non-loopback --listen needs --allow-remote.
func TestProxyRefusesRemoteListen(t *testing.T) {
	r := runCLI(t, "", "proxy", "--listen", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "--allow-remote") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}

// TestProxyInterruptMidStream: Ctrl-C while a stream is open ends it as
// cancelled, its check and recording finish, and the total is printed.
func TestProxyInterruptMidStream(t *testing.T) {
	body := readReal(t, "openai-chat/deepseek-text.sse")
	gate := make(chan struct{}) // never opened: the stream stays open
	defer close(gate)
	up := httptest.NewServer(gatedSSE(body, gate))
	defer up.Close()
	px := startProxyBin(t, nil, up.URL)
	resp, err := http.Get("http://" + px.addr + "/v1/chat/completions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "data: ") {
		t.Fatalf("first line %q: %v", line, err)
	}
	out, code := px.stop(t)
	if code != 0 || !strings.Contains(out, "cancelled") || !strings.Contains(out, "total: 1 flow, 1 stream checked") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	sessionOf(t, out, px.data, "openai-chat")
}
