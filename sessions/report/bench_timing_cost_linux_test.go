package report

import (
	"bytes"
	"runtime"
	"syscall"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// BenchmarkCheckTimingCost runs the check with the timing off and on in
// turn, in the same iteration, on one locked OS thread, and reports what
// the timing adds as "%added": the ratio of the least thread CPU time
// (getrusage RUSAGE_THREAD: time spent waiting for a core on a shared
// machine does not count) of each side:
//
//	go test ./sessions/report/ -run '^$' -bench 'CheckTimingCost' -benchtime 40x
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
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			best := [2]time.Duration{time.Hour, time.Hour}
			for b.Loop() {
				for k, off := range []bool{true, false} {
					best[k] = min(best[k], run(off))
				}
			}
			b.ReportMetric(float64(best[0].Microseconds()), "µs-off")
			b.ReportMetric(float64(best[1].Microseconds()), "µs-on")
			b.ReportMetric((float64(best[1])/float64(best[0])-1)*100, "%added")
		})
	}
}

// threadCPU is the calling OS thread's CPU time (user + system).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1
