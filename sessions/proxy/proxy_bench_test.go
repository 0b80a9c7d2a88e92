package proxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/sessions/library"
)

// The benchmarks of docs/proxy.md (issue 21's targets), side by side in
// one run:
//
//	go test ./sessions/proxy/ -run '^$' -bench 'Throughput|Latency|Memory' -benchtime 3x -count 5
//
// Throughput: one large stream through framescope's proxy (checking on,
// and checking + recording) beside httputil.ReverseProxy with
// FlushInterval -1 (what a Go user would write) and a direct connection:
// MB/s as the app saw it, check-done-MB/s until the check and the
// recording finished too, %unchecked (bytes the checker missed: 0 since
// the spill), %spilled, and CPU per MB.
// Latency: 5 and 50 streams at 1,000 events/s each, the time from the
// upstream writing an event to the client reading it (p50, p99), direct
// and through the proxy, and the CPU per event of the whole process.
// Memory: 100 concurrent streams, the heap in use after them. The RSS of
// 100 streams over minutes is TestProxySoak (soak_test.go).

// benchEvents is one valid openai-chat turn of about size bytes: the
// deepseek-text recording's first frame, its content deltas repeated
// (one long answer), then its finish frame and [DONE].
func benchEvents(b *testing.B, size int) []byte {
	raw, err := os.ReadFile("../../testdata/real/openai-chat/deepseek-text.sse")
	if err != nil {
		b.Fatal(err)
	}
	bl := blocks(raw)
	head, deltas, tail := bl[0], bytes.Join(bl[1:len(bl)-2], nil), bytes.Join(bl[len(bl)-2:], nil)
	out := append([]byte(nil), head...)
	for len(out)+len(deltas)+len(tail) < size || len(out) == len(head) {
		out = append(out, deltas...)
	}
	return append(out, tail...)
}

type benchTarget struct {
	name  string
	front func(b *testing.B, upstream string) benchFront
}

// benchFront is a path to the upstream: its URL; settle waits until the
// streams sent so far are checked and recorded (nothing for a path that
// checks nothing); done ends it and says how many bytes the checker
// missed and how many went through a spill.
type benchFront struct {
	url    string
	settle func()
	done   func() (behind, spilled int64)
}

func plainFront(url string, close func()) benchFront {
	return benchFront{url: url, settle: func() {}, done: func() (int64, int64) { close(); return 0, 0 }}
}

func benchTargets() []benchTarget {
	return []benchTarget{
		{"direct", func(b *testing.B, up string) benchFront { return plainFront(up, func() {}) }},
		{"httputil-ReverseProxy", func(b *testing.B, up string) benchFront {
			u, _ := url.Parse(up)
			rp := httputil.NewSingleHostReverseProxy(u)
			rp.FlushInterval = -1
			srv := httptest.NewServer(rp)
			return plainFront(srv.URL, srv.Close)
		}},
		{"framescope-check", func(b *testing.B, up string) benchFront {
			return frontProxy(b, up, nil)
		}},
		{"framescope-check-record", func(b *testing.B, up string) benchFront {
			return frontProxy(b, up, &library.Library{Dir: b.TempDir()})
		}},
	}
}

func frontProxy(b *testing.B, up string, lib *library.Library) benchFront {
	u, _ := url.Parse(up)
	p := New(Options{Upstream: u, Library: lib})
	srv := httptest.NewServer(p)
	return benchFront{url: srv.URL, settle: p.Wait, done: func() (int64, int64) {
		srv.Close()
		p.Wait()
		var behind int64
		for _, f := range p.Flows() {
			behind += f.Behind
		}
		return behind, p.spill.spilled.Load()
	}}
}

// BenchmarkThroughput: one 32 MiB stream. MB/s is what the client read
// (app-observed); check-done-MB/s counts until the stream's check and
// recording finished too (the checker may finish after the app, reading
// back its queue or spill); %unchecked is what the checker missed;
// %spilled what waited in the spill file; cpu-ms/MB the CPU of the whole
// process (upstream, proxy, checker, client) per MB.
func BenchmarkThroughput(b *testing.B) {
	targets := append(benchTargets(), benchTarget{"framescope-not-a-stream", func(b *testing.B, up string) benchFront {
		f := frontProxy(b, up, nil)
		f.url += "/?binary"
		return f
	}})
	benchThroughput(b, 32<<20, targets)
}

// BenchmarkThroughputSpill: one 256 MiB stream, four times what a
// stream may queue in memory (DefaultQueueBytes): the checker falls
// behind by more than that, so most of the stream goes through the
// spill file, beside the Go baseline.
func BenchmarkThroughputSpill(b *testing.B) {
	var targets []benchTarget
	for _, tg := range benchTargets() {
		if tg.name == "httputil-ReverseProxy" || tg.name == "framescope-check" {
			targets = append(targets, tg)
		}
	}
	benchThroughput(b, 4*DefaultQueueBytes, targets)
}

