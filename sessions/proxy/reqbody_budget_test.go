package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestRequestBodiesInFlightBounded (item 4): the tees of requests in
// flight keep each body's first 64 KiB whatever else is in flight, and
// the rest of the first MiB only within the proxy's budget; a finished
// flow gives its share back.
func TestRequestBodiesInFlightBounded(t *testing.T) {
	budget := &bodyBudget{limit: 3 << 20}
	upload := bytes.Repeat([]byte("u"), 1<<20)
	var tees []*bodyTee
	for range 8 {
		tee := &bodyTee{r: io.NopCloser(bytes.NewReader(upload)), budget: budget}
		io.CopyBuffer(io.Discard, tee, make([]byte, 48<<10))
		tees = append(tees, tee)
	}
	var kept int64
	for i, tee := range tees {
		b, size := tee.sent()
		kept += int64(len(b))
		if len(b) < requestBodyCap || size != 1<<20 || !bytes.Equal(b, upload[:len(b)]) {
			t.Fatalf("tee %d kept %d of %d bytes", i, len(b), size)
		}
	}
	if full, _ := tees[0].sent(); len(full) != requestBodyKeep {
		t.Errorf("the first tee kept %d bytes, want the recording's whole %d", len(full), requestBodyKeep)
	}
	if max := int64(8*requestBodyCap) + budget.limit; kept > max || budget.held.Load() > budget.limit {
		t.Errorf("8 tees of 1 MiB keep %d bytes (budget held %d), want at most %d", kept, budget.held.Load(), max)
	}
	for _, tee := range tees {
		tee.release()
	}
	if h := budget.held.Load(); h != 0 {
		t.Errorf("%d bytes still reserved after every tee was released", h)
	}

	// Through the proxy: every finished flow gives its reservation back.
	var wg sync.WaitGroup
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok")
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u})
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(px.URL+"/up", "application/octet-stream", bytes.NewReader(upload))
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	waitDone(t, p, 6)
	if h := p.bodies.held.Load(); h != 0 {
		t.Errorf("%d request-body bytes still reserved after every flow finished", h)
	}
	if d, _ := p.Detail(p.Flows()[0].ID); d.RequestSize != 1<<20 || len(d.RequestBody) != requestBodyCap || !strings.HasPrefix(string(d.RequestBody), "uuu") {
		t.Errorf("a finished upload's detail: %d of %d bytes", len(d.RequestBody), d.RequestSize)
	}
}
