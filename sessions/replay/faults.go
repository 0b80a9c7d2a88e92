package replay

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"framescope/decode"
	"framescope/sessions/faults"
)

// The replay server injects a fault Set (sessions/faults) into the
// capture's stream: CheckFaults says which of them name frames the
// capture lacks, buildReplayPlan turns the capture and its faults into the
// writes a replay makes (the delivery faults are faults.Writer's, between
// those writes and the response).

// CheckFaults says which fault flags name frames the capture does not have
// (the handler ignores them). It returns nil when every fault applies.
func (r *Replay) CheckFaults(f faults.Set) error {
	frames := len(replayIndexFrames(r.Chunks))
	var errs []string
	have := "the capture has no frames"
	if frames > 0 {
		have = fmt.Sprintf("the capture has %d frames, 0..%d", frames, frames-1)
	}
	check := func(flag string, n int) {
		switch {
		case n < 0:
			errs = append(errs, fmt.Sprintf("%s %d: frame indexes start at 0", flag, n))
		case n >= frames:
			errs = append(errs, fmt.Sprintf("%s %d: no such frame (%s)", flag, n, have))
		}
	}
	for _, n := range f.Drop {
		check("--drop", n)
	}
	for _, n := range f.Dup {
		check("--dup", n)
	}
	if f.CutAfter >= 0 {
		check("--cut-after", f.CutAfter)
	}
	for _, s := range f.Stalls {
		check("--stall "+s.String(), s.Before)
		if s.For < 0 {
			errs = append(errs, fmt.Sprintf("--stall %s: the duration is negative", s))
		}
	}
	for _, n := range f.Garble {
		check("--garble", n)
	}
	if f.Buffer < 0 {
		errs = append(errs, fmt.Sprintf("--buffer %d: a byte count is 0 or more", f.Buffer))
	}
	if f.Burst < 0 {
		errs = append(errs, fmt.Sprintf("--burst %d: a frame count is 0 or more", f.Burst))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(errs, "; "))
}

// replaySpan is a frame's byte range [off, end) in the concatenated stream.
type replaySpan struct{ off, end int64 }

// replayIndexFrames runs the chunks through the SSE framer and returns the byte
// range of every dispatched event.
func replayIndexFrames(chunks []ReplayChunk) []replaySpan {
	f := decode.NewFramer()
	var spans []replaySpan
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			spans = append(spans, replaySpan{ev.Offset, ev.Offset + ev.Size})
		}
	}
	for _, c := range chunks {
		f.Feed(c.Data, emit)
	}
	f.Close(emit)
	return spans
}

// replayOp is one step of a replay: optionally pause, wait for the bytes' time,
// write them, flush.
type replayOp struct {
	data  []byte
	at    time.Duration // when the bytes were sent originally (unscaled)
	stall time.Duration // real-time pause before this op
	// frames is how many frames this op completes; last is the index of the
	// last of them (valid when frames > 0), or for a cut, the frame the cut
	// follows.
	frames int
	last   int
	flush  bool // an original chunk ends here
	cut    bool // abort the connection after this op
}

// replayFrameFault is what happens to one frame.
type replayFrameFault struct {
	drop, dup, cut bool
	stall          time.Duration
	garble         bool
	garbled        []byte
}

