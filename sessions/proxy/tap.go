package proxy

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"framescope/invariants"
	"framescope/sessions"
)

// DefaultQueueBytes bounds the bytes a stream's tap holds in memory for
// its checker, and DefaultQueueTotal those all the taps of a proxy hold
// together: a hundred stalled checkers cost at most DefaultQueueTotal of
// memory, not a hundred times DefaultQueueBytes. Past them a tap spills
// to a file (spill.go).
//
// One stream may take half the total: a read queued in memory costs the
// app's copy loop a copy (~2 µs for 64 KB here), a spilled one a file
// write (19–52 µs; BenchmarkTapQueue64K, BenchmarkSpillWrite64K) and the
// checker a read back, on the cores the app's
// bytes need (BenchmarkThroughput, side by side: 465–544 MB/s to the app
// with 8 MiB a stream, which spilled 70% of a 32 MiB stream; 539–646 with
// it all in memory). Half, so that one busy stream leaves the others room.
const (
	DefaultQueueBytes = DefaultQueueTotal / 2
	DefaultQueueTotal = 64 << 20
)

// queueBudget is the bytes all of a proxy's taps hold in memory.
type queueBudget struct {
	held  atomic.Int64
	limit int64
}

// tap is the sessions.Capture a stream's checker reads: the proxy pushes
// a copy of every body read into it after writing the read to the app.
// Push never blocks on the checker and never fails. Reads wait in memory
// (up to limit bytes, and the proxy's pool) or, past that, in the
// stream's spill file; the checker takes them in order, so the check and
// the recording see every byte however far behind they fall. Only when
// the spill is full too (or cannot be written) are reads left out: the
// checker is told by a Lost problem at that point of the stream, and the
// next bytes it gets start at a block's start.
type tap struct {
	meta   sessions.Meta
	start  time.Time
	limit  int
	pool   *queueBudget
	budget *spillBudget

	mu     sync.Mutex
	wake   *sync.Cond
	queue  []tapEntry // in memory, older than anything in the spill: queue[head:]
	head   int        // the next entry Next hands out (the array is reused once empty)
	queued int
	tail   *tapBlock // the block reads are copied into
	cur    *tapBlock // the block of the chunk the last Next handed out
	closed bool      // the proxy pushed the last read, or the checker gave up
	end    invariants.End
	lost   int64 // bytes left out and not yet told (at the next chunk, or the end)
	total  int64 // bytes left out in all
	probs  sessions.ProblemList
	// spill: reads go to sp while spilling (set when one did not fit in
	// memory, cleared when the checker has read everything); spillBusy:
	// the producer writes to it outside the lock; dropping: the spill
	// failed, reads are left out until the checker has caught up.
	sp                            *spillFile
	spilling, spillBusy, dropping bool
	spilled                       int64 // bytes that went through the spill
	discardSpill                  bool  // closed while spillBusy: the producer closes sp
	// waiting: the checker waits in Next; armed: the wake timer runs.
	waiting, armed bool
	// resync: bytes were left out; the next ones queued start after a
	// blank line, at a block's start, so the check resumes on whole
	// events instead of raising an alarm for every torn frame.
	resync bool
	sep    []byte // the block separator: "\n\n" (SSE) or "\n" (NDJSON)
	timer  *time.Timer
}

// maxIdleQueue is the most entries an empty queue's array keeps: one a
// backlog grew (a checker far behind on small reads) is given back.
const maxIdleQueue = 1024

// tapEntry is one read waiting in memory.
type tapEntry struct {
	ch   sessions.Chunk
	blk  *tapBlock
	lost int64 // bytes left out just before it
}

// tapBlock holds the copies of consecutive reads: one allocation for many
// small events (a chunk's capacity is its length, so the bound on queued
// bytes bounds memory too). It goes back to blockPool once it is sealed
// (no more reads fit) and the checker is done with its last chunk.
type tapBlock struct {
	buf    []byte
	refs   int // chunks of it not yet done with
	sealed bool
}

// tapBlockSize is a block's size: a whole read of the copy loop fits. A
// stream whose checker keeps up with small reads (a chat stream: an event
// of a few hundred bytes every few ms) copies them into
// smallTapBlockSize blocks instead: a hundred such streams each holding
// a 64 KB block for a few events was a third of the proxy's heap.
const (
	tapBlockSize      = copyBufSize
	smallTapBlockSize = 4 << 10
)

var (
	blockPool      = sync.Pool{New: func() any { return &tapBlock{buf: make([]byte, 0, tapBlockSize)} }}
	smallBlockPool = sync.Pool{New: func() any { return &tapBlock{buf: make([]byte, 0, smallTapBlockSize)} }}
)

