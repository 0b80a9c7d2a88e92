package invariants_test

import (
	"testing"
	"time"

	"framescope/invariants"
)

// TestMinRateInstantContent: content that arrived in one instant (a zero
// content span: one read) has no rate to judge; it is not "0.0 deltas/s"
// under --min-rate. A slow turn still fails.
func TestMinRateInstantContent(t *testing.T) {
	judge := func(s invariants.TurnTiming) []string {
		var rules []string
		v := invariants.TimingVerdict{Summary: &s}
		v.Judge(&invariants.Options{MinRate: 5}, func(rule string, _ invariants.Severity, _ int, msg string) {
			rules = append(rules, rule+": "+msg)
		})
		return rules
	}
	instant := invariants.TurnTiming{Timed: true, HasContent: true, Chunks: 2, Frames: 4, Reads: 1}
	if got := judge(instant); len(got) != 0 {
		t.Errorf("instant content raised %v", got)
	}
	slow := invariants.TurnTiming{Timed: true, HasContent: true, Chunks: 3, Frames: 4, Reads: 4,
		ContentSpan: 2 * time.Second, ChunksPerSec: 1}
	if got := judge(slow); len(got) != 1 {
		t.Errorf("1 delta/s under a 5/s budget raised %v", got)
	}
}
