package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// finishFlow runs one flow through the book as forward does: a request
// body of upload bytes streamed through its tee, request and response
// headers with a field of hdr bytes each (fresh strings, as parsed ones
// are), and a response body of 64 KiB in a larger array.
func finishFlow(b *flowBook, upload []byte, hdr int) *liveFlow {
	f := &liveFlow{Flow: Flow{Kind: KindHTTP, URL: "http://127.0.0.1/upload"}}
	b.start(f)
	tee := &bodyTee{r: io.NopCloser(bytes.NewReader(upload))}
	io.CopyBuffer(io.Discard, tee, make([]byte, 32<<10))
	req := httptest.NewRequest(http.MethodPost, "/upload", nil)
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("X-Big", strings.Repeat("q", hdr))
	b.setRequest(f, req, tee)
	resp := http.Header{"Content-Type": {"application/json"}, "X-Big": {strings.Repeat("r", hdr)}}
	b.setResponse(f, resp)
	body := make([]byte, DefaultBodyCap, 2*DefaultBodyCap)
	b.update(f, func(fl *Flow) { fl.Body, fl.Done = body, true })
	return f
}

// TestFinishedFlowsHeapBounded (item 3): what finished flows keep is what
// docs/proxy.md says, measured on the heap: a flow of a 1 MiB upload and
// 900 KB headers each way keeps its first 64 KiB of each body and at most
// 64 KiB of each header set (it kept the whole 1 MiB array behind its
// 64 KiB prefix, and every header), and all flows together at most 64 MiB,
// headers counted (they were not).
func TestFinishedFlowsHeapBounded(t *testing.T) {
	b := newFlowBook(DefaultMaxFlows)
	upload := bytes.Repeat([]byte("u"), 1<<20)
	base := liveHeap()
	const big = 48
	var first *liveFlow
	for i := range big {
		f := finishFlow(b, upload, 900<<10)
		if i == 0 {
			first = f
		}
	}
	perFlow := (liveHeap() - base) / big
	if perFlow > 320<<10 {
		t.Errorf("a finished flow of a 1 MiB upload and 900 KB headers keeps %d KiB, want at most 320 (64 KiB of each body and header set)", perFlow>>10)
	}
	t.Logf("per flow of a 1 MiB upload and 900 KB headers: %d KiB", perFlow>>10)
	p := &Proxy{book: b}
	d, _ := p.Detail(first.ID)
	if !d.HeadersCut || d.RequestHeaders["Content-Type"] == "" || d.RequestHeaders["X-Big"] != "" || len(d.RequestBody) != requestBodyCap || d.RequestSize != 1<<20 {
		t.Errorf("detail of a flow with cut headers: cut %v, headers %d, body %d of %d", d.HeadersCut, len(d.RequestHeaders), len(d.RequestBody), d.RequestSize)
	}

	// Headers that fit each flow's bound count against the bound of all.
	const many = 560
	var last *liveFlow
	for range many {
		last = finishFlow(b, upload[:DefaultBodyCap], 60<<10)
	}
	if b.bodies > maxKeptBodies {
		t.Errorf("%d bytes counted as kept, over %d", b.bodies, maxKeptBodies)
	}
	held := liveHeap() - base
	t.Logf("%d finished flows hold %.1f MiB", big+many, float64(held)/(1<<20))
	if held > maxKeptBodies+12<<20 {
		t.Errorf("%d finished flows hold %.1f MiB, over the 64 MiB bound (and some)", big+many, float64(held)/(1<<20))
	}
	if d, _ := p.Detail(first.ID); !d.BodiesDropped || d.RequestHeaders != nil {
		t.Errorf("the oldest flow kept its headers past the bound: %+v", d.BodiesDropped)
	}
	if d, _ := p.Detail(last.ID); d.BodiesDropped || d.HeadersCut || len(d.ResponseHeaders["X-Big"]) != 60<<10 {
		t.Errorf("the newest flow lost its headers: dropped %v, cut %v", d.BodiesDropped, d.HeadersCut)
	}
	runtime.KeepAlive(b)
}

// BenchmarkFinishedFlowsHeap reports what DefaultMaxFlows finished flows
// hold on the heap (after a collection): 1 MB uploads, and 900 KB
// request headers. docs/security.md (second round, item 3) quotes it:
//
//	go test ./sessions/proxy/ -run '^$' -bench FinishedFlowsHeap -benchtime 1x
func BenchmarkFinishedFlowsHeap(b *testing.B) {
	for _, c := range []struct {
		name        string
		upload, hdr int
	}{{"upload-1MB", 1 << 20, 0}, {"headers-900KB", 0, 900 << 10}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				book := newFlowBook(DefaultMaxFlows)
				upload := bytes.Repeat([]byte("u"), c.upload)
				base := liveHeap()
				for range DefaultMaxFlows {
					f := &liveFlow{Flow: Flow{Kind: KindHTTP, URL: "http://127.0.0.1/upload"}}
					book.start(f)
					tee := &bodyTee{r: io.NopCloser(bytes.NewReader(upload))}
					io.CopyBuffer(io.Discard, tee, make([]byte, 32<<10))
					req := httptest.NewRequest(http.MethodPost, "/upload", nil)
					if c.hdr > 0 {
						req.Header.Set("X-Big", strings.Repeat("q", c.hdr))
					}
					book.setRequest(f, req, tee)
					book.setResponse(f, http.Header{"Content-Type": {"application/json"}})
					book.update(f, func(fl *Flow) { fl.Done = true })
				}
				b.ReportMetric(float64(liveHeap()-base)/1e6, "MB-held")
				runtime.KeepAlive(book)
			}
		})
	}
}
