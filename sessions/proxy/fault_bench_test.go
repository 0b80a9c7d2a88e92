package proxy

import (
	"io"
	"os"
	"testing"
	"time"

	"framescope/sessions/faults"
)

// BenchmarkFaulter: the cost of --fault on the copy loop, the real
// stream fed in 4 KiB reads with one frame garbled and one dropped (the
// frames between pass as they are read).
func BenchmarkFaulter(b *testing.B) {
	body, err := os.ReadFile("../../testdata/real/openai-chat/deepseek-text.sse") // as realStream
	if err != nil {
		b.Fatal(err)
	}
	f, err := faults.Parse("garble=10 drop=200")
	if err != nil {
		b.Fatal(err)
	}
	plan, _ := faults.PlanFor([]faults.Fault{f}, "h", "/")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		out := newFaultOut(io.Discard, func() error { return nil }, func([]byte) {}, plan)
		fl := newFaulter(plan, false, out, func(time.Duration) error { return nil })
		for p := body; len(p) > 0; {
			n := min(len(p), 4096)
			if err := fl.feed(p[:n]); err != nil {
				b.Fatal(err)
			}
			p = p[n:]
		}
		if err := fl.finish(true); err != nil {
			b.Fatal(err)
		}
	}
}
