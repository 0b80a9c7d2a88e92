package replay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/sessions/faults"
)

// Issue 11 items 8 (an allow-list instead of switching the guard off; no
// silent network bind), 9 (no attacker-chosen Content-Type) and 16 (a
// deadline for request bodies).

// TestReplayCORSOnlyAllowed: --cors reflects only origins the guard
// accepts, and Private Network Access is granted only to them (before, with
// the guard off, any origin got both).
func TestReplayCORSOnlyAllowed(t *testing.T) {
	r := rpReplayOf([][]byte{rpStream(1, 0)})
	opts := rpFast()
	opts.CORS = true
	opts.Allow, _ = ParseAllowList([]string{"http://dev.test:5173"})
	srv, _ := rpServe(t, r, opts)
	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest("OPTIONS", srv.URL+"/api/chat", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Private-Network", "true")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := preflight("http://attacker.example")
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Access-Control-Allow-Private-Network") != "" {
		t.Errorf("foreign origin: status %d, headers %v", resp.StatusCode, resp.Header)
	}
	resp = preflight("http://dev.test:5173")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "http://dev.test:5173" ||
		resp.Header.Get("Access-Control-Allow-Private-Network") != "true" {
		t.Errorf("allowed origin: status %d, headers %v", resp.StatusCode, resp.Header)
	}
}

func TestCheckBind(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:7070", ":7070", "[::]:7070", "192.168.1.5:7070", "[fd00::1]:0", "[::ffff:10.0.0.1]:0"} {
		err := CheckBind(addr, false)
		if err == nil || !strings.Contains(err.Error(), "add --lan") || !strings.Contains(err.Error(), "--addr "+addr) {
			t.Errorf("%s: %v", addr, err)
		}
		if err := CheckBind(addr, true); err != nil {
			t.Errorf("%s --lan: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "127.8.9.10:7070", "[::1]:0", "localhost:7070", "app.localhost:0", "[::ffff:127.0.0.1]:0"} {
		if err := CheckBind(addr, false); err != nil {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if err := CheckBind("7070", false); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("no port: %v", err)
	}
	lo := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}
	if CheckListener(lo, false) != nil || CheckListener(&net.TCPAddr{IP: net.IPv4zero, Port: 1}, false) == nil {
		t.Error("CheckListener")
	}
}

func TestLANURLs(t *testing.T) {
	local := []netip.Addr{netip.MustParseAddr("2001:db8::5"), netip.MustParseAddr("203.0.113.9"), netip.MustParseAddr("fe80::1"),
		netip.MustParseAddr("192.168.1.5"), netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.168.1.5")}
	tcp := func(ip string, port int) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: port} }
	for _, tc := range []struct {
		bound net.Addr
		want  []string
	}{
		{tcp("0.0.0.0", 7070), []string{"http://192.168.1.5:7070/api/chat", "http://203.0.113.9:7070/api/chat"}},
		{tcp("::", 7070), []string{"http://192.168.1.5:7070/api/chat", "http://203.0.113.9:7070/api/chat", "http://[2001:db8::5]:7070/api/chat"}},
		{tcp("192.168.1.5", 9), []string{"http://192.168.1.5:9/api/chat"}},
		{tcp("127.0.0.1", 9), nil},
	} {
		if got := LANURLs(tc.bound, "/api/chat", local); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.bound, got, tc.want)
		}
	}
}

