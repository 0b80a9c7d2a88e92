package live

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// lvNotes joins the notes a drained capture gave.
func lvNotes(d lvDrained) string {
	var b strings.Builder
	for _, p := range d.probs {
		if p.Note {
			b.WriteString(p.Message + "\n")
		}
	}
	return b.String()
}

// TestRedirectNotFollowedByDefault: without -L the 3xx is the response —
// its status, its Location (query secret redacted), a note saying why —
// and nothing reaches the target.
func TestRedirectNotFollowedByDefault(t *testing.T) {
	lvNoLeak(t)
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "/stream?token=SECRET1&x=1")
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	srv := lvServer(t, mux.ServeHTTP)
	l := lvConnect(t, ConnectOptions{URL: srv.URL + "/start"})
	ri := l.Response()
	if ri.Status != http.StatusFound || ri.URL != srv.URL+"/start" || ri.RequestedURL != "" {
		t.Errorf("response %d from %q (requested %q)", ri.Status, ri.URL, ri.RequestedURL)
	}
	if loc := ri.Headers.Get("Location"); loc != "/stream?token=[redacted]&x=1" {
		t.Errorf("Location %q", loc)
	}
	d := lvDrain(t, l)
	if hits.Load() != 0 {
		t.Errorf("the redirect was followed (%d requests to its target)", hits.Load())
	}
	if n := lvNotes(d); !strings.Contains(n, "redirected (302)") || !strings.Contains(n, "-L") || strings.Contains(n, "SECRET1") {
		t.Errorf("notes: %q", n)
	}
	if l.Meta().Status != http.StatusFound {
		t.Errorf("Meta status %d (http-status must see the 3xx)", l.Meta().Status)
	}
}

// TestRedirectCrossOrigin: with -L, a same-origin hop keeps the user's
// headers (but gets no Referer); from the first hop to another origin on,
// only framescope's own headers go, and never a Referer holding the
// previous URL's query secret. The final URL is shown, redacted.
func TestRedirectCrossOrigin(t *testing.T) {
	lvNoLeak(t)
	var mu sync.Mutex
	got := map[string]http.Header{}
	bodies := map[string]string{}
	keep := func(name string, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[name], bodies[name] = r.Header.Clone(), string(b)
		mu.Unlock()
	}
	other := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		keep("other", r)
		lvScript(lvPieces(lvTurn(1))...)(w, r)
	})
	mux := http.NewServeMux()
	mux.HandleFunc("/hop1", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop2?key=SECRET2", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/hop2", func(w http.ResponseWriter, r *http.Request) {
		keep("hop2", r)
		http.Redirect(w, r, other.URL+"/final?sig=SECRET3", http.StatusTemporaryRedirect)
	})
	first := lvServer(t, mux.ServeHTTP)

	secrets := []string{"Authorization: Bearer SECRET4", "Cookie: sid=SECRET5", "X-Api-Key: SECRET6", "X-Auth-Token: SECRET7", "X-Custom: mine"}
	l := lvConnect(t, ConnectOptions{URL: first.URL + "/hop1", Body: []byte(`{"m":1}`), Headers: secrets, FollowRedirects: true})
	d := lvDrain(t, l)
	mu.Lock()
	defer mu.Unlock()
	hop2, fin := got["hop2"], got["other"]
	if hop2 == nil || fin == nil {
		t.Fatalf("hops reached: %v", got)
	}
	if hop2.Get("X-Custom") != "mine" || hop2.Get("Authorization") == "" || hop2.Get("Referer") != "" {
		t.Errorf("same-origin hop: headers %v", hop2)
	}
	for _, h := range []string{"Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "X-Custom", "Referer"} {
		if v := fin.Get(h); v != "" {
			t.Errorf("the other origin got %s: %s", h, v)
		}
	}
	if fin.Get("Accept") != "text/event-stream" || fin.Get("Content-Type") != "application/json" || bodies["other"] != `{"m":1}` {
		t.Errorf("the other origin got headers %v, body %q (want framescope's defaults and the 307's body)", fin, bodies["other"])
	}
	want := other.URL + "/final?sig=[redacted]"
	if m := l.Meta(); m.URL != want || m.RequestHeaders["Authorization"] != "" || m.RequestHeaders["X-Custom"] != "" {
		t.Errorf("Meta URL %q, request headers %v (want the last hop's)", m.URL, m.RequestHeaders)
	}
	if ri := l.Response(); ri.URL != want || ri.RequestedURL != first.URL+"/hop1" || ri.Method != "POST" {
		t.Errorf("response URL %q, requested %q, method %s", ri.URL, ri.RequestedURL, ri.Method)
	}
	if n := lvNotes(d); !strings.Contains(n, "followed 2 redirects") || !strings.Contains(n, want) || !strings.Contains(n, "not sent") {
		t.Errorf("notes: %q", n)
	}
}

// TestRedirectHTTPSToHTTP: with -L, a redirect from https to http is not
// followed (the credentials would go in cleartext): the 3xx is the
// response, with a note, and the http server sees nothing.
func TestRedirectHTTPSToHTTP(t *testing.T) {
	lvNoLeak(t)
	var hits atomic.Int32
	plain := lvServer(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/stream", http.StatusFound)
	}))
	tlsSrv.Config.ErrorLog = lvQuietLog()
	t.Cleanup(tlsSrv.Close)
	l := lvConnect(t, ConnectOptions{URL: tlsSrv.URL + "/start", Insecure: true, FollowRedirects: true,
		Headers: []string{"Authorization: Bearer SECRET"}})
	d := lvDrain(t, l)
	if hits.Load() != 0 {
		t.Errorf("https → http was followed")
	}
	if ri := l.Response(); ri.Status != http.StatusFound || ri.Headers.Get("Location") != plain.URL+"/stream" {
		t.Errorf("response %d, Location %q", ri.Status, ri.Headers.Get("Location"))
	}
	if n := lvNotes(d); !strings.Contains(n, "cleartext") {
		t.Errorf("notes: %q", n)
	}
}
