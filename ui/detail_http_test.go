package ui

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/sessions/live"
	"framescope/ui/source"
)

// TestHTTPErrorPageShown: a live endpoint that answers 500 with an HTML
// page instead of a stream opens the detail on the HTTP tab: the request,
// the status line, the headers (secrets redacted) and the page itself,
// sanitized.
func TestHTTPErrorPageShown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Set-Cookie", "session=s3cr3t")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("<html><body>\x1b]0;pwned\x07Internal Server Error\ntrace id 42</body></html>"))
	}))
	defer srv.Close()
	dark := true
	m := NewModel("live", true, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	opts := live.LiveOptions{Connect: live.ConnectOptions{URL: srv.URL + "/api/chat", Body: []byte(`{"m":1}`)}}
	for _, msg := range feedAll(t, source.Live("live", opts, &source.LiveOutcome{})) {
		m.Update(msg)
	}
	if m.detail.tab != TabHTTP {
		t.Fatalf("detail tab %d, want the HTTP tab", m.detail.tab)
	}
	v := m.detail.View()
	if strings.Contains(v, "\x1b]0") || strings.Contains(v, "\x07") {
		t.Fatalf("the error page reached the view raw: %q", v)
	}
	plain := ansi.Strip(v)
	for _, want := range []string{"POST " + srv.URL + "/api/chat", "HTTP/1.1 500 Internal Server Error", "Content-Type: text/html; charset=utf-8",
		"Set-Cookie: [redacted]", `\x1b]0;pwned\x07Internal Server Error`, "JSON │ Raw │ Alarms", "↓ 11 more lines"} {
		if !strings.Contains(plain, want) {
			t.Errorf("HTTP tab lacks %q:\n%s", want, plain)
		}
	}
	// Below the fold: the rest of the page, then the request.
	m.detail.scrollBy(2)
	if v := ansi.Strip(m.detail.View()); !strings.Contains(v, "trace id 42") || !strings.Contains(v, "↓ 9 more lines") {
		t.Errorf("scrolled by 2:\n%s", v)
	}
	m.detail.scrollBy(20)
	below := ansi.Strip(m.detail.View())
	for _, want := range []string{"request headers:", "Content-Type: application/json", "request body (7 B):", `  "m": 1`} {
		if !strings.Contains(below, want) {
			t.Errorf("HTTP tab scrolled down lacks %q:\n%s", want, below)
		}
	}
	if strings.Contains(below, "more lines") {
		t.Errorf("a scroll hint at the bottom:\n%s", below)
	}
	plain += below
	if strings.Contains(plain, "s3cr3t") {
		t.Errorf("a secret header is shown:\n%s", plain)
	}
	if !strings.Contains(screen(m), "HTTP 500") {
		t.Errorf("header lacks the status:\n%s", screen(m))
	}
}

// TestHTTPTabOnlyWithAnExchange: a raw SSE file has no HTTP exchange, so
// tabbing through the detail skips the HTTP tab; a HAR capture has one.
func TestHTTPTabOnlyWithAnExchange(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.sse"), 160, 48, true)
	press(m, "tab", "t", "t", "t")
	if m.detail.tab != TabJSON || strings.Contains(ansi.Strip(m.detail.View()), "HTTP") {
		t.Errorf("raw SSE: tab %d\n%s", m.detail.tab, ansi.Strip(m.detail.View()))
	}
	m = loadModel(t, filepath.Join("..", "sessions", "testdata", "multi.har"), 160, 48, true)
	press(m, "tab", "T")
	if m.detail.tab != TabHTTP {
		t.Fatalf("HAR: tab %d", m.detail.tab)
	}
	if v := ansi.Strip(m.detail.View()); !strings.Contains(strings.ToLower(v), "content-type: text/event-stream") || !strings.Contains(v, "200 OK") {
		t.Errorf("HAR HTTP tab:\n%s", v)
	}
}
