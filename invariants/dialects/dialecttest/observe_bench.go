package dialecttest

import (
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// ObserveBench measures the checking core's cost of one frame of dialect d:
// prefix (SSE) is observed once to open the state the frame lands in, hot
// (one SSE event) is decoded once — the reading core's work — and observed
// b.N times. It fails if the hot frame raises an alarm, and reports CPU
// time per frame besides wall time: on a shared machine wall time counts
// the time other processes ran.
func ObserveBench(b *testing.B, d invariants.Dialect, prefix, hot string) {
	chk := d.NewChecker(invariants.Options{})
	dec := decode.Decoder{Keys: invariants.IndexKeysOf(d)}
	decode.NewFramer().Feed([]byte(prefix), func(ev *decode.Event) {
		if ev.Dispatched() {
			chk.Observe(dec.Decode(ev, 0, false))
		}
	})
	var f *decode.Frame
	decode.NewFramer().Feed([]byte(hot), func(ev *decode.Event) {
		if f == nil && ev.Dispatched() {
			c := ev.Clone()
			f = dec.Decode(&c, 0, false).Clone()
		}
	})
	if f == nil {
		b.Fatal("hot holds no event")
	}
	b.SetBytes(int64(len(f.Raw)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if len(chk.Observe(f)) != 0 {
			b.Fatal("the hot frame raises alarms")
		}
	}
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}
