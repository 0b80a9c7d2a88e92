package proxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"framescope/sessions/frontdoor"
)

// rawRequest sends one HTTP/1.1 request as written (request line, headers,
// body) to addr and returns the status and body of the response.
func rawRequest(t *testing.T, addr, head, body string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, head+"\r\n"+body); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// countingUpstream answers "upstream secret" and counts its requests.
func countingUpstream(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "upstream secret")
	}))
	t.Cleanup(up.Close)
	return up, &n
}

// TestRebindingGuard: a request addressed to the proxy with a foreign Host
// (a rebound name) or a foreign Origin (a cross-site page, a text/plain
// POST that needs no preflight) is refused 403 and never reaches the
// upstream, in both modes; loopback, this machine's own address and
// --allow-origin names are proxied; absolute-form requests (the target in
// the request line, the Origin the page's) are not the guard's.
func TestRebindingGuard(t *testing.T) {
	up, hits := countingUpstream(t)
	upAddr := strings.TrimPrefix(up.URL, "http://")
	u, _ := url.Parse(up.URL)
	_, rev := startProxy(t, Options{Upstream: u})
	revAddr := strings.TrimPrefix(rev.URL, "http://")
	_, port, _ := net.SplitHostPort(revAddr)

	refused := []struct{ name, head, body string }{
		{"rebound Host", "GET /v1/models HTTP/1.1\r\nHost: evil.example:" + port + "\r\n", ""},
		{"rebound Host and Origin", "GET / HTTP/1.1\r\nHost: evil.example:" + port + "\r\nOrigin: http://evil.example:" + port + "\r\n", ""},
		{"cross-site text/plain POST", "POST /v1/chat HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: http://evil.example\r\n" +
			"Content-Type: text/plain\r\nContent-Length: 2\r\n", "{}"},
		{"two Origins", "GET / HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nOrigin: http://evil.example\r\n", ""},
		{"a LAN address not allowed", "GET / HTTP/1.1\r\nHost: 192.168.1.20:" + port + "\r\n", ""},
	}
	for _, c := range refused {
		st, body := rawRequest(t, revAddr, c.head, c.body)
		if st != http.StatusForbidden || !strings.Contains(body, "--allow-origin") || strings.Contains(body, "upstream secret") {
			t.Errorf("reverse, %s: %d %q; want 403 naming --allow-origin", c.name, st, body)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the upstream got %d refused requests", n)
	}
	for _, head := range []string{
		"GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n",
		"GET / HTTP/1.1\r\nHost: localhost:" + port + "\r\nOrigin: http://localhost:5173\r\n",
		"POST / HTTP/1.1\r\nHost: [::1]:" + port + "\r\nOrigin: http://127.0.0.1:3000\r\nContent-Length: 0\r\n",
	} {
		if st, body := rawRequest(t, revAddr, head, ""); st != 200 || body != "upstream secret" {
			t.Errorf("%q: %d %q, want the upstream's 200", head, st, body)
		}
	}

	// --allow-origin and (with --allow-remote) this machine's addresses.
	allow, err := frontdoor.ParseAllowList([]string{"phone.lan", "http://dev.test:5173"})
	if err != nil {
		t.Fatal(err)
	}
	allow.AddAddrs(netip.MustParseAddr("192.168.1.20"))
	_, rev2 := startProxy(t, Options{Upstream: u, Allow: allow})
	rev2Addr := strings.TrimPrefix(rev2.URL, "http://")
	for head, want := range map[string]int{
		"GET / HTTP/1.1\r\nHost: phone.lan:7071\r\n":                                          200,
		"GET / HTTP/1.1\r\nHost: 192.168.1.20:7071\r\nOrigin: http://dev.test:5173\r\n":       200,
		"GET / HTTP/1.1\r\nHost: dev.test:7071\r\n":                                           200,
		"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://dev.test:5173\r\n":              403,
		"GET / HTTP/1.1\r\nHost: evil.example\r\n":                                            403,
		"GET / HTTP/1.1\r\nHost: 192.168.1.21:7071\r\n":                                       403,
		"GET / HTTP/1.1\r\nHost: phone.lan.evil.example\r\nOrigin: http://phone.lan:7071\r\n": 403,
	} {
		if st, _ := rawRequest(t, rev2Addr, head, ""); st != want {
			t.Errorf("allow-list, %q: %d, want %d", head, st, want)
		}
	}

	// A forward proxy: an absolute-form request carries its target in the
	// request line and the page's Origin; it is forwarded. An origin-form
	// request is addressed to the proxy and guarded like any.
	p, fwd := startProxy(t, Options{})
	fwdAddr := strings.TrimPrefix(fwd.URL, "http://")
	before := hits.Load()
	head := fmt.Sprintf("GET %s/x HTTP/1.1\r\nHost: %s\r\nOrigin: https://app.example\r\n", up.URL, upAddr)
	if st, body := rawRequest(t, fwdAddr, head, ""); st != 200 || body != "upstream secret" {
		t.Errorf("forward absolute-form with a page's Origin: %d %q", st, body)
	}
	if st, body := rawRequest(t, fwdAddr, "GET / HTTP/1.1\r\nHost: evil.example\r\n", ""); st != http.StatusForbidden || !strings.Contains(body, "DNS rebinding") {
		t.Errorf("forward, origin-form with a rebound Host: %d %q", st, body)
	}
	if hits.Load() != before+1 {
		t.Errorf("the upstream got %d requests, want 1", hits.Load()-before)
	}
	var sawRefusal bool
	for _, f := range p.Flows() {
		sawRefusal = sawRefusal || f.Status == http.StatusForbidden && strings.HasPrefix(f.Err, "refused: Host")
	}
	if !sawRefusal {
		t.Errorf("the refusal is not listed as a flow: %+v", p.Flows())
	}
}
