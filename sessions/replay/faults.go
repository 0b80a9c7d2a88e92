package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"framescope/decode"
	"framescope/sessions"
)

// Faults are deliberate defects the replay server injects into the stream.
// They operate on frames: the dispatched SSE events of the capture, counted
// from 0 in stream order. Bytes that belong to no frame (comments,
// keep-alives, stray blank lines) always flow unchanged.
//
// The zero value is NOT "no faults": CutAfter 0 cuts the connection after
// frame 0. Use NoFaults (or set CutAfter to -1).
type Faults struct {
	Drop     []int   // frame indexes not sent
	Dup      []int   // frame indexes sent twice (the copy right after the original)
	CutAfter int     // close the connection abruptly right after frame N; -1 (any negative) = off
	Stalls   []Stall // pause before a frame's first byte
	Garble   []int   // frame indexes whose data bytes are corrupted so they are no longer valid JSON
	// Delivery faults (faults_delivery.go): hold the output until Buffer
	// bytes are pending, or until Burst frames are; compress it (Gzip).
	Buffer int
	Burst  int
	Gzip   bool
}

// NoFaults is the Faults value that changes nothing.
func NoFaults() Faults { return Faults{CutAfter: -1} }

// Active reports whether any fault is set.
func (f Faults) Active() bool {
	return len(f.Drop) > 0 || len(f.Dup) > 0 || f.CutAfter >= 0 || len(f.Stalls) > 0 || len(f.Garble) > 0 ||
		f.Buffer > 0 || f.Burst > 0 || f.Gzip
}

// Stall pauses the replay for For before the first byte of frame Before.
// The pause is real time: it is not scaled by the replay speed (and it also
// happens at speed max). Later bytes are delayed by it.
type Stall struct {
	Before int
	For    time.Duration
}

func (s Stall) String() string { return fmt.Sprintf("%s@%d", s.For, s.Before) }

