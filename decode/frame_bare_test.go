package decode

import (
	"reflect"
	"testing"
	"time"
)

// TestBareFrameRoundTrips: a frame without members, taken as a BareFrame
// and set over a frame left dirty by any other, equals the frame DecodeAt
// makes of the same event (k frames later in a run: the index moved on);
// a frame with members, or with a scan error a BareFrame cannot hold, is
// refused.
func TestBareFrameRoundTrips(t *testing.T) {
	blocks := []struct {
		block string
		bare  bool
	}{
		{"data: x\n\n", true},
		{"data: {}\n\n", true},
		{"data:  { }\n\n", true},
		{"data: [DONE]\n\n", true},
		{"data:\n\n", true},
		{"data:  \n\n", true},
		{"data: \xff\n\n", true},
		{"data: [1,2]\n\n", true},
		{"data: 7\n\n", true},
		{"data: \"s\"\n\n", true},
		{`data: {"kind":"text","rev":"1","body":"hi"}` + "\n\n", false},
		{`data: {"a":1}` + "\n\n", false},
		{"data: {\"a\":tru}\n\n", false}, // the scanner's own message
		{"data: {\n\n", false},
		{"data: \xff{}\n\n", true},
	}
	var evs []Event
	fr := NewFramer()
	for _, b := range blocks {
		fr.Feed([]byte(b.block), func(ev *Event) {
			if ev.Dispatched() {
				evs = append(evs, ev.Clone())
			}
		})
	}
	if len(evs) != len(blocks) {
		t.Fatalf("%d events from %d blocks", len(evs), len(blocks))
	}
	for i, b := range blocks {
		fresh := &Frame{}
		DecodeAt(fresh, &evs[i], testKeys, 5, 0, false)
		bare, ok := fresh.Bare()
		if ok != b.bare {
			t.Errorf("%q: Bare ok = %v, want %v", b.block, ok, b.bare)
			continue
		}
		if !ok {
			continue
		}
		for j := range evs {
			for _, later := range []int{0, 3} {
				var reused Frame
				DecodeAt(&reused, &evs[j], testKeys, 9, time.Second, true)
				reused.Event = evs[i]
				reused.SetBare(&bare, later, 2*time.Second, true)
				want := &Frame{Event: evs[i], Index: 5 + later, keys: testKeys} // as DecodeFrame builds one
				want.decode()
				want.Arrival, want.HasArrival = 2*time.Second, true
				if len(reused.Members) == 0 {
					reused.Members = nil
				}
				if !reflect.DeepEqual(&reused, want) {
					t.Errorf("%q over %q, %d later:\n set   %+v\n fresh %+v", b.block, blocks[j].block, later, reused, *want)
				}
				if reused.ProblemDetail() != want.ProblemDetail() {
					t.Errorf("%q: detail %q, want %q", b.block, reused.ProblemDetail(), want.ProblemDetail())
				}
			}
		}
	}
}
