package pipeline

import (
	"bytes"
	"time"

	"framescope/decode"
	"framescope/sessions"
)

// Tiny batches carry a flood of tiny blocks (`data: x` ten million times)
// from the reader stage to the checking stage. A full entry is 512 bytes
// for a block of nine: writing it on one core and reading it on the other
// cost more than the block's whole check, so such a flood used to run on
// one core. In a tiny batch the reader decodes each block itself and, when
// the frame has no members (not JSON, `{}`, [DONE]) and the block nothing
// but data, sends a tinyEntry: the block's place in the arena and its
// decode.BareFrame, one cache line with no pointer. A block that repeats
// the one before it byte for byte, right after it, is counted in that
// entry instead (a flood repeats one block: the decoding is the same, only
// the offset and index move on), so a flood crosses between the cores in a
// few entries per chunk. The checking stage rebuilds each block in one
// scratch entry that stays in its cache. Anything else in a tiny batch (a
// comment, an id, a frame with members, a capture problem) goes as a full
// entry, in order.
const tinyMaxEntries = 4096 // a tiny batch is sent once it holds this many entries

// tinyArena is the least arena a tiny batch starts with.
const tinyArena = 64 << 10

// growTiny gives a tiny batch its whole capacity before the first entry.
// Grown by append, a batch's first few entries and bytes sat in small heap
// objects that could share a cache line with another batch's, which the
// other core was reading: every block's run count update was a miss.
func (b *pipeBatch) growTiny() {
	if !b.tinyMode {
		return
	}
	if cap(b.tiny) < tinyMaxEntries {
		b.tiny = make([]tinyEntry, 0, tinyMaxEntries)
	}
	if cap(b.arena) < tinyArena {
		b.arena = make([]byte, 0, tinyArena)
	}
}

// tinyEntry is a run of n identical blocks of a tiny batch (or a full
// entry's place in the order).
type tinyEntry struct {
	offset  int64 // the first block's
	arrival time.Duration
	bare    decode.BareFrame // the first block's
	rawAt   uint32           // the block's bytes: arena[rawAt:rawAt+rawLen]
	rawLen  uint32
	dataAt  uint32 // its data: raw[dataAt:dataAt+dataLen], when tinyData
	dataLen uint32
	n       uint32
	full    int32 // ≥ 0: the entry is entries[full], a full entry
	flags   tinyFlags
}

type tinyFlags uint8

const (
	tinyHasArrival tinyFlags = 1 << iota
	tinyData                 // Data is set (nil for `data:` with no value)
)

// tinyMaxRaw bounds a tiny entry's block (its offsets are 32-bit).
const tinyMaxRaw = 1 << 24

// addTiny adds the block ev to a tiny batch, numbering it with dec; f is
// the reader's scratch frame (ev may be its Event).
func (b *pipeBatch) addTiny(ev *decode.Event, f *decode.Frame, dec *decode.Decoder, arrival time.Duration, hasArrival bool) {
	if !ev.Dispatched() || !b.bareEvent(ev) {
		index := -1
		if ev.Dispatched() {
			index = dec.Number()
		}
		b.addTinyFull(ev, index, arrival, hasArrival)
		return
	}
	var flags tinyFlags
	if hasArrival {
		flags |= tinyHasArrival
	}
	var dataAt uint32
	if ev.Data != nil {
		flags |= tinyData
		at, _ := dataWithin(ev)
		dataAt = uint32(at)
	}
	if n := len(b.tiny); n > 0 {
		t := &b.tiny[n-1]
		if t.full < 0 && t.flags == flags && t.arrival == arrival && t.rawLen == uint32(len(ev.Raw)) &&
			t.dataAt == dataAt && t.dataLen == uint32(len(ev.Data)) &&
			ev.Offset == t.offset+int64(t.n)*int64(t.rawLen) &&
			bytes.Equal(b.arena[t.rawAt:t.rawAt+t.rawLen], ev.Raw) {
			dec.Number() // the same bytes decode the same: only the index moves on
			t.n++
			return
		}
	}
	dec.DecodeInto(f, ev, arrival, hasArrival)
	bare, ok := f.Bare()
	if !ok {
		b.addTinyFull(ev, f.Index, arrival, hasArrival)
		return
	}
	if !b.tinyIDSet {
		b.tinyLastID, b.tinyIDSet = ev.LastEventID, true
	}
	b.tiny = append(b.tiny, tinyEntry{offset: ev.Offset, arrival: arrival, bare: bare,
		rawAt: uint32(len(b.arena)), rawLen: uint32(len(ev.Raw)), dataAt: dataAt, dataLen: uint32(len(ev.Data)),
		n: 1, full: -1, flags: flags})
	b.arena = append(b.arena, ev.Raw...)
}

