package pc3

import "testing"

// TestSharedRegionSteps: the shared one- and two-step Regions lists name
// the region and row they stand for, and have no spare room, so a caller
// appending to a step's Regions copies instead of writing into the list
// every other step shares.
func TestSharedRegionSteps(t *testing.T) {
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		n := 0
		for i := range m.Regions {
			for j := range m.Regions[i].Transitions {
				rt := &m.Regions[i].Transitions[j]
				l := unkeyedStep(m, i, j, rt)
				if len(l) != 1 || cap(l) != 1 || l[0].Transition != rt || l[0].Region != m.Regions[i].Name || l[0].Key != "" {
					t.Fatalf("%s %s row %d: %+v (cap %d)", m.Profile, m.Regions[i].Name, j, l, cap(l))
				}
				for i0 := 0; i0 < i; i0++ {
					if m.Regions[i0].Key != "" || m.Regions[i].Key != "" {
						continue
					}
					for j0 := range m.Regions[i0].Transitions {
						p := unkeyedPair(m, i0, j0, i, j, rt)
						n++
						if len(p) != 2 || cap(p) != 2 || p[0].Transition != &m.Regions[i0].Transitions[j0] || p[1].Transition != rt ||
							p[0].Region != m.Regions[i0].Name || p[1].Region != m.Regions[i].Name {
							t.Fatalf("%s pair %d/%d %d/%d: %+v (cap %d)", m.Profile, i0, j0, i, j, p, cap(p))
						}
					}
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s: no pair of unkeyed regions", m.Profile)
		}
	}
}

// TestAppendChunk: the bubble's text gets a chunk's decoded value whether
// or not it has escapes.
func TestAppendChunk(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`"plain words "`, "plain words "},
		{`""`, ""},
		{`"a\nb\"c\\d\u00e9"`, "a\nb\"c\\dé"},
		{`"héllo"`, "héllo"},
		{`42`, ""},
	} {
		if got := string(appendChunk([]byte("x"), []byte(tc.raw))); got != "x"+tc.want {
			t.Errorf("%s: %q, want %q", tc.raw, got, "x"+tc.want)
		}
	}
}
