package decode

import (
	"bytes"
	"errors"
	"io"
	"math"
)

// Framer splits an SSE byte stream into blocks (Events) incrementally, as the
// bytes arrive, following the WHATWG HTML "event stream interpretation"
// rules. It never alters the bytes it reports and never panics.
//
// Blocks that lie wholly inside one Feed call are reported with slices
// pointing into the caller's buffer (no copy); only a block left open at the
// end of a Feed is copied into an internal, reused buffer. The Event passed
// to emit is reused between calls.
//
// One deliberate delay: when the blank line that ends a block is a lone CR
// and is the last byte of a Feed, the block is emitted by the next Feed (or
// Close), because an LF following it would belong to that line ending and so
// to the block's Raw bytes.
type Framer struct {
	max int64

	// offset is the stream position of the first byte of the current Feed
	// (the count of bytes consumed by earlier Feeds).
	offset  int64
	bomN    int // BOM bytes matched so far at the stream start
	bomDone bool

	// pendingCR: the last byte fed was a CR that ended a line; an LF at the
	// start of the next Feed completes that line ending.
	pendingCR bool
	// pendingEmit: the held block is complete (its blank line was a CR at
	// the end of the last Feed) and waits only for a possible LF.
	pendingEmit bool
	// emittingHeld: the block being emitted is that held one (see
	// EmittingHeld).
	emittingHeld bool

	// A block begun in an earlier Feed ("held"). When !over, buf holds the
	// block's bytes so far and buf[lineOff:] is its current partial line.
	// When over (the block exceeded max), only the head of the current
	// line is kept in buf and lineLen counts the line's full length.
	inBlock  bool
	over     bool
	blockOff int64
	blockLen int64
	lineOff  int
	lineLen  int64
	buf      []byte

	// Fields of the block being parsed. Spans are offsets relative to the
	// block's first byte, so they stay valid when the block moves from the
	// caller's buffer into buf.
	nData    int
	data0    span   // value of the first data line (used when nData == 1)
	scratch  []byte // joined data values, each + LF (used when nData > 1)
	comSpans []span
	hasType  bool
	typeBuf  []byte
	hasID    bool
	idBuf    []byte
	hasRetry bool
	retry    int64
	unknown  int

	lastID string
	// idArena is the block event ids are carved from (sse_id.go): only
	// ever appended to, never reused.
	idArena []byte

	ev Event
	// out is where blocks are emitted (EmitInto); nil: ev.
	out      *Event
	comments [][]byte
	// types holds the event types seen (at most maxTypes, each at most
	// 64 bytes), so that a repeated type does not allocate. A fixed ring
	// of recent ones thrashed when a stream used one type more than it
	// had slots (a dialect may name nine or more).
	types     map[string]string
	typeCache [16]string
}

const maxTypes = 256

type span struct{ s, e int }

var bom = [3]byte{0xEF, 0xBB, 0xBF}

// NewFramer returns a Framer whose maximum event size is DefaultMaxEventSize.
func NewFramer() *Framer {
	return &Framer{max: DefaultMaxEventSize}
}

// SetMaxEventSize sets the largest block (in bytes, as on the wire,
// including its terminating blank line) that is decoded normally; larger
// blocks are emitted with Oversized set and without Raw, Data or Comments.
// n <= 0 restores DefaultMaxEventSize.
//
// In an oversized block, a single line longer than n is only partly looked
// at: an `event` line that long sets HasType with an empty Type, and an
// `id` or `retry` line that long is ignored.
func (f *Framer) SetMaxEventSize(n int64) {
	if n <= 0 {
		n = DefaultMaxEventSize
	}
	f.max = n
}

// EmitInto makes the framer fill *ev, which the caller owns, for every
// block it emits (nil: an Event of its own). A one-core pipeline decodes
// the block where it lies, in its frame, instead of copying 192 bytes per
// block out of the framer: a tenth of an alarm flood's time. The caller
// must not change *ev between emits in ways it relies on: every field is
// written anew for each block.
func (f *Framer) EmitInto(ev *Event) { f.out = ev }

// Offset returns the number of bytes consumed so far.
func (f *Framer) Offset() int64 {
	if !f.bomDone {
		return f.offset + int64(f.bomN)
	}
	return f.offset
}

