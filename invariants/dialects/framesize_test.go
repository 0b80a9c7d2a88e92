package dialects_test

import (
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/invariants/dialects"
)

// TestFrameLimitsNameTheirClient: a dialect that declares its frame-size
// tiers says, for each, which client fails there and the file its limit
// is written in, and names the source of the rule (Spec.Sources).
func TestFrameLimitsNameTheirClient(t *testing.T) {
	for _, d := range dialects.All {
		spec, ok := d.(*invariants.Spec)
		if !ok || (spec.Shape.FrameLimits == nil && !spec.Shape.FrameUnbounded) {
			continue
		}
		if spec.Sources["frame-size"] == "" {
			t.Errorf("%s declares its frame-size tiers but no source for them (Spec.Sources)", d.Name())
		}
		for _, l := range spec.Shape.FrameLimits {
			if l.Client == "" {
				continue // a contract's own bound (public-sse-v1)
			}
			if !strings.Contains(l.Why, ".") || !strings.Contains(l.Why, "(") {
				t.Errorf("%s: the tier over %d (%s) does not cite the file its limit is in: %q", d.Name(), l.Over, l.Client, l.Why)
			}
		}
	}
}
