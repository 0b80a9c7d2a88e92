package mcp

import (
	"math/rand/v2"
	"testing"
)

// TestHashSetMatchesMap: the event-id set answers as a Go map does under
// the ring's use (add until full, then remove the oldest and add), with
// hashes crowded onto few home slots and runs wrapping past the end.
func TestHashSetMatchesMap(t *testing.T) {
	for _, homes := range []uint64{3, 64, 2 * maxEventIDs} {
		rng := rand.New(rand.NewPCG(homes, 7))
		hash := func() uint64 {
			home := (hashMask - rng.Uint64N(homes)) & hashMask // near the end: runs wrap
			return rng.Uint64()&^hashMask | home | 1
		}
		var s hashSet
		want := map[uint64]bool{}
		var ring []uint64
		steps := 6 * maxEventIDs
		if homes < 64 {
			steps = maxEventIDs + 300 // one run of them all: each probe walks it
		}
		for step := 0; step < steps; step++ {
			h := hash()
			if s.has(h) != want[h] {
				t.Fatalf("homes %d step %d: has(%x) = %v", homes, step, h, !want[h])
			}
			if want[h] {
				continue
			}
			if len(ring) == maxEventIDs {
				old := ring[0]
				ring = ring[1:]
				s.remove(old)
				delete(want, old)
			}
			s.add(h)
			want[h] = true
			ring = append(ring, h)
			if step%512 == 0 {
				for _, r := range ring {
					if !s.has(r) {
						t.Fatalf("homes %d step %d: lost %x", homes, step, r)
					}
				}
			}
		}
	}
}
