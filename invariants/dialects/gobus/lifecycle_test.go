package gobus

import (
	"fmt"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// TestLifecycleMemoryBounded: an id flood of many turns with many tool
// calls each keeps at most maxTrackedAll records in the mapper's memory
// (each turn alone is bounded by maxTracked, but not the turns together).
func TestLifecycleMemoryBounded(t *testing.T) {
	p := Dialect.NewMapper().(*mapper)
	var d decode.Decoder
	var m invariants.Mapping
	records := func() int {
		n := 0
		for _, r := range p.turns {
			n += 1 + len(r.tools) + len(r.spans)
		}
		return n
	}
	most := 0
	for turn := range 40 {
		for call := range 2000 {
			data := fmt.Sprintf(`{"type":"tool_call_started","turnId":"t%d","toolCallId":"c%d","toolName":"x","eventSeq":%d}`, turn, call, turn*2000+call+1)
			f := d.Decode(&decode.Event{Data: []byte(data), HasData: true}, 0, false)
			m = invariants.Mapping{}
			p.Map(f, &m)
		}
		most = max(most, records())
	}
	if most > maxTrackedAll+1 {
		t.Errorf("the mapper held %d records, want at most %d", most, maxTrackedAll+1)
	}
	if p.tracked > maxTrackedAll {
		t.Errorf("tracked %d past the bound %d", p.tracked, maxTrackedAll)
	}
}
