package store

import (
	"encoding/binary"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// Rows are stored in chunks of chunkRows. The newest chunk is a []rowRec
// (48 bytes a row: rows are appended to it and read back at once); a full
// chunk is frozen into a delta encoding, most rows a few bytes: each row
// is a mask byte saying which fields differ from what the previous row
// predicts (the next offset, the same size, time, turn, type and flags,
// the next frame), then those fields as varints. A flood of identical
// frames is one byte a row; the 1M-frame benchmark capture ~9. A frozen
// chunk is decoded when a row of it is read (in tens of
// microseconds) a block of packBlock rows at a time, and the last decoded
// block is kept, so a screen of rows costs one or two decodes. The mutable part of a row, sev, stays a byte array
// beside the encoding.
//
// Measured at 1,000,000 frames (BenchmarkOpen1M) and on the 90 MB flood
// (10,485,760 frames, BenchmarkOpenFlood): see docs/performance.md.

type rowChunk struct {
	recs  []rowRec // the open chunk (nil once frozen)
	enc   []byte   // the frozen chunk's rows
	marks []uint32 // where each block of packBlock rows starts in enc
	sev   []uint8  // the frozen chunk's rowRec.sev, by row
	n     int      // rows in a frozen chunk
}

// packBlock is the unit of decoding: the first row of each block is
// encoded in full, so a row is read by decoding at most packBlock rows (a
// few microseconds), not its whole chunk (rows with alarms, scattered over
// a million rows, are read one per chunk when the alarms filter is built).
const packBlock = 64

const (
	maskOff = 1 << iota
	maskSize
	maskAt
	maskFrame
	maskTurn
	maskTyp
	maskBits
)

// bits packs a row's small fields (kind, terminality, problem, flags).
func (rc *rowRec) bits() uint32 {
	return uint32(rc.kind) | uint32(rc.term)<<8 | uint32(rc.prob)<<16 | uint32(rc.flags)<<24
}

func (rc *rowRec) setBits(b uint32) {
	rc.kind, rc.term, rc.prob, rc.flags = RowKind(b), invariants.Terminality(b>>8), decode.Problem(b>>16), rowFlags(b>>24)
}

// predict is the row that follows p when nothing changes.
func predict(p *rowRec, kind RowKind) rowRec {
	next := rowRec{off: p.off + p.size, size: p.size, at: p.at, frame: p.frame, turn: p.turn, typ: p.typ}
	if kind == RowFrame {
		next.frame++
	}
	return next
}

// freeze encodes a full chunk.
func freeze(recs []rowRec) *rowChunk {
	c := &rowChunk{n: len(recs), sev: make([]uint8, len(recs))}
	enc := make([]byte, 0, len(recs)*4)
	var prev rowRec
	prev.frame = -1
	prevBits := uint32(0)
	for i := range recs {
		rc := &recs[i]
		c.sev[i] = rc.sev
		p := predict(&prev, rc.kind)
		first := i%packBlock == 0
		if first {
			p = rowRec{frame: -1 << 31} // a block's first row says everything
			c.marks = append(c.marks, uint32(len(enc)))
		}
		var m byte
		if rc.off != p.off {
			m |= maskOff
		}
		if rc.size != p.size {
			m |= maskSize
		}
		if rc.at != p.at {
			m |= maskAt
		}
		if rc.frame != p.frame {
			m |= maskFrame
		}
		if rc.turn != p.turn || first {
			m |= maskTurn
		}
		if rc.typ != p.typ || first {
			m |= maskTyp
		}
		b := rc.bits()
		if b != prevBits || first {
			m |= maskBits
		}
		enc = append(enc, m)
		if m&maskOff != 0 {
			enc = binary.AppendVarint(enc, rc.off-p.off)
		}
		if m&maskSize != 0 {
			enc = binary.AppendVarint(enc, rc.size-p.size)
		}
		if m&maskAt != 0 {
			enc = binary.AppendVarint(enc, int64(rc.at-p.at))
		}
		if m&maskFrame != 0 {
			enc = binary.AppendVarint(enc, int64(rc.frame)-int64(p.frame))
		}
		if m&maskTurn != 0 {
			enc = binary.AppendVarint(enc, int64(rc.turn)-int64(p.turn))
		}
		if m&maskTyp != 0 {
			enc = binary.AppendUvarint(enc, uint64(rc.typ))
		}
		if m&maskBits != 0 {
			enc = binary.AppendUvarint(enc, uint64(b))
		}
		prev, prevBits = *rc, b
	}
	c.enc = append([]byte(nil), enc...) // exactly sized
	return c
}

// blocks is the number of blocks of the frozen chunk.
func (c *rowChunk) blocks() int { return len(c.marks) }

// thaw decodes the whole frozen chunk into out (len(out) >= c.n).
func (c *rowChunk) thaw(out []rowRec) {
	for b := range c.blocks() {
		c.thawBlock(b, out[b*packBlock:])
	}
}

// thawBlock decodes block b of a frozen chunk into out (len(out) >=
// packBlock); sev is left 0 (it changes: Store.get reads it from c.sev).
func (c *rowChunk) thawBlock(b int, out []rowRec) {
	enc := c.enc
	var prev rowRec
	prevBits := uint32(0)
	pos := int(c.marks[b])
	n := min(c.n-b*packBlock, packBlock)
	varint := func() int64 {
		v, n := binary.Varint(enc[pos:])
		pos += n
		return v
	}
	uvarint := func() uint64 {
		v, n := binary.Uvarint(enc[pos:])
		pos += n
		return v
	}
	for i := 0; i < n; i++ {
		m := enc[pos]
		pos++
		// The kind decides the predicted frame: the bits come last, so the
		// prediction is made once every field is read.
		var rc rowRec
		rc.setBits(prevBits)
		var dOff, dSize, dAt, dFrame, dTurn int64
		typ := uint64(prev.typ)
		if m&maskOff != 0 {
			dOff = varint()
		}
		if m&maskSize != 0 {
			dSize = varint()
		}
		if m&maskAt != 0 {
			dAt = varint()
		}
		if m&maskFrame != 0 {
			dFrame = varint()
		}
		if m&maskTurn != 0 {
			dTurn = varint()
		}
		if m&maskTyp != 0 {
			typ = uvarint()
		}
		if m&maskBits != 0 {
			prevBits = uint32(uvarint())
			rc.setBits(prevBits)
		}
		p := predict(&prev, rc.kind)
		if i == 0 {
			p = rowRec{frame: -1 << 31}
		}
		rc.off = p.off + dOff
		rc.size = p.size + dSize
		rc.at = p.at + time.Duration(dAt)
		rc.frame = int32(int64(p.frame) + dFrame)
		rc.turn = int32(int64(p.turn) + dTurn)
		rc.typ = uint32(typ)
		out[i] = rc
		prev = rc
	}
}

// get returns row i's record, valid until the next get (a frozen chunk's
// rows are decoded into one buffer).
func (s *Store) get(i int) *rowRec {
	k, j := i/chunkRows, i%chunkRows
	c := s.chunks[k]
	if c.recs != nil {
		return &c.recs[j]
	}
	b := j / packBlock
	if key := k*(chunkRows/packBlock) + b + 1; s.thawed != key {
		if s.thawBuf == nil {
			s.thawBuf = make([]rowRec, packBlock)
		}
		c.thawBlock(b, s.thawBuf)
		s.thawed = key
	}
	rc := &s.thawBuf[j%packBlock]
	rc.sev = c.sev[j]
	return rc
}

// setSev sets row i's sev.
func (s *Store) setSev(i int, sev uint8) {
	k, j := i/chunkRows, i%chunkRows
	if c := s.chunks[k]; c.recs != nil {
		c.recs[j].sev = sev
	} else {
		c.sev[j] = sev
	}
}
