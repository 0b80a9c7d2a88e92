package ui

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/pipeline"
	"framescope/sessions/proxy"
	"framescope/ui/store"
)

// sampleFlows are a proxy's flows of every kind, one with a hostile URL.
func sampleFlows() []proxy.Flow {
	t0 := fixedNow.Add(-10 * time.Second)
	return []proxy.Flow{
		{ID: 1, Kind: proxy.KindStream, Method: "POST", URL: "http://127.0.0.1:7070/api/chat", Host: "127.0.0.1:7070", Status: 200,
			Started: t0, Duration: 2800 * time.Millisecond, Done: true, Dialect: "pc3", Frames: 15, Counts: invariants.Counts{Info: 1}},
		{ID: 2, Kind: proxy.KindStream, Method: "POST", URL: "https://api.openai.com/v1/chat/completions", Host: "api.openai.com", Status: 200,
			Started: t0.Add(time.Second), Duration: 900 * time.Millisecond, Done: true, Dialect: "openaichat", Frames: 42,
			Counts: invariants.Counts{Error: 2, Warn: 1}, Err: "cancelled"},
		{ID: 3, Kind: proxy.KindHTTP, Method: "GET", URL: "http://127.0.0.1:7070/nope", Host: "127.0.0.1:7070", Status: 404,
			Started: t0.Add(2 * time.Second), Duration: 3 * time.Millisecond, Done: true, Bytes: 74, ContentType: "text/plain"},
		{ID: 4, Kind: proxy.KindTunnel, Method: "CONNECT", URL: "api.example.com:443", Host: "api.example.com:443",
			Started: t0.Add(3 * time.Second), Duration: 4 * time.Second, Done: true, Bytes: 5120},
		{ID: 5, Kind: proxy.KindStream, Method: "POST", URL: "http://evil/\x1b[2J\x1b]0;pwned\x07x", Host: "evil\x1b[31m", Status: 200,
			Started: fixedNow.Add(-1500 * time.Millisecond), Frames: 3},
	}
}

func flowsApp(w, h int, dark bool) *FlowsApp {
	a := NewFlowsApp(FlowsOptions{Listen: "127.0.0.1:7071", Target: "http://127.0.0.1:7070", Hint: "point the app's base URL at http://127.0.0.1:7071"},
		Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	a.Update(flowsMsg(sampleFlows()))
	return a
}

// TestGoldenFlows pins the Flows screen at 80 and 140 columns, dark and
// light (update with go test ./ui -run GoldenFlows -update).
func TestGoldenFlows(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
		dark bool
	}{{"80x12-dark", 80, 12, true}, {"140x12-dark", 140, 12, true}, {"140x12-light", 140, 12, false}} {
		t.Run(tc.name, func(t *testing.T) {
			v := flowsApp(tc.w, tc.h, tc.dark).Render()
			checkBlock(t, v)
			if strings.ContainsAny(ansi.Strip(v), "\x1b\x07") {
				t.Error("an escape sequence from the network reached the screen")
			}
			t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled(t, v)) })
			t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(v)) })
		})
	}
}

// TestFlowsFilter: words, host: and dialect: narrow the list; esc clears.
func TestFlowsFilter(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []int64
	}{
		{"", []int64{1, 2, 3, 4, 5}},
		{"host:openai", []int64{2}},
		{"dialect:pc3", []int64{1}},
		{"POST host:127", []int64{1}},
		{"404", []int64{3}},
		{"connect", []int64{4}},
		{"nothing-like-it", nil},
	} {
		a := flowsApp(100, 12, true)
		a.Update(keyMsg("/"))
		for _, r := range tc.q {
			a.Update(keyMsg(string(r)))
		}
		a.Update(keyMsg("enter"))
		var got []int64
		for _, i := range a.List().shown {
			got = append(got, a.List().all[i].ID)
		}
		if !equalIDs(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
		}
		a.Update(keyMsg("esc"))
		if len(a.List().shown) != 5 {
			t.Errorf("%q: esc left %d shown", tc.q, len(a.List().shown))
		}
	}
}

