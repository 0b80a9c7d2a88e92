package invariants

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 deltas"}, {1, "1 delta"}, {2, "2 deltas"}} {
		if got := Plural(tc.n, "delta"); got != tc.want {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
