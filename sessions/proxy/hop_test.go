package proxy

import (
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestTETrailersKept (item 21): "TE: trailers" reaches the upstream (gRPC
// needs it end to end; httputil.ReverseProxy keeps it), over HTTP/1.1 and
// HTTP/2, as the one TE value passed on; the trailers come back.
func TestTETrailersKept(t *testing.T) {
	var te []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		te = r.Header.Values("Te")
		w.Header().Set("Trailer", "Grpc-Status")
		w.Header().Set("Content-Type", "application/grpc")
		io.WriteString(w, "msg")
		w.Header().Set("Grpc-Status", "0")
	})
	plain := httptest.NewServer(h)
	defer plain.Close()
	h2 := httptest.NewUnstartedServer(h)
	h2.EnableHTTP2 = true
	h2.StartTLS()
	defer h2.Close()
	tr := DefaultTransport()
	tr.TLSClientConfig.RootCAs = x509.NewCertPool()
	tr.TLSClientConfig.RootCAs.AddCert(h2.Certificate())

	for _, up := range []string{plain.URL, h2.URL} {
		u, _ := url.Parse(up)
		_, px := startProxy(t, Options{Upstream: u, Transport: tr})
		for sent, want := range map[string]string{
			"trailers":             "trailers",
			"gzip, trailers;q=0.5": "trailers",
			"deflate":              "",
		} {
			te = nil
			req, _ := http.NewRequest("POST", px.URL+"/pkg.Service/Call", strings.NewReader("x"))
			req.Header.Set("TE", sent)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if got := strings.Join(te, ","); got != want {
				t.Errorf("%s, TE %q: the upstream got %q, want %q", up[:5], sent, got, want)
			}
			if resp.StatusCode != 200 || resp.Trailer.Get("Grpc-Status") != "0" {
				t.Errorf("%s, TE %q: %d, trailers %v", up[:5], sent, resp.StatusCode, resp.Trailer)
			}
		}
	}
}