// TestFlowsOpenWithoutDetail: without the proxy's detail (the flow no
// longer held), enter on a flow that is no stream still opens what the
// list knows of it, and says the rest is gone; esc goes back; q on the
// list quits.
func TestFlowsOpenWithoutDetail(t *testing.T) {
	a := flowsApp(100, 12, true)
	a.Update(keyMsg("g"))
	a.Update(keyMsg("j"))
	a.Update(keyMsg("j")) // flow 3, the 404
	a.Update(keyMsg("enter"))
	if _, open := a.Inspecting(); open || a.Exchange() == nil {
		t.Fatalf("inspector %v, exchange %v", open, a.Exchange() != nil)
	}
	if s := ansi.Strip(a.Render()); !strings.Contains(s, "404 Not Found") || !strings.Contains(s, "no longer holds") {
		t.Errorf("exchange:\n%s", s)
	}
	a.Update(keyMsg("esc"))
	if a.Exchange() != nil {
		t.Error("esc did not go back")
	}
	if _, cmd := a.Update(keyMsg("q")); cmd == nil {
		t.Error("q on the list does not quit")
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestE2EFlowsInspectLive drives the real program over a real proxy: a
// stream appears in the list while it streams, enter opens it (the half
// that had arrived is there), the rest arrives live, esc goes back to the
// list while the proxy keeps running, and the flow opens again whole.
func TestE2EFlowsInspectLive(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(examples, "example-broken.sse"))
	if err != nil {
		t.Fatal(err)
	}
	want := loadModel(t, filepath.Join(examples, "example-broken.sse"), 80, 24, true).Store()
	rest := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		half := bytes.LastIndex(data[:len(data)/2], []byte("\n\n")) + 2
		w.Write(data[:half])
		w.(http.Flusher).Flush()
		select {
		case <-rest:
		case <-r.Context().Done():
			return
		}
		w.Write(data[half:])
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	streams := store.NewFlowStreams(0, time.Millisecond)
	p := proxy.New(proxy.Options{Upstream: u, OnStream: func(f proxy.Flow, meta sessions.Meta) pipeline.Handler {
		return streams.Start(f.ID, meta)
	}})
	px := httptest.NewServer(p)
	defer px.Close()
	var once sync.Once
	release := func() { once.Do(func() { close(rest) }) }
	defer release() // before the servers close: the upstream waits on it

	a := NewFlowsApp(FlowsOptions{Listen: px.Listener.Addr().String(), Streams: streams}, darkCfg())
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(140, 40))
	a.send = tm.Send
	sub := p.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go feedFlows(ctx, sub, streams, tm.Send, time.Millisecond)

	got := make(chan []byte, 1)
	go func() {
		resp, err := http.Post(px.URL+"/api/chat", "application/json", strings.NewReader("{}"))
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- b
	}()
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) }, teatest.WithDuration(e2eTimeout))
	}
	wait("/api/chat")
	// The first half has been checked before the flow is opened.
	deadline := time.Now().Add(e2eTimeout)
	for fs := p.Flows(); len(fs) == 0 || fs[0].Frames == 0; fs = p.Flows() {
		if time.Now().After(deadline) {
			t.Fatal("the first half was never checked")
		}
		time.Sleep(time.Millisecond)
	}
	tm.Send(keyMsg("enter"))
	wait("flow 1 POST")
	release()
	wait("ended: eof")
	if b := <-got; !bytes.Equal(b, data) {
		t.Errorf("the app got %d bytes, want the %d sent", len(b), len(data))
	}
	tm.Send(keyMsg("esc"))
	wait("Flows 1")
	tm.Send(keyMsg("enter"))
	wait("flow 1 POST")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fa := tm.FinalModel(t, teatest.WithFinalTimeout(e2eTimeout)).(*FlowsApp)
	m := fa.Inspector()
	if m == nil {
		t.Fatal("the inspector is not open")
	}
	st := m.Store()
	if st.Len() != want.Len() || st.Frames != want.Frames || st.Counts != want.Counts || st.End == nil || st.End.Kind != "eof" {
		t.Errorf("inspector: %d rows %d frames %+v end %+v; want %d %d %+v", st.Len(), st.Frames, st.Counts, st.End,
			want.Len(), want.Frames, want.Counts)
	}
}
