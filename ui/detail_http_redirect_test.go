package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/sessions/live"
	"framescope/ui/source"
)

// httpTab runs a live session against srv and returns the HTTP tab, plain.
func httpTab(t *testing.T, c live.ConnectOptions) string {
	t.Helper()
	dark := true
	m := NewModel("live", true, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, msg := range feedAll(t, source.Live("live", live.LiveOptions{Connect: c}, &source.LiveOutcome{})) {
		m.Update(msg)
	}
	if m.detail.tab != TabHTTP {
		t.Fatalf("detail tab %d, want the HTTP tab", m.detail.tab)
	}
	return ansi.Strip(m.detail.View())
}

// TestHTTPTabRedirects: the HTTP tab shows the request that was answered —
// the final URL and method after -L (a 303 turns the POST into a GET) —
// and, without -L, the 3xx with its Location; query secrets are masked in
// the URL, the headers and the page.
func TestHTTPTabRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/chat", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/err?token=SECRET1", http.StatusSeeOther)
	})
	mux.HandleFunc("/err", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte(`<a href="/retry?sig=SECRET2">retry</a>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	v := httpTab(t, live.ConnectOptions{URL: srv.URL + "/api/chat", Body: []byte(`{"m":1}`), FollowRedirects: true})
	for _, want := range []string{"GET " + srv.URL + "/err?token=[redacted]", "502 Bad Gateway", `/retry?sig=[redacted]`} {
		if !strings.Contains(v, want) {
			t.Errorf("-L: HTTP tab lacks %q:\n%s", want, v)
		}
	}
	v2 := httpTab(t, live.ConnectOptions{URL: srv.URL + "/api/chat", Body: []byte(`{"m":1}`)})
	for _, want := range []string{"POST " + srv.URL + "/api/chat", "303 See Other", "Location: /err?token=[redacted]"} {
		if !strings.Contains(v2, want) {
			t.Errorf("no -L: HTTP tab lacks %q:\n%s", want, v2)
		}
	}
	if strings.Contains(v+v2, "SECRET") {
		t.Errorf("a query secret is shown:\n%s\n%s", v, v2)
	}
}
