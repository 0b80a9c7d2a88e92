package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRowList: every ascending list comes back as it went in, and runs and
// small gaps pack small (a flood's single run costs nothing).
func TestRowList(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n, maxGap int) []int {
		var out []int
		r := 0
		for range n {
			r += rng.IntN(maxGap)
			out = append(out, r)
			r++
		}
		return out
	}
	run := func(first, n int) []int {
		var out []int
		for i := range n {
			out = append(out, first+i)
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		rows     []int
		maxBytes int
	}{
		{"empty", nil, 0},
		{"one", []int{7}, 1},
		{"zero", []int{0}, 1},
		{"flood", run(3, 1_000_000), 0},
		{"interleaved", random(10_000, 40), 10_000},
		{"runs", append(run(0, 500), run(1000, 500)...), 8},
		{"far apart", []int{0, 1 << 20, 1<<30 + 5}, 16},
		{"mixed", append(random(1000, 3), run(1<<22, 3000)...), 2000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l rowList
			for _, r := range tc.rows {
				l.add(r)
			}
			if l.Len() != len(tc.rows) {
				t.Fatalf("Len %d, want %d", l.Len(), len(tc.rows))
			}
			var got []int
			l.each(func(r int) { got = append(got, r) })
			if !slices.Equal(got, tc.rows) {
				t.Fatalf("rows differ: got %d rows, want %d", len(got), len(tc.rows))
			}
			if len(l.packed) > tc.maxBytes {
				t.Errorf("%d rows packed in %d bytes, want ≤ %d", len(tc.rows), len(l.packed), tc.maxBytes)
			}
		})
	}
}
