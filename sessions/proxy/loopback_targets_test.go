package proxy

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestRemoteClientsMissLoopbackTargets (item 17): with --allow-remote a
// client on another machine reached this machine's loopback-only services
// through the forward proxy (absolute-form and CONNECT to 127.0.0.1): it
// is refused 403 now, unless AllowLoopbackTargets; a client on this
// machine still reaches them.
func TestRemoteClientsMissLoopbackTargets(t *testing.T) {
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("loopback-only")) }))
	defer secret.Close()
	u, _ := url.Parse(secret.URL)
	port := u.Port()
	do := func(p *Proxy, method, target, remote string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, nil)
		if method == http.MethodConnect {
			r = httptest.NewRequest(method, "http://"+target, nil)
			r.URL = &url.URL{Host: target}
			r.Host = target
			r.RequestURI = target
		}
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		p.ServeHTTP(w, r)
		return w
	}
	p := New(Options{})
	defer p.Wait()
	for _, target := range []string{"http://127.0.0.1:" + port + "/", "http://localhost:" + port + "/", "http://[::1]:" + port + "/", "http://0.0.0.0:" + port + "/", "http://127.1.2.3:" + port + "/"} {
		if w := do(p, http.MethodGet, target, "192.0.2.7:40000"); w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "--allow-loopback-targets") {
			t.Errorf("remote GET %s: %d %q, want 403", target, w.Code, w.Body.String())
		}
	}
	for _, target := range []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:22"} {
		if w := do(p, http.MethodConnect, target, "192.0.2.7:40000"); w.Code != http.StatusForbidden {
			t.Errorf("remote CONNECT %s: %d, want 403", target, w.Code)
		}
	}
	if w := do(p, http.MethodGet, secret.URL+"/", "127.0.0.1:40000"); w.Code != 200 || w.Body.String() != "loopback-only" {
		t.Errorf("a client on this machine: %d %q, want the service", w.Code, w.Body.String())
	}
	if w := do(p, http.MethodConnect, "127.0.0.1:"+port, "127.0.0.1:40000"); w.Code == http.StatusForbidden {
		t.Errorf("a client on this machine: CONNECT refused")
	}
	allowed := New(Options{AllowLoopbackTargets: true})
	defer allowed.Wait()
	if w := do(allowed, http.MethodGet, secret.URL+"/", "192.0.2.7:40000"); w.Code != 200 {
		t.Errorf("--allow-loopback-targets: %d, want the service", w.Code)
	}
	refused := 0
	for _, f := range p.Flows() {
		if strings.Contains(f.Err, "this machine's loopback") {
			refused++
		}
	}
	if refused != 8 {
		t.Errorf("%d refusals listed, want 8", refused)
	}
}
