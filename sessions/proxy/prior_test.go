package proxy

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPriorKnowledgeHTTP2Refused (item 13): the HTTP/2 connection preface
// is answered 505, in either mode, and never reaches the upstream (it was
// forwarded as a request).
func TestPriorKnowledgeHTTP2Refused(t *testing.T) {
	up, hits := countingUpstream(t)
	u, _ := url.Parse(up.URL)
	_, rev := startProxy(t, Options{Upstream: u})
	_, fwd := startProxy(t, Options{})
	for _, px := range []string{rev.URL, fwd.URL} {
		st, body := rawRequest(t, strings.TrimPrefix(px, "http://"), "PRI * HTTP/2.0\r\n", "SM\r\n\r\n")
		if st != http.StatusHTTPVersionNotSupported || !strings.Contains(body, "HTTP/1.1") {
			t.Errorf("%s: %d %q, want 505", px, st, body)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the upstream got %d prefaces", n)
	}
}
