package e2e

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"framescope/sessions/replay"
)

// Issue 11, items 8, 9, 10, 12 and 16 through the real binary: serve's
// exposure (network bind, allow-list, headers, body deadline), HAR bodies
// streamed, and flags that are checked instead of silently accepted.

// startServeLog is startServe that keeps every line serve writes to stderr
// (the ones before the address too).
func startServeLog(t *testing.T, args ...string) (url string, log func() string) {
	t.Helper()
	cmd := command(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var buf lockedBuffer
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			buf.Write([]byte(line + "\n"))
			if i := strings.Index(line, "http://"); i >= 0 && strings.HasPrefix(line, "serving ") {
				select {
				case urls <- strings.Fields(line[i:])[0]:
				default:
				}
			}
		}
		close(urls)
	}()
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatalf("serve printed no address:\n%s", buf.String())
		}
		time.Sleep(50 * time.Millisecond) // the lines printed right after the address
		return u, buf.String
	case <-time.After(20 * time.Second):
		t.Fatalf("serve printed no address:\n%s", buf.String())
	}
	return "", nil
}

// hostOf parses a URL serve printed.
func hostOf(t *testing.T, raw string) *neturl.URL {
	t.Helper()
	u, err := neturl.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// get sends a request with an optional Host and Origin.
func get(t *testing.T, method, url, host, origin string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
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
	return resp, b
}

// TestServeNetworkOptIn (item 8): what serve's guard lets through: an
// --allow-origin list's origins and hosts (with CORS and Private Network
// Access) and, with --lan, this machine's own addresses as Host. (The
// refusals, a non-loopback --addr without --lan and --allow-origin values
// that would turn the guard off: e2e/testdata/script/serve_exposure.txtar.)
func TestServeNetworkOptIn(t *testing.T) {
	capture := "testdata/examples/example-happy.sse"
	// An allow-list: the named origin and host are served (with CORS and
	// Private Network Access); the guard holds for every other name.
	url, _ := startServeLog(t, capture, "--speed", "max", "--cors", "--allow-origin", "http://dev.test:5173", "--allow-origin", "phone.lan")
	want, _ := os.ReadFile(repoPath(capture))
	if resp, body := get(t, "GET", url, "", "http://dev.test:5173"); resp.StatusCode != 200 || !bytes.Equal(body, want) ||
		resp.Header.Get("Access-Control-Allow-Origin") != "http://dev.test:5173" {
		t.Errorf("allowed origin: status %d, ACAO %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	if resp, _ := get(t, "GET", url, "phone.lan:7070", ""); resp.StatusCode != 200 {
		t.Errorf("allowed host: status %d", resp.StatusCode)
	}
	for _, hv := range [][2]string{{"attacker.example", ""}, {"", "http://attacker.example"}, {"phone.lan.attacker.example", ""}, {"", "http://dev.test:8080"}} {
		resp, body := get(t, "GET", url, hv[0], hv[1])
		if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" || !strings.Contains(string(body), "--allow-origin HOST") {
			t.Errorf("Host %q Origin %q: status %d, ACAO %q; want 403", hv[0], hv[1], resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	req, _ := http.NewRequest("OPTIONS", url, nil)
	req.Header.Set("Origin", "http://attacker.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Private-Network", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Private-Network") != "" {
		t.Errorf("foreign preflight: status %d, PNA %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Private-Network"))
	}

	// --lan: this machine's own addresses are served as Host (what a phone
	// types); on a loopback --addr serve says only this machine can
	// connect. (The test listens on loopback only.)
	url, log := startServeLog(t, capture, "--speed", "max", "--lan")
	if !strings.Contains(log(), "--lan, but --addr 127.0.0.1:") {
		t.Errorf("--lan on loopback: stderr %q", log())
	}
	local := replay.LocalAddrs()
	if len(local) == 0 {
		t.Log("no network address on this machine: the Host part is skipped")
		return
	}
	host := net.JoinHostPort(local[0].String(), hostOf(t, url).Port())
	if resp, _ := get(t, "GET", url, host, ""); resp.StatusCode != 200 {
		t.Errorf("--lan, Host %s: status %d", host, resp.StatusCode)
	}
	url, _ = startServeLog(t, capture, "--speed", "max")
	if resp, _ := get(t, "GET", url, host, ""); resp.StatusCode != 403 {
		t.Errorf("no --lan, Host %s: status %d, want 403", host, resp.StatusCode)
	}
}

// TestServeContentTypeAndHeaders (item 9): a capture that recorded
// text/html and a script is replayed as text/event-stream with nosniff and
// a sandbox CSP (serve says so); --content-type keep replays its type, the
// headers still on.
func TestServeContentTypeAndHeaders(t *testing.T) {
	page := `<html><script>fetch("/api/chat").then(r=>r.text()).then(alert)</script></html>`
	path := filepath.Join(t.TempDir(), "evil.jsonl")
	capture := `{"framescope_capture":1,"url":"http://127.0.0.1:8080/api/chat","method":"GET","status":200,"response_headers":{"Content-Type":"text/html"},"started_at":"2026-05-15T18:00:00.000Z"}
{"t":0.01,"data":` + fmt.Sprintf("%q", page) + `}
{"t":0.02,"end":"eof"}
`
	if err := os.WriteFile(path, []byte(capture), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		ct   string
		note bool
	}{
		{nil, "text/event-stream", true},
		{[]string{"--content-type", "keep"}, "text/html", false},
	} {
		url, log := startServeLog(t, append([]string{path, "--speed", "max"}, tc.args...)...)
		resp, body := get(t, "GET", url, "", "")
		if resp.Header.Get("Content-Type") != tc.ct || string(body) != page {
			t.Errorf("%v: Content-Type %q, body %q", tc.args, resp.Header.Get("Content-Type"), body)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Content-Security-Policy") != "sandbox" {
			t.Errorf("%v: headers %v", tc.args, resp.Header)
		}
		if note := strings.Contains(log(), "Content-Type text/html is served as text/event-stream (--content-type keep"); note != tc.note {
			t.Errorf("%v: note %v in %q", tc.args, note, log())
		}
	}
}

// TestServeCutsTrickledBodies (item 16): clients that trickle a request
// body get 408 and lose the connection once --body-timeout passes, while
// far from done sending.
func TestServeCutsTrickledBodies(t *testing.T) {
	url, log := startServeLog(t, "testdata/examples/example-happy.sse", "--speed", "max", "--body-timeout", "300ms")
	addr := hostOf(t, url).Host
	const clients, declared = 20, 100000
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n{", declared)
			sent := 1
			done := make(chan struct{})
			go func() {
				defer close(done)
				for sent < declared {
					time.Sleep(20 * time.Millisecond)
					if _, err := conn.Write([]byte(" ")); err != nil {
						return
					}
					sent++
				}
			}()
			conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			all, err := io.ReadAll(conn) // until the server closes
			<-done
			// A server that closes with body bytes unread sends a reset,
			// which can arrive after its whole 408: that is a close too.
			if errors.Is(err, syscall.ECONNRESET) && strings.HasPrefix(string(all), "HTTP/1.1 408 ") {
				err = nil
			}
			if err != nil || !strings.HasPrefix(string(all), "HTTP/1.1 408 ") || sent >= declared {
				t.Errorf("read %q (err %v) after sending %d of %d body bytes; want 408 then close", all, err, sent, declared)
			}
		}()
	}
	wg.Wait()
	if n := strings.Count(log(), " 408 "); n != clients {
		t.Errorf("%d 408s logged, want %d:\n%s", n, clients, log())
	}
}

// TestHARBodyThroughCheckAndServe (item 10): a HAR whose base64 body is
// long enough to be streamed is checked like the same bytes as raw SSE,
// and served byte for byte.
func TestHARBodyThroughCheckAndServe(t *testing.T) {
	one, err := os.ReadFile(repoPath("testdata/examples/example-happy.sse"))
	if err != nil {
		t.Fatal(err)
	}
	stream := bytes.Repeat(one, 4) // > 4 KB: streamed, not parsed whole
	dir := t.TempDir()
	ssePath, harPath := filepath.Join(dir, "s.sse"), filepath.Join(dir, "s.har")
	os.WriteFile(ssePath, stream, 0o644)
	b64 := strings.ReplaceAll(base64.StdEncoding.EncodeToString(stream), "/", `\/`)
	har := `{"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":[]},` +
		`"response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],` +
		`"content":{"mimeType":"text/event-stream","encoding":"base64","text":"` + b64 + `"}}}]}}`
	os.WriteFile(harPath, []byte(har), 0o644)

	a := parseReports(t, runCLI(t, "", "check", "--format", "json", ssePath).stdout)
	b := parseReports(t, runCLI(t, "", "check", "--format", "json", harPath).stdout)
	if len(a) != 1 || len(b) != 1 || a[0].Frames != b[0].Frames || strings.Join(alarmLines(a[0]), ",") != strings.Join(alarmLines(b[0]), ",") {
		t.Fatalf("check differs: raw %+v\nHAR %+v", a, b)
	}
	url := startServe(t, harPath, "--speed", "max")
	if _, body := get(t, "GET", url, "", ""); !bytes.Equal(body, stream) {
		t.Errorf("serve: %d bytes, want %d", len(body), len(stream))
	}
}
