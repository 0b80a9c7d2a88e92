package cli

import "testing"

// TestRateFlagRefusesZero: a rate that is not finite, or that rounds to
// zero deltas a second, would turn --min-rate off in silence: refused.
func TestRateFlagRefusesZero(t *testing.T) {
	for _, bad := range []string{"5e-324/min", "1e-400", "0", "-1/s", "NaN", "Inf/s", "1e309", "x"} {
		var v float64
		if err := (&rateFlag{p: &v}).Set(bad); err == nil {
			t.Errorf("--min-rate %s accepted (%g/s)", bad, v)
		}
	}
	var v float64
	if err := (&rateFlag{p: &v}).Set("1200/min"); err != nil || v != 20 {
		t.Errorf("1200/min: %g, %v", v, err)
	}
}
