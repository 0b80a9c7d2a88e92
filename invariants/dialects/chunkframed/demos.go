package chunkframed

import (
	_ "embed"
	"time"

	"framescope/invariants"
)

var (
	//go:embed demo_happy.sse
	demoHappy string
	//go:embed demo_broken.sse
	demoBroken string
)

var demos = []invariants.Demo{
	{Summary: "a shopping answer in two turns: interleaved text, product-carousel, image and action streams with begin/chunk/end, checksums and keepalive comments", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "a lost chunk, a replayed seq_no, a chunk for an unknown stream, a string seq_no, a bad checksum, a short total_chunks, a chunk after its end, a partial end, a stream never ended", Body: demoBroken, Pace: 250 * time.Millisecond},
}
