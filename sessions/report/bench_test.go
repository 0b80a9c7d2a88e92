package report

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	sse "github.com/tmaxmax/go-sse"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
)

// Pipeline throughput benchmarks over one large generated capture:
//
//	go test ./sessions/ -run '^$' -bench 'CheckPipeline|BaselineGoSSE' -benchtime 3x
//
// FRAMESCOPE_BENCH_MB sets the capture size (default 100). The capture is
// generated the first time a benchmark asks for it and shared by every
// benchmark of the process; plain `go test` never generates it.

// benchCapture is the process-wide benchmark capture. It lives in a
// directory of its own, removed by TestMain: a b.TempDir is removed at the
// end of each round of the benchmark that made it (the probe run with
// b.N = 1 included), so it could not be shared between benchmarks.
var benchCapture struct {
	once  sync.Once
	dir   string
	path  string
	stats sessiontest.GenStats
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchCapture.dir != "" {
		os.RemoveAll(benchCapture.dir)
	}
	os.Exit(code)
}

// benchMB is the size of the benchmark capture in MB (FRAMESCOPE_BENCH_MB).
func benchMB(tb testing.TB) int64 {
	s := os.Getenv("FRAMESCOPE_BENCH_MB")
	if s == "" {
		return 100
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		tb.Fatalf("FRAMESCOPE_BENCH_MB=%q: want a positive whole number of MB", s)
	}
	return n
}

// sharedCapture returns the benchmark capture, generating it on first use.
func sharedCapture(b *testing.B) (string, sessiontest.GenStats) {
	b.Helper()
	size := benchMB(b) << 20
	benchCapture.once.Do(func() {
		dir, err := os.MkdirTemp("", "framescope-bench-")
		if err != nil {
			benchCapture.err = err
			return
		}
		benchCapture.dir = dir
		benchCapture.path = filepath.Join(dir, "capture.sse")
		start := time.Now()
		benchCapture.stats, benchCapture.err = sessiontest.WriteCaptureFile(benchCapture.path, size, sessiontest.BenchSeed)
		st := benchCapture.stats
		b.Logf("generated %s: %.1f MB, %d frames, %d turns, mean typed frame %.0f B, in %s",
			benchCapture.path, float64(st.Bytes)/1e6, st.Frames, st.Turns, st.AvgFrame(), time.Since(start).Round(time.Millisecond))
	})
	if benchCapture.err != nil {
		b.Fatalf("generating the benchmark capture: %v", benchCapture.err)
	}
	return benchCapture.path, benchCapture.stats
}

func reportFrames(b *testing.B, framesPerOp int) {
	if s := b.Elapsed().Seconds(); s > 0 && b.N > 0 {
		b.ReportMetric(float64(framesPerOp)*float64(b.N)/s, "frames/s")
	}
}

// BenchmarkCheckPipeline is `framescope check` minus the report: open
// (sniff) + read → SSE framer → frame decode → invariant checker.
func BenchmarkCheckPipeline(b *testing.B) {
	path, st := sharedCapture(b)
	b.SetBytes(st.Bytes)
	b.ReportAllocs()
	for b.Loop() {
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			b.Fatal(err)
		}
		res, err := pipeline.Run(c, invariants.Options{}, pipeline.Handler{})
		c.Close()
		if err != nil {
			b.Fatal(err)
		}
		if res.Frames != st.Frames || res.Bytes != st.Bytes || res.Counts.Error != 0 || res.Counts.Warn != 0 {
			b.Fatalf("frames %d (want %d), bytes %d (want %d), counts %+v",
				res.Frames, st.Frames, res.Bytes, st.Bytes, res.Counts)
		}
	}
	reportFrames(b, st.Frames)
}

// benchEnvelope is what a hand-written consumer would decode from every
// frame.
type benchEnvelope struct {
	EventType  string `json:"event_type"`
	Version    string `json:"version"`
	Timestamp  string `json:"timestamp"`
	ResponseID string `json:"response_id"`
}

// BenchmarkBaselineGoSSE is the baseline a user would write instead:
// github.com/tmaxmax/go-sse's sse.Read over the file and an encoding/json
// Unmarshal of each event's data into the envelope ([DONE] skipped).
func BenchmarkBaselineGoSSE(b *testing.B) {
	path, st := sharedCapture(b)
	b.SetBytes(st.Bytes)
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		frames, typed := 0, 0
		for ev, err := range sse.Read(f, nil) {
			if err != nil {
				f.Close()
				b.Fatal(err)
			}
			frames++
			if ev.Data == "[DONE]" {
				continue
			}
			var env benchEnvelope
			if err := json.Unmarshal([]byte(ev.Data), &env); err != nil {
				f.Close()
				b.Fatalf("event %d: %v", frames, err)
			}
			if env.EventType != "" {
				typed++
			}
		}
		f.Close()
		if frames != st.Frames || typed != st.Frames-st.Turns {
			b.Fatalf("%d events (%d typed), want %d (%d)", frames, typed, st.Frames, st.Frames-st.Turns)
		}
	}
	reportFrames(b, st.Frames)
}

