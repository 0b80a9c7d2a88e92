package decode

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// checkOffsets verifies that the events tile the input: each block's Raw is
// exactly its slice of the input, blocks do not overlap, and the bytes
// between them (and after the last) are only blank-line endings, apart
// from a BOM at the very start.
func checkOffsets(t *testing.T, in []byte, evs []Event) {
	t.Helper()
	pos := int64(0)
	if bytes.HasPrefix(in, bom[:]) {
		pos = int64(len(bom))
	}
	gapOK := func(from, to int64) bool {
		return len(bytes.Trim(in[from:to], "\r\n")) == 0
	}
	for i, e := range evs {
		if e.Offset < pos || e.Size <= 0 || e.Offset+e.Size > int64(len(in)) {
			t.Fatalf("event %d: offset %d size %d outside [%d, %d]", i, e.Offset, e.Size, pos, len(in))
		}
		if !gapOK(pos, e.Offset) {
			t.Fatalf("event %d: skipped bytes %q are not blank lines", i, in[pos:e.Offset])
		}
		if e.Oversized {
			if e.Raw != nil || e.Data != nil {
				t.Fatalf("event %d: oversized event keeps bytes", i)
			}
		} else if !bytes.Equal(e.Raw, in[e.Offset:e.Offset+e.Size]) {
			t.Fatalf("event %d: Raw %q != input %q", i, e.Raw, in[e.Offset:e.Offset+e.Size])
		}
		if e.Truncated && i != len(evs)-1 {
			t.Fatalf("event %d: truncated but not last", i)
		}
		pos = e.Offset + e.Size
	}
	if !gapOK(pos, int64(len(in))) {
		t.Fatalf("tail %q after the last event is not blank lines", in[pos:])
	}
}

func FuzzFramer(f *testing.F) {
	seeds := []string{
		"",
		"data: a\n\n",
		"\xEF\xBB\xBFevent: t\r\ndata: 1\r\ndata: 2\r\n\r\n:c\rid: 9\r\r",
		"\xEF\xBB",
		"data: x\r",
		"data: x\n\r",
		"id: a\x00\nretry: 0012\nfoo\n\ndata",
		"event: " + string(bytes.Repeat([]byte("e"), 40)) + "\ndata: y\n\ndata: z\n\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint64(i), uint16(0))
		f.Add([]byte(s), uint64(i), uint16(i*3+1))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, max uint16) {
		if len(in) > 1<<16 {
			return
		}
		m := int64(max) // 0: the default
		want := refFrame(in, m)
		checkOffsets(t, in, want)
		got := frameWhole(in, m)
		if !sameEvents(got, want) {
			t.Fatalf("whole input %q max %d:\ngot\n%swant\n%s", in, m, describe(got), describe(want))
		}
		r := rand.New(rand.NewPCG(seed, uint64(len(in))))
		for k := range 3 {
			got = frameCuts(in, randomCuts(r, len(in)), m)
			if !sameEvents(got, want) {
				t.Fatalf("split run %d, input %q max %d:\ngot\n%swant\n%s", k, in, m, describe(got), describe(want))
			}
		}
		if len(in) <= 512 {
			got = frameChunked(in, 1, m)
			if !sameEvents(got, want) {
				t.Fatalf("bytewise, input %q max %d:\ngot\n%swant\n%s", in, m, describe(got), describe(want))
			}
		}
		// Changing the maximum between Feeds must not break anything.
		fr := NewFramer()
		got = got[:0]
		emit := func(e *Event) { got = append(got, e.Clone()) }
		prev := 0
		for _, c := range append(randomCuts(r, len(in)), len(in)) {
			fr.SetMaxEventSize(int64(r.IntN(64)))
			fr.Feed(in[prev:c], emit)
			prev = c
		}
		fr.Close(emit)
		checkOffsets(t, in, got)
	})
}