// releaseLocked is the checker done with one chunk of b.
func releaseLocked(b *tapBlock) {
	b.refs--
	if !b.sealed || b.refs != 0 {
		return
	}
	switch cap(b.buf) {
	case tapBlockSize:
		b.buf, b.sealed = b.buf[:0], false
		blockPool.Put(b)
	case smallTapBlockSize:
		b.buf, b.sealed = b.buf[:0], false
		smallBlockPool.Put(b)
	}
}

// copyLocked copies p into the tail block (a new one when it does not fit).
func (t *tap) copyLocked(p []byte) ([]byte, *tapBlock) {
	b := t.tail
	if b == nil || cap(b.buf)-len(b.buf) < len(p) {
		if b != nil {
			b.sealed = true
			if b.refs == 0 {
				b.refs++
				releaseLocked(b)
			}
		}
		switch {
		case len(p) > tapBlockSize:
			b = &tapBlock{buf: make([]byte, 0, len(p))}
		case t.queued+len(p) <= smallTapBlockSize/2:
			b = smallBlockPool.Get().(*tapBlock) // the checker keeps up
		default:
			b = blockPool.Get().(*tapBlock)
		}
		t.tail = b
	}
	i := len(b.buf)
	b.buf = append(b.buf, p...)
	b.refs++
	return b.buf[i:len(b.buf):len(b.buf)], b
}

// The checker is woken when wakeBytes are queued, or wakeDelay after the
// first byte it has not been woken for: waking another thread on every
// read of a busy stream costs the app's copy loop more than the check
// itself (each wake is a futex call and a context switch). The check of
// a small event comes at most wakeDelay late; the app's never does.
const (
	wakeBytes = 256 << 10
	wakeDelay = 5 * time.Millisecond
)

// wakeLocked wakes a waiting checker now or arms the timer (t.mu held).
func (t *tap) wakeLocked(now bool) {
	if !t.waiting {
		return
	}
	if now || t.queued >= wakeBytes {
		t.wake.Signal()
		return
	}
	if !t.armed {
		t.armed = true
		if t.timer == nil {
			t.timer = time.AfterFunc(wakeDelay, t.timerFired)
		} else {
			t.timer.Reset(wakeDelay)
		}
	}
}

func (t *tap) timerFired() {
	t.mu.Lock()
	t.armed = false
	t.mu.Unlock()
	t.wake.Signal()
}

func newTap(meta sessions.Meta, start time.Time, limit int, pool *queueBudget, budget *spillBudget) *tap {
	if limit <= 0 {
		limit = DefaultQueueBytes
	}
	if pool == nil {
		pool = &queueBudget{limit: DefaultQueueTotal}
	}
	if budget == nil {
		budget = &spillBudget{limit: DefaultMaxSpill}
	}
	t := &tap{meta: meta, start: start, limit: limit, pool: pool, budget: budget, sep: []byte("\n\n")}
	t.wake = sync.NewCond(&t.mu)
	return t
}

// push hands the checker a copy of p (the proxy's buffer is reused at
// once): queued in memory, else spilled, else left out.
func (t *tap) push(p []byte) {
	now := time.Since(t.start)
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	if t.dropping && t.head == len(t.queue) && !t.spilling {
		t.dropping = false // the checker has everything before the gap
	}
	if t.dropping {
		t.leaveOutLocked(len(p))
		t.wakeLocked(false)
		t.mu.Unlock()
		return
	}
	if t.resync {
		i := bytes.Index(p, t.sep)
		if i < 0 {
			t.leaveOutLocked(len(p))
			t.mu.Unlock()
			return
		}
		t.leaveOutLocked(i + len(t.sep))
		p = p[i+len(t.sep):]
		t.resync = false
		if len(p) == 0 {
			t.mu.Unlock()
			return
		}
	}
	if !t.spilling && t.queued+len(p) <= t.limit {
		if t.pool.held.Add(int64(len(p))) <= t.pool.limit {
			data, blk := t.copyLocked(p)
			t.queue = append(t.queue, tapEntry{ch: sessions.Chunk{Data: data, T: now, HasTime: true}, blk: blk, lost: t.lost})
			t.lost = 0
			t.queued += len(p)
			t.wakeLocked(false)
			t.mu.Unlock()
			return
		}
		t.pool.held.Add(-int64(len(p)))
	}
	t.spillLocked(now, p)
	t.mu.Unlock()
}

// leaveOutLocked counts n bytes left out of the check; the next bytes
// taken start at a block's start.
func (t *tap) leaveOutLocked(n int) {
	t.lost += int64(n)
	t.total += int64(n)
	t.resync = true
}