// ParseStall parses a --stall value: DURATION@FRAME, e.g. "2s@5" or
// "500ms@0". A bare number is a number of seconds ("1.5@3").
func ParseStall(s string) (Stall, error) {
	bad := func(why string) (Stall, error) {
		return Stall{}, fmt.Errorf("--stall %s: %s (want DURATION@FRAME, e.g. 2s@5)", sessions.CleanShort(strconv.Quote(s), 60), why)
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return bad("no @")
	}
	ds, ns := strings.TrimSpace(s[:at]), strings.TrimSpace(s[at+1:])
	if ds == "" {
		return bad("no duration before the @")
	}
	d, err := time.ParseDuration(ds)
	if err != nil {
		f, ferr := strconv.ParseFloat(ds, 64)
		if ferr != nil || math.IsNaN(f) || f > 1e9 || f < -1e9 {
			return bad(fmt.Sprintf("%s is not a duration", sessions.CleanShort(strconv.Quote(ds), 40)))
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 {
		return bad("the duration is negative")
	}
	if ns == "" {
		return bad("no frame index after the @")
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 0 {
		return bad(fmt.Sprintf("%s is not a frame index (a whole number from 0)", sessions.CleanShort(strconv.Quote(ns), 40)))
	}
	return Stall{Before: n, For: d}, nil
}

// CheckFaults says which fault flags name frames the capture does not have
// (the handler ignores them). It returns nil when every fault applies.
func (r *Replay) CheckFaults(f Faults) error {
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
func buildReplayPlan(chunks []ReplayChunk, spans []replaySpan, f Faults) []replayOp {
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
			x.garbled = garbleBlock(streamBytes(spans[n].off, spans[n].end))
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

// sseDataSpan is a `data` line of an SSE block: the line starts at ls, its
// value is [vs, le).
type sseDataSpan struct{ ls, vs, le int }

// sseDataLines finds the `data` lines of an SSE block.
func sseDataLines(raw []byte) []sseDataSpan {
	var out []sseDataSpan
	for i := 0; i < len(raw); {
		ls := i
		le := ls
		for le < len(raw) && raw[le] != '\n' && raw[le] != '\r' {
			le++
		}
		i = le
		if i < len(raw) {
			if raw[i] == '\r' && i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			i++
		}
		line := raw[ls:le]
		if len(line) == 0 || line[0] == ':' {
			continue
		}
		name, vs := line, le
		if c := bytes.IndexByte(line, ':'); c >= 0 {
			name = line[:c]
			vs = ls + c + 1
			if vs < le && raw[vs] == ' ' {
				vs++
			}
		}
		if string(name) == "data" {
			out = append(out, sseDataSpan{ls, vs, le})
		}
	}
	return out
}

// sseJoinData is the block's data buffer: the values joined by LF.
func sseJoinData(raw []byte, spans []sseDataSpan) []byte {
	var b []byte
	for i, s := range spans {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, raw[s.vs:s.le]...)
	}
	return b
}

// garbleBlock returns a copy of an SSE block whose data is corrupted. JSON
// data gets a '#' in place of the ':' or ',' (outside strings) nearest its
// middle, so it is no longer valid JSON while most of it still reads; other
// data gets the byte nearest its middle changed. The block keeps its size
// and line structure, except when the data is empty: its first data line
// then becomes "data: #garbled".
func garbleBlock(raw []byte) []byte {
	out := bytes.Clone(raw)
	spans := sseDataLines(out)
	if len(spans) == 0 {
		return out
	}
	total := len(spans) - 1
	for _, s := range spans {
		total += s.le - s.vs
	}
	if total == len(spans)-1 { // every value empty
		s := spans[0]
		g := append([]byte{}, out[:s.ls]...)
		g = append(g, "data: #garbled"...)
		return append(g, out[s.le:]...)
	}
	mid := total / 2
	if json.Valid(sseJoinData(out, spans)) {
		best, bestDist := -1, 0
		pos, inStr, esc := 0, false, false
		for i, s := range spans {
			if i > 0 {
				pos++ // the LF between lines
			}
			for p := s.vs; p < s.le; p, pos = p+1, pos+1 {
				c := out[p]
				switch {
				case esc:
					esc = false
				case inStr && c == '\\':
					esc = true
				case c == '"':
					inStr = !inStr
				case !inStr && (c == ':' || c == ','):
					if d := absInt(pos - mid); best < 0 || d < bestDist {
						best, bestDist = p, d
					}
				}
			}
		}
		if best >= 0 {
			orig := out[best]
			out[best] = '#'
			if !json.Valid(sseJoinData(out, spans)) {
				return out
			}
			out[best] = orig
		}
		// '#' cannot start a JSON value, and everything before the first
		// non-empty value is line feeds.
		for _, s := range spans {
			if s.le > s.vs {
				out[s.vs] = '#'
				return out
			}
		}
		return out
	}
	// Not JSON: change the byte nearest the middle, an ASCII one if there
	// is one (to keep UTF-8 valid).
	type cand struct{ p, d int }
	var ascii, anyb cand
	ascii.p, anyb.p = -1, -1
	pos := 0
	for i, s := range spans {
		if i > 0 {
			pos++
		}
		for p := s.vs; p < s.le; p, pos = p+1, pos+1 {
			c := out[p]
			if c == '#' {
				continue
			}
			d := absInt(pos - mid)
			if anyb.p < 0 || d < anyb.d {
				anyb = cand{p, d}
			}
			if c < 0x80 && (ascii.p < 0 || d < ascii.d) {
				ascii = cand{p, d}
			}
		}
	}
	switch {
	case ascii.p >= 0:
		out[ascii.p] = '#'
	case anyb.p >= 0:
		out[anyb.p] = '#'
	default: // all '#'
		for _, s := range spans {
			if s.le > s.vs {
				out[s.vs] = '!'
				break
			}
		}
	}
	return out
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
