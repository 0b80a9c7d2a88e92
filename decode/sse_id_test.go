package decode

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventIDsStayIntact: every id a stream named reads the same after
// many more — across arena blocks, ids long and short, repeated, cleared
// by an empty id: line, and across Reset.
func TestEventIDsStayIntact(t *testing.T) {
	fr := NewFramer()
	var body strings.Builder
	var want []string
	for i := 0; i < 5000; i++ {
		id := fmt.Sprintf("3f2b6a1e-8f7c-4d2a-9b1e-0c5d7e9a1f20_%d_%08x", 1764180012345+i/2, uint32(i*2654435761))
		switch {
		case i%97 == 0:
			id = strings.Repeat("L", 600+i%50) // longer than an eighth of a block
		case i%31 == 0:
			id = want[len(want)-1] // the same id again
		case i%53 == 0:
			id = ""
		}
		want = append(want, id)
		fmt.Fprintf(&body, "id: %s\ndata: %d\n\n", id, i)
	}
	var got, last []string
	emit := func(ev *Event) {
		if ev.Dispatched() {
			got, last = append(got, ev.ID), append(last, ev.LastEventID)
		}
	}
	in := body.String()
	fr.Feed([]byte(in[:len(in)/2]), emit)
	fr.Feed([]byte(in[len(in)/2:]), emit)
	fr.Close(emit)
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] || last[i] != want[i] {
			t.Fatalf("event %d: id …%q last …%q, want …%q", i, tail(got[i]), tail(last[i]), tail(want[i]))
		}
	}
	// After Reset, ids of the new stream do not touch the old ones'.
	fr.Reset()
	fr.Feed([]byte("id: again\ndata: x\n\n"), func(ev *Event) {})
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after Reset, event %d: id …%q, want …%q", i, tail(got[i]), tail(want[i]))
		}
	}
}

// TestEventIDsDoNotAllocatePerEvent: a stream with a fresh id on every
// event costs far less than one allocation an event.
func TestEventIDsDoNotAllocatePerEvent(t *testing.T) {
	const n = 1000
	var body strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&body, "id: 3f2b6a1e-8f7c-4d2a-9b1e-0c5d7e9a1f20_%d_k3j4h5g6\ndata: {}\n\n", 1764180012345+i)
	}
	in := []byte(body.String())
	fr := NewFramer()
	fr.Feed(in, func(*Event) {}) // warm: buffers grown
	allocs := testing.AllocsPerRun(5, func() {
		fr.Reset()
		fr.Feed(in, func(*Event) {})
	})
	if per := allocs / n; per > 0.1 {
		t.Errorf("%.2f allocations an event, want at most 0.1", per)
	}
}

func tail(s string) string { return s[max(0, len(s)-24):] }

// BenchmarkFramerEventIDs: blocks of an MCP stream with an event store,
// a 60-byte id on every event (compare BenchmarkFramer: no ids).
func BenchmarkFramerEventIDs(b *testing.B) {
	var body strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&body, "id: 3f2b6a1e-8f7c-4d2a-9b1e-0c5d7e9a1f20_%d_k3j4h5g6\nevent: message\ndata: {\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":%d,\"total\":1000000,\"message\":\"fox a \"},\"jsonrpc\":\"2.0\"}\n\n", 1764180012345+i, i)
	}
	benchFeed(b, []byte(body.String()), 64<<10)
}