// addTinyFull adds ev to a tiny batch as a full entry, numbered index.
func (b *pipeBatch) addTinyFull(ev *decode.Event, index int, arrival time.Duration, hasArrival bool) {
	b.tinyFull++
	b.tiny = append(b.tiny, tinyEntry{full: int32(len(b.entries))})
	b.add(ev, arrival, hasArrival)
	b.entries[len(b.entries)-1].frame.Index = index
}

// addTinyProblem adds a capture problem to a tiny batch, in order.
func (b *pipeBatch) addTinyProblem(p sessions.Problem) {
	b.tinyFull++
	b.tiny = append(b.tiny, tinyEntry{full: int32(len(b.entries))})
	b.addProblem(p)
}

// bareEvent reports whether a tinyEntry can hold ev: nothing but data,
// the data a run of the block's own bytes, and the batch's last event ID.
func (b *pipeBatch) bareEvent(ev *decode.Event) bool {
	if ev.HasType || ev.HasID || ev.HasRetry || ev.Unknown != 0 || len(ev.Comments) != 0 || ev.Oversized ||
		len(ev.Raw) >= tinyMaxRaw || (b.tinyIDSet && ev.LastEventID != b.tinyLastID) {
		return false
	}
	if ev.Data == nil {
		return true
	}
	_, ok := dataWithin(ev)
	return ok
}

// dataWithin reports whether ev's data is a run of its block's own bytes,
// and where in the block it starts (several data lines are joined in a
// buffer of the framer's instead).
func dataWithin(ev *decode.Event) (int, bool) {
	at := cap(ev.Raw) - cap(ev.Data)
	return at, at >= 0 && at+len(ev.Data) <= len(ev.Raw) && len(ev.Data) > 0 && &ev.Raw[at] == &ev.Data[0]
}

// expand rebuilds block k of the run t into e, as a full entry would have
// held it.
func (b *pipeBatch) expand(t *tinyEntry, k uint32, e *pipeEntry) {
	ev := &e.frame.Event
	end := t.rawAt + t.rawLen
	raw := b.arena[t.rawAt:end:end]
	ev.Offset, ev.Raw, ev.Size = t.offset+int64(k)*int64(t.rawLen), raw, int64(t.rawLen)
	ev.Type, ev.HasType, ev.ID, ev.HasID = "", false, "", false
	ev.LastEventID, ev.Retry, ev.HasRetry = b.tinyLastID, 0, false
	ev.Comments, ev.Unknown, ev.Truncated, ev.Oversized = nil, 0, false, false
	ev.HasData, ev.Data = true, nil
	if t.flags&tinyData != 0 {
		de := t.dataAt + t.dataLen
		ev.Data = raw[t.dataAt:de:de]
	}
	e.arrival, e.hasArrival, e.problem = t.arrival, t.flags&tinyHasArrival != 0, nil
	e.frame.SetBare(&t.bare, int(k), e.arrival, e.hasArrival)
}

// each hands every entry of a sealed batch to handle, in stream order.
// scratch holds the tiny entries' blocks in turn.
func (b *pipeBatch) each(scratch *pipeEntry, handle func(*pipeEntry)) {
	if !b.tinyMode {
		for i := range b.entries {
			e := &b.entries[i]
			if i >= b.rawFrom && e.problem == nil && e.frame.Event.Dispatched() {
				b.decode(e)
			}
			handle(e)
		}
		return
	}
	for i := range b.tiny {
		t := &b.tiny[i]
		if t.full >= 0 {
			handle(&b.entries[t.full])
			continue
		}
		for k := range t.n {
			b.expand(t, k, scratch)
			handle(scratch)
		}
	}
}