// spillLocked appends p to the spill (t.mu held, released while writing).
func (t *tap) spillLocked(now time.Duration, p []byte) {
	t.spilling, t.spillBusy = true, true
	sp, lost := t.sp, t.lost
	var off int64
	if sp != nil {
		off = sp.w
	}
	t.mu.Unlock()
	var n int64
	var err error
	if sp == nil {
		if t.budget.held.Load()+int64(spillHeader+len(p)) > t.budget.limit {
			err = errSpillFull // no file made for nothing
		} else {
			sp, err = newSpillFile(t.budget.dir)
		}
	}
	if err == nil {
		n, err = sp.write(off, now, lost, p, t.budget)
	}
	t.mu.Lock()
	t.spillBusy = false
	if sp != nil && t.sp == nil {
		t.sp = sp
	}
	switch {
	case t.discardSpill: // the checker gave up meanwhile
		if t.sp != nil {
			t.sp.w += n
			t.sp.close(t.budget)
			t.sp = nil
		}
	case err != nil:
		t.spilling = t.sp != nil && t.sp.w > 0 // what is spilled is read first
		t.dropping = true
		t.leaveOutLocked(len(p))
	default:
		t.sp.w += n
		t.lost -= lost
		t.spilled += int64(len(p))
	}
	t.wakeLocked(false)
}

// finish ends the stream: e says how (eof, the upstream's error, the app
// gone: cancelled).
func (t *tap) finish(e invariants.End) {
	t.mu.Lock()
	if !t.closed {
		t.closed = true
		e.At, e.HasTime = time.Since(t.start), true
		t.end = e
	}
	t.mu.Unlock()
	t.wake.Signal()
}

// stopTimer releases the wake timer once the stream is read.
func (t *tap) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
	}
}

// Behind is how many bytes the checker missed in all.
func (t *tap) Behind() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// Spilled is how many bytes went through the spill file.
func (t *tap) Spilled() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.spilled
}

func (t *tap) Meta() sessions.Meta { return t.meta }

// gapLocked tells the checker of n bytes left out before what it gets next.
func (t *tap) gapLocked(n int64) {
	if n > 0 {
		t.probs.AddLost(0, "the checker fell behind: %d bytes passed to the app were not checked or recorded here", n)
	}
}

// Next hands the reads in order: the memory queue, then the spill; the
// chunk's data is valid until the next call.
func (t *tap) Next() (sessions.Chunk, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil {
		releaseLocked(t.cur)
		t.cur = nil
	}
	for {
		if t.head < len(t.queue) {
			e := t.queue[t.head]
			t.queue[t.head] = tapEntry{}
			t.head++
			if t.head == len(t.queue) { // empty: appends reuse the array,
				t.queue, t.head = t.queue[:0], 0
				if cap(t.queue) > maxIdleQueue { // unless a backlog grew it
					t.queue = nil
				}
			}
			t.queued -= len(e.ch.Data)
			t.pool.held.Add(-int64(len(e.ch.Data)))
			t.cur = e.blk
			t.gapLocked(e.lost)
			return e.ch, nil
		}
		if sp := t.sp; sp != nil && sp.r < sp.w {
			w := sp.w
			t.mu.Unlock()
			at, lost, data, err := sp.read(w)
			t.mu.Lock()
			if err != nil { // unreadable: what is left of it is lost
				t.probs.AddLost(0, "the spill file could not be read back: %v", err)
				sp.r = sp.w
				continue
			}
			t.gapLocked(lost)
			return sessions.Chunk{Data: data, T: at, HasTime: true}, nil
		}
		// Caught up: the memory queue takes reads again.
		if t.spilling && !t.spillBusy {
			t.spilling = false
			if t.sp != nil {
				t.sp.close(t.budget)
				t.sp = nil
			}
		}
		if !t.spillBusy {
			t.dropping = false
		}
		if t.closed && !t.spillBusy {
			t.gapLocked(t.lost)
			t.lost = 0
			t.stopTimer()
			return sessions.Chunk{}, io.EOF
		}
		if b := t.tail; b != nil && b.refs == 0 { // idle: the block goes back
			t.tail = nil
			b.sealed, b.refs = true, 1
			releaseLocked(b)
		}
		t.waiting = true
		t.wake.Wait()
		t.waiting = false
	}
}

func (t *tap) End() invariants.End {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.end
}

func (t *tap) TakeProblems() []sessions.Problem {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.probs.Take()
}

// Close is the checker giving up: what is still queued or spilled is
// dropped.
func (t *tap) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	t.pool.held.Add(-int64(t.queued))
	t.queue, t.head = nil, 0
	t.queued = 0
	if t.sp != nil && !t.spillBusy {
		t.sp.close(t.budget)
		t.sp = nil
	} else if t.spillBusy {
		t.discardSpill = true
	}
	return nil
}
