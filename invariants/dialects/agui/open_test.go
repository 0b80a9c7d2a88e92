package agui

import (
	"fmt"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// TestOpenSetIndexed: past scanMax entries the set indexes them; finds,
// removes (which move the last entry) and a reset agree with a plain scan.
func TestOpenSetIndexed(t *testing.T) {
	var s openSet
	key := func(i int) decode.Raw { return decode.Raw(fmt.Sprintf(`"k%d"`, i)) }
	const n = 3 * scanMax
	for i := range n {
		s.add(invariants.SpanMessage, i%2 == 0, key(i), i)
	}
	if !s.indexed || s.n != n {
		t.Fatalf("indexed %v, n %d", s.indexed, s.n)
	}
	for i := 0; i < n; i += 3 {
		s.remove(invariants.SpanMessage, i%2 == 0, key(i))
	}
	for i := range n {
		at := s.find(invariants.SpanMessage, i%2 == 0, key(i))
		if gone := i%3 == 0; gone != (at < 0) {
			t.Fatalf("key %d: find %d", i, at)
		}
		if at >= 0 && (s.e[at].frame != i || string(s.e[at].key) != string(key(i))) {
			t.Fatalf("key %d: entry %d is %+v", i, at, s.e[at])
		}
		if s.find(invariants.SpanMessage, i%2 != 0, key(i)) >= 0 {
			t.Fatalf("key %d found as the other kind", i)
		}
	}
	s.reset()
	if s.indexed || s.find(invariants.SpanMessage, false, key(1)) >= 0 {
		t.Fatal("reset kept entries")
	}
}
