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

// fuzzMaxInput bounds what a fuzz target of this package looks at: an
// input is cut to it. The Go engine minimizes every input that finds new
// coverage before going on, and counts no executions meanwhile ("0
// execs/sec"); removing every subset of bytes costs len² runs, up to
// -fuzzminimizetime (60 s) an input. The targets used to return early on
// a long input: that return was itself new coverage, so the engine kept
// finding a 64 KiB input "interesting" and spent most of a run minimizing
// it toward the bound. Cutting with min adds no branch (min compiles to
// no coverage edge), so a long input is just its prefix. Even so, an
// input that is interesting for its own sake takes ~10 µs × len² to
// minimize: 8 s at 900 bytes. Every path of the framer, the scanner and
// the sanitizer is reached by far less (the event size limit is fuzzed
// down to 0–65535 bytes for that).
const fuzzMaxInput = 512

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
		in = in[:min(len(in), fuzzMaxInput)]
		m := int64(max) // 0: the default
		want := refFrame(in, m)
		checkOffsets(t, in, want)
		got := frameWhole(in, m)
		if !sameEvents(got, want) {
			t.Fatalf("whole input %q max %d:\ngot\n%swant\n%s", in, m, describe(got), describe(want))
		}
		// One random split an execution (the seed varies it): the engine
		// runs inputs again and again, so fewer framings each is faster
		// fuzzing, not less of it.
		r := rand.New(rand.NewPCG(seed, uint64(len(in))))
		got = frameCuts(in, randomCuts(r, len(in)), m)
		if !sameEvents(got, want) {
			t.Fatalf("split run, input %q max %d:\ngot\n%swant\n%s", in, m, describe(got), describe(want))
		}
		if len(in) <= 128 {
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
