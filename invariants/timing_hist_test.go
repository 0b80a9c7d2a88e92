package invariants

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Past exactGaps the quantiles come from the histogram: each within half
// a bucket (1/64 of its value) of the exact nearest-rank quantile.
func TestGapHistogramQuantiles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, spread := range []time.Duration{time.Microsecond, 40 * time.Millisecond, 30 * time.Second} {
		var g gapSample
		var all []time.Duration
		for range 3 * exactGaps {
			d := time.Duration(r.ExpFloat64() * float64(spread))
			g.add(d)
			all = append(all, d)
		}
		if g.hist == nil {
			t.Fatal("the sample never moved to the histogram")
		}
		slices.Sort(all)
		for _, q := range []float64{0.5, 0.95, 1} {
			want := all[max(0, int(q*float64(len(all))+0.999999)-1)]
			got := g.quantile(q)
			tol := want/64 + histFloor
			if got < want-tol || got > want+tol {
				t.Errorf("spread %v q%.2f: histogram %v, exact %v", spread, q, got, want)
			}
		}
	}
}

// Every bucket's middle falls in that bucket, and buckets rise with gaps.
func TestGapHistogramBuckets(t *testing.T) {
	for b := range histBuckets - 1 {
		if got := histBucket(histValue(b)); got != b {
			t.Fatalf("histBucket(histValue(%d) = %v) = %d", b, histValue(b), got)
		}
	}
	prev := 0
	for d := time.Duration(1); d < 1<<52; d = d*9/8 + 1 {
		b := histBucket(d)
		if b < prev || b >= histBuckets {
			t.Fatalf("histBucket(%v) = %d after %d", d, b, prev)
		}
		prev = b
	}
	if histBucket(-time.Second) != 0 || histBucket(1<<62) != histBuckets-1 {
		t.Fatal("out-of-range gaps are not clamped")
	}
}