// HoldsComplete reports whether, after a Feed, the framer holds a complete
// block: its blank line was a lone CR, the last byte fed, and the block
// waits only to learn whether an LF follows (its Raw would end in it).
// The next Feed or Close emits it first, and EmittingHeld is true during
// that emit: a live reader times the block by the read that completed it
// (HoldsComplete true), not by the read that released it.
func (f *Framer) HoldsComplete() bool { return f.pendingEmit }

// EmittingHeld reports, during an emit, whether the block was completed by
// an earlier Feed (see HoldsComplete).
func (f *Framer) EmittingHeld() bool { return f.emittingHeld }

// Release emits the held complete block (HoldsComplete) now, without
// waiting to learn whether an LF follows its CR: an LF that starts the
// next Feed is then skipped, between blocks, in no event's Raw. A live
// reader calls it after each Feed so that an event is dispatched when its
// bytes arrive; the block's Raw then ends in the CR.
func (f *Framer) Release(emit func(*Event)) {
	if !f.pendingEmit {
		return
	}
	f.pendingEmit = false // pendingCR stays: a leading LF is skipped
	f.emitHeld(false, emit)
}

// Reset makes the framer ready for a new stream: offset 0, no last event
// ID, a BOM accepted again. The maximum event size and the internal buffers
// are kept.
func (f *Framer) Reset() {
	f.offset = 0
	f.bomN = 0
	f.bomDone = false
	f.pendingCR = false
	f.pendingEmit = false
	f.lastID = ""
	f.resetBlock()
}

func (f *Framer) resetBlock() {
	f.inBlock = false
	f.over = false
	f.blockOff = 0
	f.blockLen = 0
	f.lineOff = 0
	f.lineLen = 0
	f.buf = releaseBig(f.buf)
	f.nData = 0
	f.scratch = releaseBig(f.scratch)
	f.comSpans = f.comSpans[:0]
	f.hasType = false
	f.typeBuf = f.typeBuf[:0]
	f.hasID = false
	f.idBuf = f.idBuf[:0]
	f.hasRetry = false
	f.retry = 0
	f.unknown = 0
}

// Feed consumes the next bytes of the stream and calls emit for every block
// completed by them, in order. p may be reused by the caller after Feed
// returns. The *Event and its slices are valid only during the emit call.
func (f *Framer) Feed(p []byte, emit func(*Event)) {
	if len(p) == 0 {
		return
	}
	if !f.bomDone {
		for len(p) > 0 && f.bomN < len(bom) && p[0] == bom[f.bomN] {
			f.bomN++
			p = p[1:]
		}
		switch {
		case f.bomN == len(bom):
			f.bomDone = true
			f.bomN = 0
			f.offset += int64(len(bom))
		case len(p) == 0:
			return // still possibly a BOM
		default:
			// Not a BOM: the bytes matched so far are ordinary data.
			f.flushBOMPrefix(emit)
		}
		if len(p) == 0 {
			return
		}
	}
	f.feed(p, emit)
}

func (f *Framer) flushBOMPrefix(emit func(*Event)) {
	f.bomDone = true
	k := f.bomN
	f.bomN = 0
	if k > 0 {
		f.feed(bom[:k], emit)
	}
}

// Close ends the stream (EOF). A block left without its blank line is
// emitted with Truncated set if it had any line; its final line, when it
// lacks a line ending, is parsed as if it had one, so that its fields can be
// shown. After Close the framer may be Reset.
func (f *Framer) Close(emit func(*Event)) {
	if !f.bomDone {
		f.flushBOMPrefix(emit)
	}
	f.pendingCR = false
	if f.pendingEmit {
		f.pendingEmit = false
		f.emittingHeld = true
		f.emitHeld(false, emit)
		f.emittingHeld = false
		return
	}
	if !f.inBlock {
		return
	}
	if f.partialLine() {
		f.endLine()
	}
	f.emitHeld(true, emit)
}

