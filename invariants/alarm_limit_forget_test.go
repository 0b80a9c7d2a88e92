package invariants

import "testing"

// Forget keeps the counts of the stream and of the turns from the one
// given, drops the older ones, and keeps the map small however many
// turns pass.
func TestListingForget(t *testing.T) {
	l := NewListing(2)
	for turn := 0; turn < 10000; turn++ {
		for _, rule := range []string{"a", "b"} {
			if !l.Take(rule, turn) || !l.Take(rule, turn) || l.Take(rule, turn) {
				t.Fatalf("turn %d rule %s: want two listed, then not", turn, rule)
			}
		}
		if turn == 0 {
			l.Take("s", -1)
			l.Take("s", -1)
		}
		l.Forget(turn) // the turns before this one are done
		if len(l.n) > 1024 {
			t.Fatalf("turn %d: %d keys held", turn, len(l.n))
		}
	}
	tests := []struct {
		rule   string
		turn   int
		listed bool
	}{
		{"s", -1, false},   // the stream's count is kept
		{"a", 9999, false}, // so is the latest turn's
		{"a", 0, true},     // a forgotten turn counts afresh
	}
	for _, tt := range tests {
		if got := l.Listed(tt.rule, tt.turn); got != tt.listed {
			t.Errorf("Listed(%q, %d) = %v, want %v", tt.rule, tt.turn, got, tt.listed)
		}
	}
}