// benchThroughput streams one valid openai-chat turn of size bytes, in
// 64 KiB writes, through each target.
func benchThroughput(b *testing.B, size int, targets []benchTarget) {
	payload := benchEvents(b, size)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.URL.Query().Has("binary") { // not a stream: passed on, not checked
			w.Header().Set("Content-Type", "application/zip")
		}
		for p := payload; len(p) > 0; {
			n := min(len(p), 64<<10)
			w.Write(p[:n])
			p = p[n:]
		}
	}))
	defer up.Close()
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			front := tg.front(b, up.URL)
			client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			b.SetBytes(int64(len(payload)))
			cpu0 := cpuTime()
			var checkDone time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				resp, err := client.Get(front.url)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if n != int64(len(payload)) {
					b.Fatalf("got %d bytes of %d", n, len(payload))
				}
				b.StopTimer() // MB/s: what the app saw
				front.settle()
				checkDone += time.Since(t0)
				b.StartTimer()
			}
			b.StopTimer()
			// CPU time (this process: upstream, proxy, checker, client) per
			// MB: a figure a loaded machine distorts far less than MB/s.
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N)/(float64(len(payload))/1e6), "cpu-ms/MB")
			b.ReportMetric(float64(b.N)*float64(len(payload))/1e6/checkDone.Seconds(), "check-done-MB/s")
			client.CloseIdleConnections()
			behind, spilled := front.done()
			total := float64(int64(b.N) * int64(len(payload)))
			b.ReportMetric(100*float64(behind)/total, "%unchecked")
			b.ReportMetric(100*float64(spilled)/total, "%spilled")
		})
	}
}

// BenchmarkLatency: 5 and 50 concurrent streams, each at 1,000 events/s for
// b.N seconds (1,000 events each); every event carries the time the upstream wrote it, and
// the client notes when it read it. p50 and p99 in ms.
func BenchmarkLatency(b *testing.B) {
	for _, streams := range []int{5, 50} {
		b.Run(fmt.Sprintf("streams=%d", streams), func(b *testing.B) { benchLatency(b, streams) })
	}
}

// benchLatency is BenchmarkLatency with n concurrent streams.
func benchLatency(b *testing.B, streams int) {
	first := blocks(benchEvents(b, 1))[1] // a content delta
	prefix, _, _ := bytes.Cut(first, []byte("\n\n"))
	base := time.Now()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var buf []byte
		for range n {
			<-tick.C
			buf = append(buf[:0], prefix...)
			buf = append(buf, "\n: t="...)
			buf = strconv.AppendInt(buf, int64(time.Since(base)), 10)
			buf = append(buf, "\n\n"...)
			if _, err := w.Write(buf); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	for _, tg := range benchTargets() {
		b.Run(tg.name, func(b *testing.B) {
			front := tg.front(b, up.URL)
			tr := &http.Transport{MaxIdleConnsPerHost: streams, DisableCompression: true}
			client := &http.Client{Transport: tr}
			var mu sync.Mutex
			var lat []time.Duration
			var wg sync.WaitGroup
			cpu0 := cpuTime()
			b.ResetTimer()
			for range streams {
				wg.Add(1)
				go func() {
					defer wg.Done()
					resp, err := client.Get(fmt.Sprintf("%s/?n=%d", front.url, 1000*b.N))
					if err != nil {
						b.Error(err)
						return
					}
					defer resp.Body.Close()
					sc := bufio.NewScanner(resp.Body)
					var mine []time.Duration
					for sc.Scan() {
						if t, ok := strings.CutPrefix(sc.Text(), ": t="); ok {
							sent, _ := strconv.ParseInt(t, 10, 64)
							mine = append(mine, time.Since(base)-time.Duration(sent))
						}
					}
					mu.Lock()
					lat = append(lat, mine...)
					mu.Unlock()
				}()
			}
			wg.Wait()
			front.settle()
			b.StopTimer()
			cpu := cpuTime() - cpu0
			tr.CloseIdleConnections()
			behind, _ := front.done()
			if len(lat) == 0 {
				b.Fatal("no events")
			}
			slices.Sort(lat)
			ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
			b.ReportMetric(ms(0.50), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
			// CPU per event, all parties in this process: what the
			// proxy adds to it is what a loaded machine turns into latency.
			b.ReportMetric(float64(cpu)/1e3/float64(len(lat)), "cpu-µs/event")
			if behind != 0 {
				b.Errorf("the checker missed %d bytes", behind)
			}
		})
	}
}

// BenchmarkMemory100Streams: 100 concurrent streams of b.N × 64 KiB
// through the proxy with checking and recording; the heap in use at the
// end (after GC), against what it was before.
func BenchmarkMemory100Streams(b *testing.B) {
	const streams = 100
	chunk := blocks(benchEvents(b, 1))[1] // content deltas, 64 KiB a write
	for len(chunk) < 64<<10 {
		chunk = append(chunk, blocks(benchEvents(b, 1))[1]...)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "text/event-stream")
		for range n {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	front := frontProxy(b, up.URL, &library.Library{Dir: b.TempDir()})
	tr := &http.Transport{MaxIdleConnsPerHost: streams, DisableCompression: true}
	client := &http.Client{Transport: tr}
	var peak uint64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() { // sample the heap while the streams run
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	b.ResetTimer()
	for range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Get(fmt.Sprintf("%s/?n=%d", front.url, b.N))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(stop)
	tr.CloseIdleConnections()
	front.done()
	b.SetBytes(streams * int64(len(chunk)))
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(before.HeapInuse)/(1<<20), "heap-before-MB")
}
