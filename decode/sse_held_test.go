package decode

import "testing"

// A block whose blank line is a lone CR ending a Feed is complete but held
// (an LF may follow): HoldsComplete says so after that Feed, and
// EmittingHeld is true while the next Feed or Close emits it, false for
// every other block.
func TestFramerHeldBlockIsMarked(t *testing.T) {
	tests := []struct {
		name  string
		feeds []string
		close bool
		// per feed: HoldsComplete after it
		holds []bool
		// per emitted event (in order): EmittingHeld during its emit
		held []bool
	}{
		{"fast path, LF follows", []string{"data: x\r\r", "\ndata: y\n\n"}, false, []bool{true, false}, []bool{true, false}},
		{"fast path, next block follows", []string{"data: x\r\r", "data: y\r\r"}, true, []bool{true, true}, []bool{true, true}},
		{"held block ended by a later CR", []string{"data: x", "\r\r"}, true, []bool{false, true}, []bool{true}},
		{"CR LF in one Feed", []string{"data: x\r\r\n", "data: y\n\n"}, false, []bool{false, false}, []bool{false, false}},
		{"line CR at the end, not a blank line", []string{"data: x\r", "\r\n"}, false, []bool{false, false}, []bool{false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFramer()
			var held []bool
			emit := func(*Event) { held = append(held, f.EmittingHeld()) }
			for i, p := range tt.feeds {
				f.Feed([]byte(p), emit)
				if got := f.HoldsComplete(); got != tt.holds[i] {
					t.Errorf("after feed %d (%q): HoldsComplete %v, want %v", i, p, got, tt.holds[i])
				}
				if f.EmittingHeld() {
					t.Errorf("EmittingHeld true outside an emit")
				}
			}
			if tt.close {
				f.Close(emit)
			}
			if len(held) != len(tt.held) {
				t.Fatalf("%d events, want %d", len(held), len(tt.held))
			}
			for i := range held {
				if held[i] != tt.held[i] {
					t.Errorf("event %d: EmittingHeld %v, want %v", i, held[i], tt.held[i])
				}
			}
		})
	}
}

// Release emits the held block at once; the LF that then starts the next
// Feed is skipped between blocks, and the events still tile the input.
func TestFramerRelease(t *testing.T) {
	in := []byte("data: x\r\r\ndata: y\r\r")
	f := NewFramer()
	var evs []Event
	emit := func(e *Event) { evs = append(evs, e.Clone()) }
	f.Release(emit) // nothing held: nothing emitted
	f.Feed(in[:9], emit)
	if len(evs) != 0 || !f.HoldsComplete() {
		t.Fatalf("before Release: %d events, holds %v", len(evs), f.HoldsComplete())
	}
	f.Release(emit)
	if len(evs) != 1 || string(evs[0].Raw) != "data: x\r\r" || string(evs[0].Data) != "x" || f.HoldsComplete() {
		t.Fatalf("after Release:\n%s", describe(evs))
	}
	f.Feed(in[9:], emit)
	f.Release(emit)
	f.Close(emit)
	if len(evs) != 2 || evs[1].Offset != 10 || string(evs[1].Raw) != "data: y\r\r" {
		t.Fatalf("after the LF:\n%s", describe(evs))
	}
	checkOffsets(t, in, evs)
}
