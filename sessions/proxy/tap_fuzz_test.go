package proxy

import (
	"bytes"
	"io"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
)

// FuzzTap: whatever the reads and however far the checker falls behind,
// the tap hands it every byte pushed, in order, when its memory and spill
// can hold them. When they cannot, it hands whole runs of the pushed
// bytes, in order, counts the rest in Behind and tells each gap with a
// Lost problem. At the end the proxy's budgets are whole again.
//
// ops drive the two sides: a byte below 0x80 pushes the next op+1 bytes
// of data; one above drains up to op&0x7f chunks the checker can take
// without waiting.
func FuzzTap(f *testing.F) {
	f.Add([]byte("data: a\n\ndata: b\n\n"), []byte{3, 0x85, 7, 0x81, 100}, uint16(8), uint16(100), uint16(0))
	f.Add(bytes.Repeat([]byte("data: {\"x\":1}\n\n"), 200), []byte{60, 60, 60, 0x90, 200, 200}, uint16(64), uint16(4096), uint16(20))
	f.Add(bytes.Repeat([]byte("data: y\n\n"), 900), []byte{127, 127, 127, 0x82, 127, 127, 0xff}, uint16(200), uint16(300), uint16(5))
	dir := f.TempDir() // spills are unlinked once made: it stays empty
	f.Fuzz(func(t *testing.T, data, ops []byte, limit, poolLimit, spillUnits uint16) {
		pool := &queueBudget{limit: int64(poolLimit)}
		spill := &spillBudget{limit: -1, dir: dir} // 0 units: no spill
		if spillUnits > 0 {
			spill.limit = int64(spillUnits) * 64
		}
		tp := newTap(sessions.Meta{}, time.Now(), int(limit)+1, pool, spill)
		var out []byte
		var chunks [][]byte
		lost := 0
		take := func() bool {
			ch, err := tp.Next()
			for _, p := range tp.TakeProblems() {
				if p.Lost {
					lost++
				}
			}
			if err == io.EOF {
				return false
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ch.Data...)
			chunks = append(chunks, bytes.Clone(ch.Data))
			return true
		}
		rest := data
		for _, op := range ops {
			if op < 0x80 {
				n := min(int(op)+1, len(rest))
				tp.push(rest[:n])
				rest = rest[n:]
				continue
			}
			for range op & 0x7f {
				if !tapPending(tp) {
					break
				}
				take()
			}
		}
		if len(rest) > 0 {
			tp.push(rest)
		}
		tp.finish(invariants.End{Kind: invariants.EndEOF})
		for take() {
		}
		behind := int(tp.Behind())
		if len(out)+behind != len(data) {
			t.Fatalf("%d bytes handed + %d behind != %d pushed", len(out), behind, len(data))
		}
		if behind == 0 && (!bytes.Equal(out, data) || lost != 0) {
			t.Fatalf("nothing left out, yet the bytes differ (or %d gaps were told)", lost)
		}
		if behind > 0 && lost == 0 {
			t.Fatalf("%d bytes left out and no gap told", behind)
		}
		at := 0 // each chunk is a run of data after the one before it
		for i, c := range chunks {
			j := bytes.Index(data[at:], c)
			if j < 0 {
				t.Fatalf("chunk %d (%d bytes) is not a run of the pushed bytes after offset %d", i, len(c), at)
			}
			at += j + len(c)
		}
		if pool.held.Load() != 0 || spill.held.Load() != 0 {
			t.Fatalf("budgets not given back: memory %d, spill %d", pool.held.Load(), spill.held.Load())
		}
	})
}

// tapPending reports whether Next would hand a chunk without waiting.
func tapPending(tp *tap) bool {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.head < len(tp.queue) || tp.sp != nil && tp.sp.r < tp.sp.w
}
