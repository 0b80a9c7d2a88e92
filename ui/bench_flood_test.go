package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/ui/source"
)

// Opening alarm floods in the inspector (issue 11, item 1): a capture in
// which every frame raises an alarm, forced to PC3, must index at a steady
// rate with peak memory bounded by the open state, not by the alarms:
//
//	go test ./ui -run '^$' -bench 'OpenFlood' -benchtime 1x
//
// Metrics: indexed-ms (read, checked, indexed and shown), Mframes/s,
// peak-heap-MB (HeapInuse sampled every 5 ms during the open),
// peak-rss-MB (VmHWM), heap-MB after a GC with the model alive.
// FRAMESCOPE_FLOOD_MB scales the x flood (default 90).

func BenchmarkOpenFlood(b *testing.B) {
	if testing.Short() {
		b.Skip("writes 100 MB of floods: not under -short")
	}
	xMB := 90
	if v := os.Getenv("FRAMESCOPE_FLOOD_MB"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			xMB = n
		}
	}
	for _, fc := range []struct {
		name, frame string
		mb          int
	}{
		{"empty-object-10MB", "data: {}\n\n", 10},
		{"x-" + strconv.Itoa(xMB) + "MB", "data: x\n\n", xMB},
	} {
		b.Run(fc.name, func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "flood.sse")
			size := fc.mb << 20
			body := bytes.Repeat([]byte(fc.frame), size/len(fc.frame))
			if err := os.WriteFile(path, body, 0o600); err != nil {
				b.Fatal(err)
			}
			frames := len(body) / len(fc.frame)
			body = nil
			b.SetBytes(int64(frames * len(fc.frame)))
			var ended time.Duration
			var peakHeap, heap, hwm float64
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				debug.FreeOSMemory()
				resetPeakRSS()
				stop := sampleHeap()
				b.StartTimer()
				m, l := openWith(b, path, invariants.Options{Dialect: "pc3"})
				b.StopTimer()
				ph := stop()
				st := m.Store()
				if st.Frames != frames {
					b.Fatalf("%d frames in the store, %d in the capture", st.Frames, frames)
				}
				if got := st.AlarmTotal(); got < frames {
					b.Fatalf("%d alarms for %d flooding frames", got, frames)
				}
				ended += l.ended
				h, _, p := memMB()
				peakHeap, heap, hwm = max(peakHeap, ph), max(heap, h), max(hwm, p)
				if path := os.Getenv("FRAMESCOPE_HEAP_PROFILE"); path != "" {
					writeHeapProfile(b, path)
				}
				runtime.KeepAlive(m)
				b.StartTimer()
			}
			n := float64(b.N)
			b.ReportMetric(float64(ended.Milliseconds())/n, "indexed-ms")
			b.ReportMetric(float64(frames)/1e6/(ended.Seconds()/n), "Mframes/s")
			b.ReportMetric(peakHeap, "peak-heap-MB")
			b.ReportMetric(heap, "heap-MB")
			b.ReportMetric(hwm, "peak-rss-MB")
		})
	}
}

// openWith opens the capture at path in a fresh 200×60 model with the
// checker options and runs it to the end, as openModel does.
func openWith(b *testing.B, path string, opts invariants.Options) (*Model, *loop) {
	b.Helper()
	dark := true
	m := NewModel(filepath.Base(path), false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: benchW, Height: benchH})
	l := newLoop(m)
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		b.Fatal(err)
	}
	start(context.Background(), source.Capture(filepath.Base(path), c, opts), l.send, 0)
	l.run()
	c.Close()
	return m, l
}

// sampleHeap samples HeapInuse every 5 ms until the returned stop
// is called, which reports the peak in MB.
func sampleHeap() (stop func() float64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak.Load()) / (1 << 20)
	}
}

// BenchmarkViewAlarmsFlood: the whole 200×60 screen with the Alarms pane
// focused on the 10 MB flood (1,048,576 frame-json alarms), its group
// expanded and the cursor half-way through it: each visible alarm is
// rebuilt from its frame's bytes.
func BenchmarkViewAlarmsFlood(b *testing.B) {
	if testing.Short() {
		b.Skip("writes a 10 MB flood: not under -short")
	}
	path := filepath.Join(b.TempDir(), "flood.sse")
	if err := os.WriteFile(path, bytes.Repeat([]byte("data: {}\n\n"), 1<<20), 0o600); err != nil {
		b.Fatal(err)
	}
	m, _ := openWith(b, path, invariants.Options{Dialect: "pc3"})
	st := m.Store()
	if len(st.Groups()) == 0 {
		b.Fatal("no group")
	}
	m.setFocus(PaneAlarms)
	a := m.alarms
	g := &st.Groups()[len(st.Groups())-1]
	a.toggle(g.Entry)
	a.cursor = a.itemOf(g.Entry) + g.Rows/2
	if s := m.View().Content; s == "" {
		b.Fatal("empty view")
	}
	for b.Loop() {
		_ = m.View()
	}
	reportMS(b)
}
