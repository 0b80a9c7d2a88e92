package decode

import (
	"bytes"
	"runtime"
	"testing"
)

// TestFramerUnterminatedLineMemory: an event that never ends (one line,
// no newline) used to be buffered at ~4.7× the 64 MiB limit (a 1 GB line
// cost 304 MB): append grew the held line a quarter at a time. Now the
// framer's buffers never exceed the limit, and all it allocates while
// reading the line — garbage included — is at most 1.5× the limit. The
// line is fed in 64 KiB reads as ReadEvents does, and in 3 MiB reads that
// straddle the limit.
func TestFramerUnterminatedLineMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("256 MiB of input")
	}
	const limit = DefaultMaxEventSize
	for _, chunk := range []int{64 << 10, 3<<20 + 17} {
		f := NewFramer()
		p := bytes.Repeat([]byte("x"), chunk)
		copy(p, "data: ")
		var got []Event
		emit := func(e *Event) { got = append(got, e.Clone()) }
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		held := 0
		for n := 0; n < 4*limit; n += chunk {
			f.Feed(p, emit)
			held = max(held, cap(f.buf)+cap(f.scratch))
			copy(p, "xxxxxx")
		}
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d-byte reads: buffers %d MiB, allocated %d MiB", chunk, held>>20, alloc>>20)
		if held > limit {
			t.Errorf("%d-byte reads: the framer holds %d bytes, more than the %d-byte limit", chunk, held, limit)
		}
		if alloc > limit+limit/2+1<<20 {
			t.Errorf("%d-byte reads: %d bytes allocated reading the line, want <= 1.5× the limit", chunk, alloc)
		}
		f.Close(emit)
		if len(got) != 1 || !got[0].Truncated || !got[0].Oversized || got[0].Size < 4*limit {
			t.Fatalf("%d-byte reads: got %s", chunk, describe(got))
		}
		if cap(f.buf) > bigBuffer {
			t.Errorf("after the event the framer keeps a %d-byte buffer", cap(f.buf))
		}
	}
}

// TestFramerManyDataLinesMemory: a block of many data lines that goes
// past the limit drops its joined data at once (it will not be shown), so
// the buffers stay within the limit however long the block runs on.
func TestFramerManyDataLinesMemory(t *testing.T) {
	const limit = 1 << 20
	f := NewFramer()
	f.SetMaxEventSize(limit)
	var got []Event
	emit := func(e *Event) { got = append(got, e.Clone()) }
	lines := bytes.Repeat([]byte("data: 0123456789abcdef0123456789abcdef\n"), 1000)
	held := 0
	for n := 0; n < 8*limit; n += len(lines) {
		f.Feed(lines, emit)
		held = max(held, cap(f.buf)+cap(f.scratch))
	}
	f.Feed([]byte("\ndata: next\n\n"), emit)
	if held > 2*limit+len(lines) {
		t.Errorf("the framer held %d bytes for a block past the %d-byte limit", held, limit)
	}
	if len(got) != 2 || !got[0].Oversized || string(got[1].Data) != "next" {
		t.Fatalf("got %s", describe(got))
	}
}
