package chunkframed

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"slices"
)

// Bounds of the per-stream state: a hostile or broken stream must not grow
// the checker without limit.
const (
	// maxStreams is how many message_ids the mapper remembers (open or
	// ended); later streams get span checks from the Engine only.
	maxStreams = 1 << 14
	// maxTracked is the highest seq_no whose payload fingerprint is kept
	// (redelivery detection): 8 bytes per chunk, 64 KiB per stream.
	maxTracked = 8192
	// maxPending / maxPendingBytes bound the chunks held back because
	// they arrived before a lower seq_no; past them the checksum of the
	// stream cannot be verified and is not checked.
	maxPending      = 64
	maxPendingBytes = 1 << 20
)

// stream is one message_id's chunk stream. Its small part stays after
// stream.end (span-duplicate and after-terminal need to know the id ended);
// the live part, which holds the checksum and the fingerprints, is freed at
// stream.end and reused by the next stream.
type stream struct {
	group    []byte // the correlation_group (JSON literal) the stream belongs to
	seqKey   []byte // scope of its MoveSeq: the message_id literal, suffixed for a reused id
	seqName  []byte // "seq_no (<message_id>)" (JSON string), named in seq alarms
	begin    int    // frame of its stream.begin
	endFrame int    // frame of its stream.end (-1 open)
	expected int64  // expected_chunks hint (-1 none)
	count    int64  // distinct seq_no values received (1 and above)
	maxSeq   int64  // highest seq_no received
	gen      int    // how often the message_id was begun again (fresh seq_no scope)
	live     *live
}

func (s *stream) ended() bool { return s.endFrame >= 0 }

// live is the part of a stream that only an open stream needs.
type live struct {
	h       hash.Hash
	next    int64    // the seq_no the hash takes next
	fps     []uint64 // fingerprint of the payload of seq_no i+1 (0: not received)
	pending []held   // chunks received before a lower seq_no, in arrival order
	held    int      // bytes in pending
	broken  bool     // the checksum cannot be verified (too much held back)
	digest  [sha256.Size]byte
}

type held struct {
	seq  int64
	data []byte
}

func (l *live) reset() {
	l.h.Reset()
	l.next = 1
	l.fps = l.fps[:0]
	l.pending = l.pending[:0]
	l.held = 0
	l.broken = false
}

// seen reports whether seq_no s was received, and its fingerprint.
func (l *live) seen(s int64) (uint64, bool) {
	if s < 1 || s > int64(len(l.fps)) || l.fps[s-1] == 0 {
		return 0, false
	}
	return l.fps[s-1], true
}

// record keeps the fingerprint of seq_no s (when within the bound).
func (l *live) record(s int64, fp uint64) {
	if s < 1 || s > maxTracked {
		return
	}
	for int64(len(l.fps)) < s {
		l.fps = append(l.fps, 0)
	}
	l.fps[s-1] = fp
}

// add feeds the payload of a newly received seq_no to the checksum. The
// checksum covers the payloads in seq_no order, so a chunk that arrives
// before a lower one is held back (copied) until the gap fills or the
// stream ends; the hash itself is incremental.
func (l *live) add(s int64, p []byte) {
	switch {
	case l.broken:
	case s == l.next:
		l.h.Write(p)
		l.next++
		l.drain()
	case s > l.next:
		if len(l.pending) >= maxPending || l.held+len(p) > maxPendingBytes {
			l.broken = true
			l.pending, l.held = l.pending[:0], 0
			return
		}
		l.pending = append(l.pending, held{seq: s, data: append([]byte(nil), p...)})
		l.held += len(p)
	}
}

// drain hashes the held chunks that are now next in order.
func (l *live) drain() {
	for len(l.pending) > 0 {
		i := slices.IndexFunc(l.pending, func(c held) bool { return c.seq == l.next })
		if i < 0 {
			return
		}
		l.h.Write(l.pending[i].data)
		l.held -= len(l.pending[i].data)
		l.pending = slices.Delete(l.pending, i, i+1)
		l.next++
	}
}

// sum finishes the checksum over what was received: held chunks follow in
// seq_no order, the missing seq_no values are skipped (chunk-count and
// seq-gap say they are missing). dst is a 64-byte buffer.
func (l *live) sum(dst []byte) []byte {
	slices.SortFunc(l.pending, func(a, b held) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	for _, c := range l.pending {
		l.h.Write(c.data)
	}
	l.pending, l.held = l.pending[:0], 0
	return hex.AppendEncode(dst[:0], l.h.Sum(l.digest[:0]))
}

// fingerprint is a 64-bit FNV-1a of a payload (never 0: 0 marks a seq_no
// not received). Two chunks with one seq_no are a redelivery when their
// fingerprints and lengths agree.
func fingerprint(p []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range p {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= uint64(len(p)) * 0x9e3779b97f4a7c15
	return h | 1
}

// newLive returns a live part from the pool or a new one.
func (p *mapper) newLive() *live {
	if n := len(p.free); n > 0 {
		l := p.free[n-1]
		p.free = p.free[:n-1]
		l.reset()
		p.liveN++
		return l
	}
	p.liveN++
	return &live{h: sha256.New(), next: 1}
}

// release returns a stream's live part to the pool.
func (p *mapper) release(s *stream) {
	if s.live == nil {
		return
	}
	if cap(s.live.fps) > 1024 {
		s.live.fps = nil // do not keep a long stream's table for ever
	}
	p.free = append(p.free, s.live)
	s.live = nil
	p.liveN--
}
