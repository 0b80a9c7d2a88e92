package pc3

import (
	"fmt"
	"testing"
	"time"

	"framescope/invariants"
)

// TestTimingUsage: a usage frame's output_tokens give the turn its tokens
// per second over the content span (frames 2..11, 100 ms apart: 0.9 s).
func TestTimingUsage(t *testing.T) {
	b := newTurn("r1").open().f("status", `"data":{"event_id":"searching_offers","message":"Searching..."}`)
	for i := range 10 {
		b.f("text", fmt.Sprintf(`"chunk":"word%d "`, i))
	}
	stream := b.f("usage", `"input_tokens":10,"output_tokens":45,"total_tokens":55`).completed().done().String()
	alarms, turns := checkTimed(t, stream, invariants.Options{}, func(i int) time.Duration {
		return time.Duration(i+1) * 100 * time.Millisecond
	})
	if d := delivery(alarms); len(d) > 0 {
		t.Fatalf("raised %v", d)
	}
	tm := turns[0].Timing
	if !tm.HasUsage || tm.OutputTokens != 45 || tm.TokensPerSec < 49.9 || tm.TokensPerSec > 50.1 {
		t.Fatalf("usage %v, %d tokens at %.2f/s (want 45 at 50/s)", tm.HasUsage, tm.OutputTokens, tm.TokensPerSec)
	}
}
