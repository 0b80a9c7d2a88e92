package ui

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"framescope/sessions/proxy"
	"framescope/ui/store"
)

// sampleDetails are the proxy's details of sampleFlows: the 404 a JSON
// POST got (with a hostile header and body), and the blind tunnel.
func sampleDetails() map[int64]proxy.FlowDetail {
	fs := sampleFlows()
	d404 := proxy.FlowDetail{Flow: fs[2],
		RequestHeaders: map[string]string{"Host": "127.0.0.1:7070", "Content-Type": "application/json", "Authorization": "[redacted]",
			"X-Evil": "a\x1b]0;pwned\x07b"},
		RequestBody: []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"api_key":"[redacted]"}`),
		RequestSize: 80,
		ResponseHeaders: map[string]string{"Content-Type": "application/json", "Content-Length": "74",
			"Date": "Fri, 15 May 2026 17:59:52 GMT"},
	}
	d404.Method, d404.ContentType = "POST", "application/json"
	d404.Body = []byte(`{"error":{"message":"no route \u001b[2J /nope","code":404}}`)
	d404.Bytes = int64(len(d404.Body))
	return map[int64]proxy.FlowDetail{3: d404, 4: {Flow: fs[3]}}
}

func exchangeApp(w, h int, dark bool) *FlowsApp {
	a := NewFlowsApp(FlowsOptions{Listen: "127.0.0.1:7071", Target: "http://127.0.0.1:7070", Hint: "point the app's base URL at http://127.0.0.1:7071",
		Detail: func(id int64) (proxy.FlowDetail, bool) { d, ok := sampleDetails()[id]; return d, ok }},
		Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	a.Update(flowsMsg(sampleFlows()))
	return a
}

// selectFlow puts the list's cursor on flow id.
func selectFlow(a *FlowsApp, id int64) {
	a.Update(keyMsg("g"))
	for f, _ := a.List().Selected(); f.ID != id; f, _ = a.List().Selected() {
		a.Update(keyMsg("j"))
	}
}

// TestGoldenFlowExchange pins a flow's request/response screen: the 404
// a JSON POST got (its hostile header and body sanitized), and a blind
// tunnel (update with go test ./ui -run GoldenFlowExchange -update).
func TestGoldenFlowExchange(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   int64
		w, h int
		dark bool
	}{{"404-100x30-dark", 3, 100, 30, true}, {"404-60x30-light", 3, 60, 30, false}, {"tunnel-100x12-dark", 4, 100, 12, true}} {
		t.Run(tc.name, func(t *testing.T) {
			a := exchangeApp(tc.w, tc.h, tc.dark)
			selectFlow(a, tc.id)
			a.Update(keyMsg("enter"))
			if a.Exchange() == nil {
				t.Fatal("enter did not open the flow")
			}
			v := a.Render()
			checkBlock(t, v)
			if strings.ContainsAny(ansi.Strip(v), "\x1b\x07") {
				t.Error("an escape sequence from the network reached the screen")
			}
			pane := a.Exchange().View()
			checkBlock(t, pane)
			t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled(t, v)) })
			t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(v)) })
		})
	}
}

// TestFlowExchangeOpensAndCloses: enter on a flow that is no stream (the
// 404, the tunnel) opens its request/response; esc and q go back to the
// list, whose cursor is where it was; a stream no longer kept opens its
// exchange too, with a notice naming its saved session; d opens any
// flow's; q on the list still quits.
func TestFlowExchangeOpensAndCloses(t *testing.T) {
	a := exchangeApp(100, 30, true)
	selectFlow(a, 3)
	a.Update(keyMsg("enter"))
	if e := a.Exchange(); e == nil || !strings.Contains(ansi.Strip(a.Render()), "response body (") {
		t.Fatalf("the 404 did not open:\n%s", ansi.Strip(a.Render()))
	}
	if _, open := a.Inspecting(); open {
		t.Fatal("the inspector opened on a non-stream flow")
	}
	a.Update(keyMsg("esc"))
	if a.Exchange() != nil || !strings.Contains(ansi.Strip(a.Render()), "HOST/PATH") {
		t.Fatal("esc did not go back to the list")
	}
	if f, _ := a.List().Selected(); f.ID != 3 {
		t.Fatalf("the cursor moved to flow %d", f.ID)
	}
	a.Update(keyMsg("j"))
	a.Update(keyMsg("enter")) // the tunnel
	if e := a.Exchange(); e == nil || !strings.Contains(ansi.Strip(a.Render()), "passed on blind") {
		t.Fatal("the tunnel did not open")
	}
	if _, cmd := a.Update(keyMsg("q")); cmd != nil || a.Exchange() != nil {
		t.Fatal("q in the exchange must go back to the list, not quit")
	}
	selectFlow(a, 2) // a stream whose frames are no longer kept
	a.Update(keyMsg("enter"))
	if a.Exchange() == nil || !strings.Contains(a.notice, "no longer kept") {
		t.Fatalf("exchange %v notice %q", a.Exchange() != nil, a.notice)
	}
	a.Update(keyMsg("esc"))
	selectFlow(a, 1)
	a.Update(keyMsg("d"))
	if a.Exchange() == nil {
		t.Fatal("d did not open the flow's request/response")
	}
	a.Update(keyMsg("esc"))
	if _, cmd := a.Update(keyMsg("q")); cmd == nil {
		t.Error("q on the list does not quit")
	}
}

// TestFlowExchangeScrollAndCopy: the pane scrolls within its content and
// copies the response body (sanitized or raw).
func TestFlowExchangeScrollAndCopy(t *testing.T) {
	d := sampleDetails()[3]
	d.Body = bytes.Repeat([]byte("line\n"), 100)
	p := newFlowExchange(NewStyles(true, false), d, true)
	p.SetSize(80, 10)
	p.Update(keyMsg("G"))
	if p.top != len(p.shown)-10 || p.top <= 0 {
		t.Fatalf("G: top %d of %d lines", p.top, len(p.shown))
	}
	p.Update(keyMsg("g"))
	p.Update(keyMsg("j"))
	if p.top != 1 {
		t.Fatalf("j: top %d", p.top)
	}
	if _, cmd := p.Update(keyMsg("y")); cmd == nil || !strings.Contains(p.Notice(), "copied the response body (500 B, sanitized)") {
		t.Fatalf("y: notice %q", p.Notice())
	}
	d.Body = nil
	p = newFlowExchange(NewStyles(true, false), d, true)
	if _, cmd := p.Update(keyMsg("Y")); cmd != nil || !strings.Contains(p.Notice(), "no response body") {
		t.Fatalf("Y on no body: %q", p.Notice())
	}
}

// TestFlowBodyBinary: a binary body shows its size and first bytes in
// hex, never its bytes as text.
func TestFlowBodyBinary(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0xff, 0x00}, 300)...)
	lines := flowBodyLines("response body", png, false, int64(len(png)), NewStyles(true, false))
	text := ""
	for _, l := range lines {
		text += l.plain + "\n"
	}
	if !strings.Contains(text, "binary: the first 256 bytes in hex") || !strings.Contains(text, "0000  89 50 4e 47") || len(lines) != 17 {
		t.Fatalf("binary body:\n%s", text)
	}
	if binaryBody([]byte("héllo wörld")) || binaryBody([]byte("ok \xe2\x82")) { // a character cut at the end is text
		t.Fatal("text taken for binary")
	}
}

// TestE2EFlowsOpenNonStream drives the real program over a real proxy:
// a JSON POST answered 404 appears in the list, enter opens its request
// and response (headers and bodies, the request's secret redacted), esc
// goes back to the list while the proxy keeps running.
func TestE2EFlowsOpenNonStream(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"no route","path":"/nope"}`))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p := proxy.New(proxy.Options{Upstream: u})
	px := httptest.NewServer(p)
	defer px.Close()
	streams := store.NewFlowStreams(0, time.Millisecond)
	a := NewFlowsApp(FlowsOptions{Listen: px.Listener.Addr().String(), Streams: streams, Detail: p.Detail}, darkCfg())
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 40))
	a.send = tm.Send
	sub := p.Subscribe()
	defer sub.Close()
	go feedFlows(t.Context(), sub, streams, tm.Send, time.Millisecond)

	resp, err := http.Post(px.URL+"/nope", "application/json", strings.NewReader(`{"model":"m","api_key":"sk-live-secret"}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	wait := func(s ...string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			for _, x := range s {
				if !bytes.Contains(b, []byte(x)) {
					return false
				}
			}
			return true
		}, teatest.WithDuration(e2eTimeout))
	}
	wait("/nope", "404")
	tm.Send(keyMsg("enter"))
	wait("response body (", "no route", "request headers:", `"model": "m"`)
	tm.Send(keyMsg("esc"))
	wait("HOST/PATH")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fa := tm.FinalModel(t, teatest.WithFinalTimeout(e2eTimeout)).(*FlowsApp)
	if fa.Exchange() != nil {
		t.Fatal("esc left the exchange open")
	}
	d, _ := p.Detail(1)
	if strings.Contains(string(d.RequestBody), "sk-live-secret") {
		t.Fatal("the request's secret reached the screen's data")
	}
}

// TestFlowBodyLabel: a body's label says its size as it passed (a
// redacted body's length differs) and how much the proxy kept; the
// body's own last newline adds no blank line.
func TestFlowBodyLabel(t *testing.T) {
	sty := NewStyles(true, false)
	lines := flowBodyLines("response body", []byte("not found\n"), false, 10, sty)
	if len(lines) != 2 || lines[0].plain != "response body (10 B):" {
		t.Fatalf("%+v", lines)
	}
	lines = flowBodyLines("request body", []byte(`{"password":"[redacted]"}`), true, 200000, sty)
	if !strings.HasPrefix(lines[0].plain, "request body (195.3 KiB, the first 25 B kept)") {
		t.Fatalf("%q", lines[0].plain)
	}
}
