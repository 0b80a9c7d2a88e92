package store

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestRowSet: the runs answer like a sorted slice of the same rows, for
// rows added in order, with gaps, and out of order (splits and merges).
func TestRowSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name string
		rows []int
		runs int
	}{
		{"consecutive", []int{0, 1, 2, 3, 4, 5}, 1},
		{"gaps", []int{2, 3, 7, 9, 10}, 3},
		{"fill a gap", []int{1, 2, 4, 5, 3}, 1},
		{"before the first", []int{5, 6, 4, 0}, 2},
		{"extend backwards", []int{10, 11, 20, 19, 18}, 2},
		{"random", rng.Perm(400)[:300], -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x rowSet
			var ref []int
			for _, r := range tc.rows {
				x.add(r)
				k := sort.SearchInts(ref, r)
				ref = slices.Insert(ref, k, r)
				if x.Len() != len(ref) || x.last() != ref[len(ref)-1] {
					t.Fatalf("after %d: len %d last %d, want %d %d", r, x.Len(), x.last(), len(ref), ref[len(ref)-1])
				}
			}
			if tc.runs >= 0 && len(x.runs) != tc.runs {
				t.Errorf("%d runs, want %d: %+v", len(x.runs), tc.runs, x.runs)
			}
			for k, r := range ref {
				if x.At(k) != r {
					t.Errorf("At(%d) = %d, want %d", k, x.At(k), r)
				}
			}
			for row := -1; row < 410; row++ {
				if got, want := x.Below(row), sort.SearchInts(ref, row); got != want {
					t.Errorf("Below(%d) = %d, want %d", row, got, want)
				}
			}
			for _, k := range []int{0, 1, len(ref) / 2, len(ref) - 1} {
				var got []int
				x.Each(k, func(r int) { got = append(got, r) })
				if !slices.Equal(got, ref[k:]) {
					t.Errorf("Each(%d) = %v, want %v", k, got, ref[k:])
				}
			}
		})
	}
}