func TestParseContentType(t *testing.T) {
	for in, want := range map[string]string{"sse": "", "": "", "text/event-stream": "", "keep": ContentTypeKeep, "KEEP": ContentTypeKeep,
		"text/plain; charset=utf-8": "text/plain; charset=utf-8"} {
		if got, err := ParseContentType(in); err != nil || got != want {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"html", "text/html\r\nX: y", "a/b; c"} {
		if _, err := ParseContentType(bad); err == nil || !strings.HasPrefix(err.Error(), "--content-type ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestReplaySecurityHeaders: a capture that recorded text/html and a
// <script> is served as text/event-stream, and every response (the replay,
// refusals, errors) says nosniff and sandbox, so no browser renders it as a
// page of 127.0.0.1 — even with --content-type keep.
func TestReplaySecurityHeaders(t *testing.T) {
	page := []byte("<html><script>fetch('/api/chat').then(r=>r.text()).then(alert)</script></html>\n")
	path := rpWriteJSONL(t, t.TempDir(), "evil.jsonl", 200, "text/html; charset=utf-8", []rpLine{{T: 0.01, Data: page}}, 0.01)
	r, err := LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	secure := func(what string, h http.Header) {
		t.Helper()
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "sandbox" {
			t.Errorf("%s: headers %v lack nosniff / CSP sandbox", what, h)
		}
	}
	for _, tc := range []struct{ option, want string }{
		{"", "text/event-stream"}, {ContentTypeKeep, "text/html; charset=utf-8"}, {"text/plain", "text/plain"},
	} {
		opts := rpFast()
		opts.ContentType = tc.option
		srv, _ := rpServe(t, r, opts)
		res := rpRead(t, nil, "GET", srv.URL+"/api/chat", nil)
		if ct := res.Header.Get("Content-Type"); ct != tc.want || !bytes.Equal(res.Body, page) {
			t.Errorf("--content-type %q: Content-Type %q, want %q", tc.option, ct, tc.want)
		}
		secure("replay "+tc.option, res.Header)
		for _, path := range []string{"/other", "/api/chat"} {
			req, _ := http.NewRequest("GET", srv.URL+path, nil)
			if path == "/api/chat" {
				req.Host = "attacker.example"
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			secure(fmt.Sprintf("%s (status %d)", path, resp.StatusCode), resp.Header)
		}
	}
	// The scenario relay behind Guard too.
	relay, err := NewRelay(RelayOptions{Scenario: "happy", Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Guard(relay, GuardOptions{}))
	defer srv.Close()
	res := rpRead(t, nil, "POST", srv.URL+"/api/chat", strings.NewReader("{}"))
	if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Errorf("relay: status %d, Content-Type %q", res.Status, res.Header.Get("Content-Type"))
	}
	secure("relay", res.Header)
}

// trickle sends a request whose body never finishes (one byte every 20 ms
// of a declared 100000) and returns the status line the server answered
// with, whether the server then closed the connection, and how many body
// bytes had been sent.
func trickle(t *testing.T, addr string) (status string, closed bool, sent int) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	var mu sync.Mutex
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
			mu.Lock()
			sent++
			mu.Unlock()
		}
	}()
	defer close(stop)
	conn.SetReadDeadline(time.Now().Add(20 * time.Second)) // a hang fails, it does not block the suite
	br := bufio.NewReader(conn)
	status, err = br.ReadString('\n')
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	_, err = io.Copy(io.Discard, br)
	// EOF, or a reset: the server closed the connection. A server that
	// closes with body bytes unread in its socket sends RST (RFC 1122
	// 4.2.2.13), so a client still trickling may see a reset rather than
	// EOF; only the read deadline means the connection stayed open.
	var ne net.Error
	closed = err == nil || !(errors.As(err, &ne) && ne.Timeout())
	mu.Lock()
	defer mu.Unlock()
	return strings.TrimSpace(status), closed, sent
}

// TestServeBodyTimeout: clients that trickle a request body are answered
// 408 and disconnected once the body deadline passes (before, 50 of them
// held their connections for as long as they liked), in the replay and in
// the scenario relay; a prompt client still gets a replay that lasts longer
// than the deadline (the deadline covers the body, not the response).
func TestServeBodyTimeout(t *testing.T) {
	const clients = 20
	const timeout = 300 * time.Millisecond
	stream := rpStream(3, 0)
	r := &Replay{Chunks: []ReplayChunk{{Data: stream[:40]}, {Data: stream[40:], At: 2 * timeout}}}
	r.Frames = len(replayIndexFrames(r.Chunks))
	opts := ReplayOptions{Speed: 1, Faults: faults.None(), BodyTimeout: timeout}
	relay, err := NewRelay(RelayOptions{Scenario: "happy", Speed: 0})
	if err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]http.Handler{"replay": r.Handler(opts), "relay": Guard(relay, GuardOptions{BodyTimeout: timeout})} {
		base := rpListen(t, h)
		addr := strings.TrimPrefix(base, "http://")
		var wg sync.WaitGroup
		for i := 0; i < clients; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, closed, sent := trickle(t, addr)
				if !strings.Contains(status, " 408 ") || !closed || sent >= 100000 {
					t.Errorf("%s: status %q, closed %v after %d body bytes; want 408 and a closed connection mid-body", name, status, closed, sent)
				}
			}()
		}
		wg.Wait()
	}
	srv, _ := rpServe(t, r, opts)
	res := rpRead(t, nil, "POST", srv.URL+"/api/chat", strings.NewReader(`{"message":"hi"}`))
	if res.Status != 200 || res.Err != nil || !bytes.Equal(res.Body, stream) {
		t.Errorf("prompt client: status %d, err %v, %d of %d bytes", res.Status, res.Err, len(res.Body), len(stream))
	}
	rpNoHandlerGoroutines(t)
}