// ReadEvents reads r to its end with a 64 KiB buffer, feeding a new Framer,
// and Closes it at EOF. A read error other than io.EOF is returned after the
// framer has been Closed.
func ReadEvents(r io.Reader, emit func(*Event)) error {
	f := NewFramer()
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			f.Feed(buf[:n], emit)
		}
		if err != nil {
			f.Close(emit)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func (f *Framer) feed(p []byte, emit func(*Event)) {
	n := len(p)
	i := 0
	if f.pendingCR {
		f.pendingCR = false
		if p[0] == '\n' {
			i = 1
			if f.inBlock {
				f.addTerm(p[:1])
			}
		}
	}
	if f.pendingEmit {
		f.pendingEmit = false
		f.emittingHeld = true
		f.emitHeld(false, emit)
		f.emittingHeld = false
	} else if f.inBlock {
		i = f.cont(p, i, emit)
	}
	if i < n {
		f.fast(p, i, emit)
	}
	f.offset += int64(n)
}

// fast parses p[i:] starting between blocks. Blocks complete within p are
// emitted straight from p; an unfinished one is handed to carry.
func (f *Framer) fast(p []byte, i int, emit func(*Event)) {
	n := len(p)
	// Cached positions of the next LF and CR at or after i (n: none left).
	nl, cr := -1, -1
	for i < n {
		switch p[i] {
		case '\n':
			i++
			continue
		case '\r':
			i++
			if i == n {
				f.pendingCR = true
			} else if p[i] == '\n' {
				i++
			}
			continue
		}
		bs := i
		base := p[bs:]
		for {
			// A non-blank line starts at i.
			if nl < i {
				nl = bytes.IndexByte(p[i:], '\n')
				if nl < 0 {
					nl = n
				} else {
					nl += i
				}
			}
			if cr < i {
				cr = bytes.IndexByte(p[i:], '\r')
				if cr < 0 {
					cr = n
				} else {
					cr += i
				}
			}
			le := min(nl, cr)
			if le == n {
				f.carry(p, bs, i)
				return
			}
			f.line(base, i-bs, le-bs, int64(le-i) > f.max)
			i = le + 1
			if p[le] == '\r' {
				if i == n {
					f.pendingCR = true
				} else if p[i] == '\n' {
					i++
				}
			}
			if i == n {
				f.carry(p, bs, n)
				return
			}
			switch p[i] {
			case '\n':
				i++
			case '\r':
				i++
				if i == n {
					f.carry(p, bs, n)
					f.pendingCR = true
					f.pendingEmit = true
					return
				}
				if p[i] == '\n' {
					i++
				}
			default:
				continue
			}
			f.emitBlock(base[:i-bs], f.offset+int64(bs), int64(i-bs), false, false, emit)
			f.resetBlock()
			break
		}
	}
}

// carry keeps the unfinished block p[bs:] (whose current partial line
// starts at ls) for the next Feed.
func (f *Framer) carry(p []byte, bs, ls int) {
	n := len(p)
	f.inBlock = true
	f.blockOff = f.offset + int64(bs)
	f.blockLen = int64(n - bs)
	if f.blockLen > f.max {
		f.over = true
		f.scratch = releaseBig(f.scratch)
		f.comSpans = f.comSpans[:0]
		f.lineLen = int64(n - ls)
		f.buf = appendCapped(f.buf[:0], p[ls:ls+int(min(f.lineLen, f.headCap()))], f.headCap())
		return
	}
	f.buf = appendCapped(f.buf[:0], p[bs:], f.max)
	f.lineOff = ls - bs
}

func (f *Framer) headCap() int64 { return max(f.max, 8) }

// bigBuffer is the capacity past which a buffer is not kept for the next
// block: a framer that once held a 64 MiB event does not keep 64 MiB.
const bigBuffer = 4 << 20

// releaseBig empties b, dropping its storage when it is big.
func releaseBig(b []byte) []byte {
	if cap(b) > bigBuffer {
		return nil
	}
	return b[:0]
}

// partialLine reports whether a held block has an unfinished line.
func (f *Framer) partialLine() bool {
	if f.over {
		return f.lineLen > 0
	}
	return f.lineOff < len(f.buf)
}

// cont continues a held block with p[i:]. It returns the index just past
// the block's blank line, or len(p) if the block is still open.
func (f *Framer) cont(p []byte, i int, emit func(*Event)) int {
	n := len(p)
	for i < n {
		if !f.partialLine() {
			switch p[i] {
			case '\n':
				f.addTerm(p[i : i+1])
				f.emitHeld(false, emit)
				return i + 1
			case '\r':
				if i+1 == n {
					f.addTerm(p[i:])
					f.pendingCR = true
					f.pendingEmit = true
					return n
				}
				k := 1
				if p[i+1] == '\n' {
					k = 2
				}
				f.addTerm(p[i : i+k])
				f.emitHeld(false, emit)
				return i + k
			}
		}
		rest := p[i:]
		e := bytes.IndexByte(rest, '\n')
		if e < 0 {
			e = len(rest)
		}
		if c := bytes.IndexByte(rest[:e], '\r'); c >= 0 {
			e = c
		}
		if e == len(rest) {
			f.addContent(rest)
			return n
		}
		f.addContent(rest[:e])
		f.endLine()
		j := i + e
		k := 1
		if p[j] == '\r' {
			if j+1 == n {
				f.pendingCR = true
			} else if p[j+1] == '\n' {
				k = 2
			}
		}
		f.addTerm(p[j : j+k])
		i = j + k
	}
	return n
}

// addContent appends bytes of the current line to a held block. A block
// about to exceed the maximum size goes over before the bytes are added,
// so buf never holds more than the maximum.
func (f *Framer) addContent(b []byte) {
	if !f.over && f.blockLen+int64(len(b)) > f.max {
		f.toOver()
	}
	f.blockLen += int64(len(b))
	if f.over {
		f.lineLen += int64(len(b))
		if room := f.headCap() - int64(len(f.buf)); room > 0 {
			f.buf = appendCapped(f.buf, b[:min(room, int64(len(b)))], f.headCap())
		}
		return
	}
	f.buf = appendCapped(f.buf, b, f.max)
}

// addTerm appends line-ending bytes to a held block.
func (f *Framer) addTerm(b []byte) {
	if !f.over && f.blockLen+int64(len(b)) > f.max {
		f.lineOff = len(f.buf) // the line has ended: no head to keep
		f.toOver()
	}
	f.blockLen += int64(len(b))
	if f.over {
		return
	}
	f.buf = appendCapped(f.buf, b, f.max)
	f.lineOff = len(f.buf)
}

// appendCapped appends b to buf, doubling its capacity when it must grow,
// and going straight to limit once past a quarter of it (unless buf and b
// need more). append grows a big slice by a quarter at a time: a held
// 64 MiB line was copied some twenty times, leaving ~5× the limit in
// garbage (a 1 GB unterminated line cost 304 MB of memory). Here the
// buffer never exceeds the limit, and all its steps together allocate at
// most 1.5× the limit (the quarter steps sum to half of it), which bounds
// the peak, garbage included. Pages of the last step that are not written
// are never touched, so a smaller event does not cost the whole limit.
func appendCapped(buf, b []byte, limit int64) []byte {
	need := len(buf) + len(b)
	if need > cap(buf) {
		lim := int(min(limit, math.MaxInt))
		c := max(2*cap(buf), need, 4096)
		if c > lim/4 {
			c = max(need, lim)
		}
		nb := make([]byte, len(buf), c)
		copy(nb, buf)
		buf = nb
	}
	return append(buf, b...)
}

// toOver drops a held block's bytes once it exceeds the maximum size,
// keeping only the head of its current line.
func (f *Framer) toOver() {
	f.over = true
	f.scratch = releaseBig(f.scratch)
	f.comSpans = f.comSpans[:0]
	part := f.buf[f.lineOff:]
	f.lineLen = int64(len(part))
	h := copy(f.buf, part[:min(int64(len(part)), f.headCap())])
	f.buf = f.buf[:h]
	f.lineOff = 0
}

// endLine parses the now complete current line of a held block.
func (f *Framer) endLine() {
	if f.over {
		f.line(f.buf, 0, len(f.buf), f.lineLen > f.max)
		f.buf = f.buf[:0]
		f.lineLen = 0
		return
	}
	f.line(f.buf, f.lineOff, len(f.buf), int64(len(f.buf)-f.lineOff) > f.max)
	f.lineOff = len(f.buf)
}

// line processes the non-empty line base[ls:le]. Unless the block is over,
// base starts at the block's first byte. long says the line is longer than
// the maximum event size (only possible in an oversized block; then base
// may hold just its head).
func (f *Framer) line(base []byte, ls, le int, long bool) {
	rec := !f.over && int64(le) <= f.max
	line := base[ls:le]
	if len(line) >= 5 && string(line[:5]) == "data:" {
		vs := ls + 5
		if vs < le && base[vs] == ' ' {
			vs++
		}
		f.addData(base, vs, le, rec)
		return
	}
	if len(line) >= 6 && string(line[:6]) == "event:" && !long {
		vs := ls + 6
		if vs < le && base[vs] == ' ' {
			vs++
		}
		f.hasType = true
		f.typeBuf = append(f.typeBuf[:0], base[vs:le]...)
		return
	}
	if line[0] == ':' {
		if rec {
			f.comSpans = append(f.comSpans, span{ls + 1, le})
		}
		return
	}
	name := line
	vs := le
	if c := bytes.IndexByte(line, ':'); c >= 0 {
		name = line[:c]
		vs = ls + c + 1
		if vs < le && base[vs] == ' ' {
			vs++
		}
	}
	val := base[vs:le]
	switch string(name) {
	case "data":
		f.addData(base, vs, le, rec)
	case "event":
		f.hasType = true
		f.typeBuf = f.typeBuf[:0]
		if !long {
			f.typeBuf = append(f.typeBuf, val...)
		}
	case "id":
		if long || bytes.IndexByte(val, 0) >= 0 {
			return
		}
		f.hasID = true
		f.idBuf = append(f.idBuf[:0], val...)
	case "retry":
		if long {
			return
		}
		if r, ok := parseRetry(val); ok {
			f.retry = r
			f.hasRetry = true
		}
	default:
		f.unknown++
	}
}

func (f *Framer) addData(base []byte, vs, le int, rec bool) {
	f.nData++
	if !rec {
		return
	}
	switch f.nData {
	case 1:
		f.data0 = span{vs, le}
	case 2:
		f.scratch = appendCapped(f.scratch[:0], base[f.data0.s:f.data0.e], f.max)
		f.scratch = append(f.scratch, '\n')
		fallthrough
	default:
		f.scratch = appendCapped(f.scratch, base[vs:le], f.max)
		f.scratch = append(f.scratch, '\n')
	}
}

// parseRetry accepts a non-empty run of ASCII digits that fits an int64.
func parseRetry(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// emitHeld emits the held block and forgets it.
func (f *Framer) emitHeld(truncated bool, emit func(*Event)) {
	f.emitBlock(f.buf, f.blockOff, f.blockLen, truncated, f.over, emit)
	f.resetBlock()
}

// emitBlock fills the reused Event from the parsed fields. base holds the
// block's bytes unless over.
func (f *Framer) emitBlock(base []byte, off, size int64, truncated, over bool, emit func(*Event)) {
	over = over || size > f.max
	ev := f.out
	if ev == nil {
		ev = &f.ev
	}
	// Field by field: cheaper than assigning a whole Event literal.
	ev.Offset = off
	ev.Size = size
	ev.HasType = f.hasType
	ev.Type = ""
	if f.hasType {
		ev.Type = f.typeString(f.typeBuf)
	}
	ev.HasID = f.hasID
	ev.ID = ""
	if f.hasID {
		if f.lastID != string(f.idBuf) {
			f.lastID = f.idString(f.idBuf)
		}
		ev.ID = f.lastID
	}
	ev.LastEventID = f.lastID
	ev.HasRetry = f.hasRetry
	ev.Retry = f.retry
	ev.Unknown = f.unknown
	ev.Truncated = truncated
	ev.Oversized = over
	ev.HasData = f.nData > 0
	ev.Raw = nil
	ev.Data = nil
	ev.Comments = nil
	if !over {
		ev.Raw = base[:size]
		switch {
		case f.nData == 1:
			if f.data0.e > f.data0.s {
				ev.Data = base[f.data0.s:f.data0.e]
			}
		case f.nData > 1 && len(f.scratch) > 0:
			ev.Data = f.scratch[:len(f.scratch)-1]
		}
		if len(f.comSpans) > 0 {
			f.comments = f.comments[:0]
			for _, s := range f.comSpans {
				f.comments = append(f.comments, base[s.s:s.e])
			}
			ev.Comments = f.comments
		}
	}
	emit(ev)
}

// typeString converts an event type to a string, reusing recent values so
// that a repeated type does not allocate.
func (f *Framer) typeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	// A direct-mapped cache of 16 answers the common case without hashing
	// the key; the map keeps every type seen.
	h := (len(b)*7 + int(b[0]) + int(b[len(b)-1])*3) & (len(f.typeCache) - 1)
	if c := f.typeCache[h]; c == string(b) {
		return c
	}
	if s, ok := f.types[string(b)]; ok { // no allocation for the key
		f.typeCache[h] = s
		return s
	}
	s := string(b)
	if len(s) <= 64 {
		f.typeCache[h] = s
	}
	if len(s) <= 64 && len(f.types) < maxTypes {
		if f.types == nil {
			f.types = make(map[string]string, 16)
		}
		f.types[s] = s
	}
	return s
}