// buildReplayPlan turns the chunks into the list of writes a replay makes. With
// no faults it is one op per chunk, sharing the chunks' bytes. Faulted
// frames' byte ranges are split out so that they can be skipped, repeated,
// replaced or delayed; chunk boundaries (and so flushes) stay where they
// were.
func buildReplayPlan(chunks []ReplayChunk, spans []replaySpan, f faults.Set) []replayOp {
	ff := map[int]*replayFrameFault{}
	get := func(n int) *replayFrameFault {
		if n < 0 || n >= len(spans) {
			return nil
		}
		x := ff[n]
		if x == nil {
			x = &replayFrameFault{}
			ff[n] = x
		}
		return x
	}
	for _, n := range f.Drop {
		if x := get(n); x != nil {
			x.drop = true
		}
	}
	for _, n := range f.Dup {
		if x := get(n); x != nil {
			x.dup = true
		}
	}
	if f.CutAfter >= 0 {
		if x := get(f.CutAfter); x != nil {
			x.cut = true
		}
	}
	for _, s := range f.Stalls {
		if s.For <= 0 {
			continue
		}
		if x := get(s.Before); x != nil {
			x.stall += s.For
		}
	}
	for _, n := range f.Garble {
		if x := get(n); x != nil {
			x.garble = true
		}
	}

	starts := make([]int64, len(chunks)) // each chunk's stream offset
	var total int64
	for i, c := range chunks {
		starts[i] = total
		total += int64(len(c.Data))
	}
	// streamBytes copies the stream's bytes [a, b).
	streamBytes := func(a, b int64) []byte {
		out := make([]byte, 0, b-a)
		i := sort.Search(len(starts), func(i int) bool { return starts[i] > a }) - 1
		for ; i < len(chunks) && a < b; i++ {
			cs := starts[i]
			ce := cs + int64(len(chunks[i].Data))
			if ce <= a {
				continue
			}
			e := min(b, ce)
			out = append(out, chunks[i].Data[a-cs:e-cs]...)
			a = e
		}
		return out
	}

	var cuts []int64 // split points: the faulted frames' boundaries
	for n, x := range ff {
		cuts = append(cuts, spans[n].off, spans[n].end)
		if x.garble {
			x.garbled = faults.Garble(streamBytes(spans[n].off, spans[n].end))
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)

	ops := make([]replayOp, 0, len(chunks)+2*len(ff))
	add := func(o replayOp) {
		if len(o.data) == 0 && o.stall == 0 && o.frames == 0 && !o.cut {
			return
		}
		ops = append(ops, o)
	}
	next := 0 // the first frame not yet completed
	ci := 0
	for i, c := range chunks {
		cs := starts[i]
		ce := cs + int64(len(c.Data))
		first := len(ops)
		for a := cs; a < ce; {
			for ci < len(cuts) && cuts[ci] <= a {
				ci++
			}
			b := ce
			if ci < len(cuts) && cuts[ci] < ce {
				b = cuts[ci]
			}
			// Frames ending at or before a are done, so frame next is the
			// only one that can contain a.
			var x *replayFrameFault
			if next < len(spans) && spans[next].off <= a {
				x = ff[next]
			}
			if x == nil {
				o := replayOp{data: c.Data[a-cs : b-cs], at: c.At}
				for next < len(spans) && spans[next].end <= b {
					o.frames++
					o.last = next
					next++
				}
				add(o)
				a = b
				continue
			}
			k := next
			sp := spans[k]
			o := replayOp{at: c.At}
			if a == sp.off {
				o.stall = x.stall
			}
			body := func() []byte { return streamBytes(sp.off, sp.end) }
			if !x.drop {
				switch {
				case x.garbled == nil:
					o.data = c.Data[a-cs : b-cs]
				case int64(len(x.garbled)) == sp.end-sp.off:
					o.data = x.garbled[a-sp.off : b-sp.off]
				case a == sp.off:
					o.data = x.garbled // a different length: all at once
				}
				if x.garbled != nil {
					body = func() []byte { return x.garbled }
				}
			}
			done := b == sp.end
			if done && !x.drop {
				o.frames, o.last = 1, k
			}
			add(o)
			if done {
				next++
				if x.dup && !x.drop {
					add(replayOp{data: body(), at: c.At, frames: 1, last: k})
				}
				if x.cut {
					add(replayOp{at: c.At, cut: true, last: k})
					if len(ops) > first {
						ops[len(ops)-1].flush = true
					}
					return ops
				}
			}
			a = b
		}
		if len(ops) > first {
			ops[len(ops)-1].flush = true
		}
	}
	return ops
}
