package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestDetailOfANonStreamFlow: a JSON POST answered by a 404 keeps its
// request (headers, Host, body) and response (headers, body) for the
// flow's detail, secrets redacted as in recordings — or kept with
// --keep-secrets.
func TestDetailOfANonStreamFlow(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session=abc123")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"no such model","access_token":"tok-secret"}`))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	for _, keep := range []bool{false, true} {
		p, px := startProxy(t, Options{Upstream: u, KeepSecrets: keep})
		req, _ := http.NewRequest(http.MethodPost, px.URL+"/v1/models/x", strings.NewReader(`{"model":"x","api_key":"sk-secret"}`))
		req.Header.Set("Authorization", "Bearer sk-auth")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		f := waitDone(t, p, 1)[0]
		d, ok := p.Detail(f.ID)
		if !ok || d.Status != 404 || d.Kind != KindHTTP || d.RequestSize != int64(len(`{"model":"x","api_key":"sk-secret"}`)) {
			t.Fatalf("detail: %+v %v", d, ok)
		}
		if d.RequestHeaders["Host"] != u.Host || d.ResponseHeaders["Content-Type"] != "application/json" {
			t.Fatalf("headers: %v / %v", d.RequestHeaders, d.ResponseHeaders)
		}
		all := string(d.RequestBody) + string(d.Body) + d.RequestHeaders["Authorization"] + d.ResponseHeaders["Set-Cookie"]
		for _, secret := range []string{"sk-secret", "tok-secret", "sk-auth", "abc123"} {
			if strings.Contains(all, secret) != keep {
				t.Fatalf("keep-secrets %v: %q in the detail: %v", keep, secret, !keep)
			}
		}
		if !strings.Contains(string(d.Body), "no such model") || !strings.Contains(string(d.RequestBody), `"model":"x"`) {
			t.Fatalf("bodies: %q %q", d.RequestBody, d.Body)
		}
		if _, ok := p.Detail(f.ID + 100); ok {
			t.Fatal("a flow that never was has a detail")
		}
	}
}

// TestKeptBodiesBounded: past maxKeptBodies for all flows together, the
// oldest finished flows give their bodies up (their detail says so); the
// newest keep theirs.
func TestKeptBodiesBounded(t *testing.T) {
	b := newFlowBook(DefaultMaxFlows)
	body := bytes.Repeat([]byte("x"), DefaultBodyCap)
	n := maxKeptBodies/DefaultBodyCap + 10
	var flows []*liveFlow
	for range n {
		f := &liveFlow{Flow: Flow{Kind: KindHTTP}}
		b.start(f)
		tee := &bodyTee{r: io.NopCloser(bytes.NewReader(body))}
		io.Copy(io.Discard, tee)
		b.setRequest(f, httptest.NewRequest(http.MethodPost, "/", nil), tee)
		b.update(f, func(fl *Flow) { fl.Body, fl.Done = body, true })
		flows = append(flows, f)
	}
	if b.bodies > maxKeptBodies {
		t.Fatalf("%d body bytes kept, over %d", b.bodies, maxKeptBodies)
	}
	if !flows[0].dropped || flows[0].Body != nil || flows[n-1].dropped || len(flows[n-1].reqBody) != DefaultBodyCap {
		t.Fatal("the oldest flows' bodies were not the ones given up")
	}
	p := &Proxy{book: b}
	if d, _ := p.Detail(flows[0].ID); !d.BodiesDropped || d.RequestSize != int64(len(body)) {
		t.Fatalf("dropped flow's detail: %+v", d.BodiesDropped)
	}
}

// TestMaxFlows: the book remembers at most maxFlows flows, forgetting the
// oldest finished ones; a flow still open is never forgotten.
func TestMaxFlows(t *testing.T) {
	b := newFlowBook(3)
	open := &liveFlow{Flow: Flow{Kind: KindHTTP}}
	b.start(open)
	for range 6 {
		f := &liveFlow{Flow: Flow{Kind: KindHTTP}}
		b.start(f)
		b.update(f, func(fl *Flow) { fl.Done = true })
	}
	got := b.list()
	var ids []int64
	for _, f := range got {
		ids = append(ids, f.ID)
	}
	if want := []int64{1, 6, 7}; !slices.Equal(ids, want) {
		t.Fatalf("kept flows %v, want %v (the open one and the newest)", ids, want)
	}
}
