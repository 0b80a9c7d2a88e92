package proxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestParseUpstreamRefusesItself (item 2): an upstream that is the
// proxy's own listen address is refused before anything is bound, however
// it is spelled (ports compared as numbers, a scheme's default port, every
// name of loopback, every interface).
func TestParseUpstreamRefusesItself(t *testing.T) {
	for _, c := range [][2]string{
		{"http://127.0.0.1:7071", "127.0.0.1:7071"},
		{"http://localhost:7071/v1", "127.0.0.1:7071"},
		{"http://127.0.0.1:07071", "127.0.0.1:7071"},
		{"http://[::1]:7071", "127.0.0.1:7071"},
		{"http://127.0.0.1:7071", "localhost:7071"},
		{"http://127.0.0.1", "127.0.0.1:80"},
		{"https://localhost", "127.0.0.1:443"},
		{"http://127.0.0.1:7071", ":7071"},
		{"http://0.0.0.0:7071", "0.0.0.0:7071"},
		{"http://192.168.1.20:7071", "192.168.1.20:7071"},
	} {
		if _, err := ParseUpstream(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "own listen address") {
			t.Errorf("upstream %s, --listen %s: %v; want refused as the proxy itself", c[0], c[1], err)
		}
	}
	for _, c := range [][2]string{
		{"http://127.0.0.1:7070", "127.0.0.1:7071"},
		{"http://127.0.0.1:7071", "127.0.0.1:0"},
		{"http://api.example:7071", "127.0.0.1:7071"},
		{"https://api.example", "127.0.0.1:443"},
		{"http://192.168.1.21:7071", "192.168.1.20:7071"},
	} {
		if _, err := ParseUpstream(c[0], c[1]); err != nil {
			t.Errorf("upstream %s, --listen %s: %v", c[0], c[1], err)
		}
	}
	for _, bad := range []string{"ftp://x", "127.0.0.1:7070", "http://", "http://[::1"} {
		if _, err := ParseUpstream(bad, "127.0.0.1:7071"); err == nil || !strings.Contains(err.Error(), "want the upstream's http") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestParseUpstreamSecrets (item 14): the upstream URL's query and
// user:pass were dropped without a word (and printed in clear at
// start-up): they are refused, and the refusal quotes the URL masked.
func TestParseUpstreamSecrets(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080/v1?key=SECRET":        "has a query",
		"https://api.example/?api_key=SECRET&x=1":    "has a query",
		"http://user:SECRET@127.0.0.1:8080/":         "credentials",
		"http://SECRET@api.example/v1":               "credentials",
		"https://u:SECRET@api.example/v1?key=SECRET": "credentials",
	} {
		_, err := ParseUpstream(raw, "127.0.0.1:7071")
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: %v; want refused (%s), the secret masked", raw, err, want)
		}
	}
	if _, err := ParseUpstream("http://127.0.0.1:8080/v1/?", "127.0.0.1:7071"); err != nil {
		t.Errorf("an empty query: %v", err)
	}
}

// serveProxy serves p on ln until the test ends.
func serveProxy(t *testing.T, p *Proxy, ln net.Listener) {
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close(); p.Close(); p.Wait() })
}

func listenLoopback(t *testing.T) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// TestViaLoop (item 2): every request forwarded carries this proxy's Via
// (and so does its response); a request that comes back with it — a proxy
// that is its own upstream, two proxies pointing at each other — is 508 at
// once, not thousands of hops.
func TestViaLoop(t *testing.T) {
	var via, respVia string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		via = strings.Join(r.Header.Values("Via"), ", ")
		w.Header().Set("Via", "1.1 upstream-cache")
		io.WriteString(w, "ok")
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u})
	req, _ := http.NewRequest("GET", px.URL+"/", nil)
	req.Header.Set("Via", "1.0 app-side")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	respVia = strings.Join(resp.Header.Values("Via"), ", ")
	if want := "1.0 app-side, 1.1 " + p.via; via != want {
		t.Errorf("upstream saw Via %q, want %q", via, want)
	}
	if want := "1.1 upstream-cache, 1.1 " + p.via; respVia != want {
		t.Errorf("the app got Via %q, want %q", respVia, want)
	}

	// A proxy that is its own upstream.
	ln := listenLoopback(t)
	self, _ := url.Parse("http://" + ln.Addr().String())
	ps := New(Options{Upstream: self})
	serveProxy(t, ps, ln)
	resp, err = (&http.Client{Timeout: 10 * time.Second}).Get(self.String() + "/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusLoopDetected || !strings.Contains(string(body), "Via") {
		t.Errorf("its own upstream: %d %q, want 508", resp.StatusCode, body)
	}
	if n := len(ps.Flows()); n != 1 {
		t.Errorf("its own upstream: %d flows, want 1 (one hop, then 508)", n)
	}

	// Two proxies, each the other's upstream.
	la, lb := listenLoopback(t), listenLoopback(t)
	ua, _ := url.Parse("http://" + la.Addr().String())
	ub, _ := url.Parse("http://" + lb.Addr().String())
	pa, pb := New(Options{Upstream: ub}), New(Options{Upstream: ua})
	serveProxy(t, pa, la)
	serveProxy(t, pb, lb)
	resp, err = (&http.Client{Timeout: 10 * time.Second}).Get(ua.String() + "/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusLoopDetected {
		t.Errorf("two proxies in a ring: %d, want 508", resp.StatusCode)
	}
	if na, nb := len(pa.Flows()), len(pb.Flows()); na != 1 || nb != 1 {
		t.Errorf("two proxies in a ring: %d and %d flows, want 1 and 1", na, nb)
	}
}

// TestForwardLoopPortsAsNumbers (item 25): a forward request or CONNECT
// to the proxy's own address is 508 however its port is written
// (017172 is 17172 to a dialer; the port was compared as a string).
func TestForwardLoopPortsAsNumbers(t *testing.T) {
	ln := listenLoopback(t)
	p := New(Options{Listen: ln.Addr().String()})
	serveProxy(t, p, ln)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, head := range []string{
		fmt.Sprintf("CONNECT 127.0.0.1:0%s HTTP/1.1\r\nHost: 127.0.0.1:0%s\r\n", port, port),
		fmt.Sprintf("CONNECT localhost:00%s HTTP/1.1\r\nHost: localhost:00%s\r\n", port, port),
		fmt.Sprintf("GET http://127.0.0.1:0%s/ HTTP/1.1\r\nHost: 127.0.0.1:0%s\r\n", port, port),
		fmt.Sprintf("GET http://127.0.0.1:%s/ HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n", port, port),
	} {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(c, head+"\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err != nil || resp.StatusCode != http.StatusLoopDetected {
			t.Errorf("%q: %v %v, want 508", strings.SplitN(head, "\r\n", 2)[0], err, resp)
		}
	}
}
