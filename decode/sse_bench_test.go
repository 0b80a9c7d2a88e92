package decode

import (
	"bytes"
	"fmt"
	"testing"
)

// benchStream builds n blocks of about 250 bytes each:
// `event: text\ndata: {...}\n\n`.
func benchStream(n int, crlf bool) []byte {
	var b bytes.Buffer
	nl := "\n"
	if crlf {
		nl = "\r\n"
	}
	for i := range n {
		fmt.Fprintf(&b, "event: text%sdata: {\"seq\":%d,\"kind\":\"text\",\"delta\":\"%s\",\"meta\":{\"model\":\"m-1\",\"ts\":%d}}%s%s",
			nl, i, "The quick brown fox jumps over the lazy dog; the five boxing wizards jump quickly. Sphinx of black quartz, judge my vow!! Pack my box with five dozen jugs.",
			1700000000000+i, nl, nl)
	}
	return b.Bytes()
}

func benchFeed(b *testing.B, in []byte, chunk int) {
	f := NewFramer()
	events := 0
	emit := func(e *Event) {
		if e.HasData {
			events++
		}
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f.Reset()
		for off := 0; off < len(in); off += chunk {
			f.Feed(in[off:min(off+chunk, len(in))], emit)
		}
		f.Close(emit)
	}
	b.StopTimer()
	b.ReportMetric(float64(len(in))/float64(events/b.N), "B/event")
}

func BenchmarkFramer(b *testing.B) {
	in := benchStream(100_000, false)
	benchFeed(b, in, 64<<10)
}

func BenchmarkFramerCRLF(b *testing.B) {
	in := benchStream(100_000, true)
	benchFeed(b, in, 64<<10)
}

func BenchmarkFramerSmallChunks(b *testing.B) {
	in := benchStream(100_000, false)
	benchFeed(b, in, 1500)
}
