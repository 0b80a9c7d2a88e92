package report

import (
	"bytes"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// BenchmarkCheckTimingCost runs the check with the timing off and on in
// turn, in the same iteration, on one locked OS thread, and reports what
// the timing adds: "%added-median" the median over iterations of each
// pair's ratio, "%added" the ratio of the least thread CPU time
// (time spent waiting for a core on a shared machine does not count) of
// each side:
//
//	go test ./sessions/report/ -run '^$' -bench 'CheckTimingCost' -benchtime 40x
//
// With FRAMESCOPE_TIMING_CONTROL=1 both sides run without the timing: the
// method's own bias (it read −0.5 to +0.9%).
func BenchmarkCheckTimingCost(b *testing.B) {
	size := int(benchMB(b) << 20 / 20)
	for _, dg := range dialectGens {
		if dg.name != "openai-chat" && dg.name != "go-bus" && dg.name != "pc3" {
			continue
		}
		var buf bytes.Buffer
		dg.gen(&buf, size)
		body := timedJSONL(buf.Bytes(), 20000)
		b.Run(dg.name, func(b *testing.B) {
			run := func(off bool) time.Duration {
				runtime.GC() // the other side's garbage is not this side's cost
				start := threadCPU()
				c, err := capture.OpenReader(dg.name, bytes.NewReader(body), capture.OpenOptions{Entry: -1})
				if err != nil {
					b.Fatal(err)
				}
				res, err := pipeline.Run(c, invariants.Options{NoTiming: off, TTFE: -1}, pipeline.Handler{OneStage: true})
				if err != nil || res.Counts.Error+res.Counts.Warn != 0 {
					b.Fatalf("%v %+v", err, res.Counts)
				}
				return threadCPU() - start
			}
			// FRAMESCOPE_TIMING_CONTROL=1 runs the timing off on both
			// sides: the method's own bias, which should read about 0.
			control := os.Getenv("FRAMESCOPE_TIMING_CONTROL") == "1"
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			best := [2]time.Duration{time.Hour, time.Hour}
			var ratios []float64
			for i := 0; b.Loop(); i++ {
				var took [2]time.Duration
				// Each side goes first in turn: neither inherits the
				// other's warm caches every time.
				for j := range 2 {
					k := (i + j) % 2
					took[k] = run(k == 0 || control)
					best[k] = min(best[k], took[k])
				}
				ratios = append(ratios, float64(took[1])/float64(took[0]))
			}
			slices.Sort(ratios)
			b.ReportMetric(float64(best[0].Microseconds()), "µs-off")
			b.ReportMetric(float64(best[1].Microseconds()), "µs-on")
			b.ReportMetric((ratios[len(ratios)/2]-1)*100, "%added-median")
			b.ReportMetric((float64(best[1])/float64(best[0])-1)*100, "%added")
		})
	}
}

// threadCPU is the calling OS thread's CPU time, from
// clock_gettime(CLOCK_THREAD_CPUTIME_ID): the scheduler's own count in
// nanoseconds. (getrusage(RUSAGE_THREAD) is sampled at the timer tick, a
// few ms: as coarse as the difference measured on a 50 ms run.)
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3