// TestCheckStreamsBoundedMemory checks a 300 MB capture with Check
// while sampling the heap every 10 ms: the pipeline streams, so the peak
// heap must stay far below the capture's size. Slow (it writes 300 MB), so
// it runs only with FRAMESCOPE_MEMTEST=1:
//
//	FRAMESCOPE_MEMTEST=1 go test ./sessions/report/ -run TestCheckStreamsBoundedMemory -v
func TestCheckStreamsBoundedMemory(t *testing.T) {
	if os.Getenv("FRAMESCOPE_MEMTEST") != "1" {
		t.Skip("set FRAMESCOPE_MEMTEST=1 to run (generates a 300 MB capture)")
	}
	const size = 300 << 20
	const limit = 100 << 20
	path := filepath.Join(t.TempDir(), "big.sse")
	start := time.Now()
	st, err := sessiontest.WriteCaptureFile(path, size, sessiontest.BenchSeed)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %.1f MB, %d frames, %d turns in %s", float64(st.Bytes)/1e6, st.Frames, st.Turns, time.Since(start).Round(time.Millisecond))

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)

	var (
		peakInuse, peakSys, peakAlloc uint64
		samples                       int
		stop                          = make(chan struct{})
		done                          = make(chan struct{})
	)
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peakInuse = max(peakInuse, ms.HeapInuse)
		peakSys = max(peakSys, ms.Sys)
		peakAlloc = max(peakAlloc, ms.HeapAlloc)
		samples++
	}
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				sample()
				return
			case <-tick.C:
				sample()
			}
		}
	}()

	start = time.Now()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		close(stop)
		<-done
		t.Fatal(err)
	}
	rep, err := Check(c, invariants.Options{})
	c.Close()
	elapsed := time.Since(start)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}

	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	mb := func(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
	t.Logf("checked %d frames in %s (%.0f MB/s); %d alarms kept (counts %+v)",
		rep.Frames, elapsed.Round(time.Millisecond), float64(st.Bytes)/1e6/elapsed.Seconds(), len(rep.Alarms), rep.Counts)
	t.Logf("peak over %d samples: HeapInuse %s, HeapAlloc %s, Sys %s (before the check: HeapInuse %s, Sys %s); allocated %s in total, %d GCs",
		samples, mb(peakInuse), mb(peakAlloc), mb(peakSys), mb(base.HeapInuse), mb(base.Sys),
		mb(end.TotalAlloc-base.TotalAlloc), end.NumGC-base.NumGC)

	if rep.Frames != st.Frames || rep.Counts.Error != 0 || rep.Counts.Warn != 0 {
		t.Errorf("frames %d (want %d), counts %+v", rep.Frames, st.Frames, rep.Counts)
	}
	if peakInuse >= limit {
		t.Errorf("peak HeapInuse %s, want < %s", mb(peakInuse), mb(limit))
	}
}

// TestGeneratedCaptureIsClean: a generated capture passes the whole check
// pipeline with no error and no warning, and the pipeline sees exactly the
// frames and turns the generator wrote.
func TestGeneratedCaptureIsClean(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.sse")
	st, err := sessiontest.WriteCaptureFile(path, 2<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes, %d frames, %d turns, %d keepalives; typed frames %d–%d bytes (mean %.0f)",
		st.Bytes, st.Frames, st.Turns, st.Keepalives, st.MinFrame, st.MaxFrame, st.AvgFrame())

	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if k := c.Meta().Kind; k != sessions.KindSSE {
		t.Fatalf("sniffed as %s, want sse", k)
	}
	rep, err := Check(c, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.Error != 0 || rep.Counts.Warn != 0 {
		shown := 0
		for _, a := range rep.Alarms {
			if a.Severity != invariants.SevInfo && shown < 10 {
				t.Errorf("frame %d: %s %s: %s", a.Frame, a.Severity, a.Rule, a.Message)
				shown++
			}
		}
		t.Fatalf("counts %+v, want no error and no warn", rep.Counts)
	}
	// The only notable fact is that v0.4 clients ignore status frames; an
	// sse-event-missing info would mean a frame lacks its event: line.
	for _, a := range rep.Alarms {
		if a.Rule != "client-divergence" {
			t.Errorf("unexpected info alarm at frame %d: %s: %s", a.Frame, a.Rule, a.Message)
		}
	}
	if rep.Frames != st.Frames {
		t.Errorf("pipeline saw %d frames, generator wrote %d", rep.Frames, st.Frames)
	}
	if len(rep.Turns) != st.Turns {
		t.Errorf("pipeline saw %d turns, generator wrote %d", len(rep.Turns), st.Turns)
	}
	for i, tr := range rep.Turns {
		if tr.Terminal.String() != "completed" || !tr.Done {
			t.Errorf("turn %d: terminal %q done %v", i, tr.Terminal, tr.Done)
			break
		}
	}
	if rep.End.Kind != invariants.EndEOF {
		t.Errorf("end %+v", rep.End)
	}
	if fi, err := os.Stat(path); err != nil {
		t.Error(err)
	} else if fi.Size() != st.Bytes {
		t.Errorf("file size %d, generator counted %d", fi.Size(), st.Bytes)
	}
	if st.Bytes < 2<<20 || st.Bytes > 2<<20+64<<10 {
		t.Errorf("asked for %d bytes, got %d", 2<<20, st.Bytes)
	}

	// Deterministic: the same seed gives the same bytes, another seed not.
	sum := func(seed uint64) [32]byte {
		h := sha256.New()
		if _, err := sessiontest.WriteCapture(h, 256<<10, seed); err != nil {
			t.Fatal(err)
		}
		return [32]byte(h.Sum(nil))
	}
	if a, b := sum(7), sum(7); a != b {
		t.Error("same seed, different bytes")
	}
	if sum(7) == sum(8) {
		t.Error("different seeds, same bytes")
	}
}
