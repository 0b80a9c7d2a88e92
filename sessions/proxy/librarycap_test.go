package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"framescope/sessions/library"
)

// TestLibraryCapSpaced: the library's size cap is not enforced (a scan of
// the whole library) at the end of every stream, only every capEvery;
// Wait enforces it once more, so the library ends within its cap.
func TestLibraryCapSpaced(t *testing.T) {
	body := realStream(t)
	up := sseUpstream(t, body, nil)
	u, _ := url.Parse(up.URL)
	t.Setenv(library.LibraryMaxEnv, "1") // every session over the cap
	lib := &library.Library{Dir: t.TempDir()}
	p := New(Options{Upstream: u, Library: lib})
	srv := httpServer(t, p)
	for i := range 3 {
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		waitDone(t, p, i+1)
	}
	if ms, _ := lib.List(); len(ms) < 2 {
		t.Fatalf("the cap was enforced after every stream: %d sessions left", len(ms))
	}
	srv.Close()
	p.Wait()
	if ms, _ := lib.List(); len(ms) > 1 {
		t.Fatalf("after Wait the library must be within its cap (the last session kept at most): %d sessions", len(ms))
	}
}

// httpServer serves h on loopback until the test ends.
func httpServer(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
