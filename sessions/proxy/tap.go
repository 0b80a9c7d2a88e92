package proxy

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"framescope/sessions"
)

// DefaultQueueBytes bounds the bytes a stream's tap holds for its checker,
// and DefaultQueueTotal those all the taps of a proxy hold together: a
// hundred stalled checkers cost at most DefaultQueueTotal, not a hundred
// times DefaultQueueBytes.
const (
	DefaultQueueBytes = 8 << 20
	DefaultQueueTotal = 64 << 20
)

// queueBudget is the bytes all of a proxy's taps hold.
type queueBudget struct {
	held  atomic.Int64
	limit int64
}

// tap is the sessions.Capture a stream's checker reads: the proxy pushes
// a copy of every body read into it after writing the read to the app.
// Push never blocks and never fails: when the checker has fallen more
// than limit bytes behind, the read is left out of the check (and of the
// recording), counted in behind, and the checker is told by a Lost
// problem at that point of the stream. The app always gets every byte.
type tap struct {
	meta  sessions.Meta
	start time.Time
	limit int
	pool  *queueBudget

	mu      sync.Mutex
	wake    *sync.Cond
	queue   []sessions.Chunk
	queued  int
	closed  bool // the proxy pushed the last read
	end     sessions.End
	behind  int64 // bytes left out since the checker last read
	total   int64 // bytes left out in all
	probs   sessions.ProblemList
	current []byte // the chunk handed by the last Next, recycled by the next
	// waiting: the checker waits in Next; armed: the wake timer runs.
	waiting, armed bool
	// resync: bytes were left out; the next ones queued start after a
	// blank line, at a block's start, so the check resumes on whole
	// events instead of raising an alarm for every torn frame.
	resync bool
	sep    []byte // the block separator: "\n\n" (SSE) or "\n" (NDJSON)
	timer  *time.Timer
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

func newTap(meta sessions.Meta, start time.Time, limit int, pool *queueBudget) *tap {
	if limit <= 0 {
		limit = DefaultQueueBytes
	}
	if pool == nil {
		pool = &queueBudget{limit: DefaultQueueTotal}
	}
	t := &tap{meta: meta, start: start, limit: limit, pool: pool, sep: []byte("\n\n")}
	t.wake = sync.NewCond(&t.mu)
	return t
}

var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, copyBufSize); return &b }}

// push queues a copy of p (the proxy's buffer is reused at once).
func (t *tap) push(p []byte) {
	now := time.Since(t.start)
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	if t.resync {
		i := bytes.Index(p, t.sep)
		if i < 0 {
			t.behind += int64(len(p))
			t.total += int64(len(p))
			t.mu.Unlock()
			return
		}
		t.behind += int64(i + len(t.sep))
		t.total += int64(i + len(t.sep))
		p = p[i+len(t.sep):]
		t.resync = false
		if len(p) == 0 {
			t.mu.Unlock()
			return
		}
	}
	if t.queued+len(p) > t.limit || t.pool.held.Add(int64(len(p))) > t.pool.limit {
		if t.queued+len(p) <= t.limit {
			t.pool.held.Add(-int64(len(p)))
		}
		t.behind += int64(len(p))
		t.total += int64(len(p))
		t.resync = true
		t.wakeLocked(false)
		t.mu.Unlock()
		return
	}
	bp := chunkPool.Get().(*[]byte)
	b := append((*bp)[:0], p...)
	t.queue = append(t.queue, sessions.Chunk{Data: b, T: now, HasTime: true})
	t.queued += len(b)
	t.wakeLocked(false)
	t.mu.Unlock()
}

// finish ends the stream: e says how (eof, the upstream's error, the app
// gone: cancelled).
func (t *tap) finish(e sessions.End) {
	t.mu.Lock()
	if !t.closed {
		t.closed = true
		e.T, e.HasTime = time.Since(t.start), true
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

func (t *tap) Meta() sessions.Meta { return t.meta }

func (t *tap) Next() (sessions.Chunk, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.current != nil {
		b := t.current[:0]
		if cap(b) <= 1<<20 {
			chunkPool.Put(&b)
		}
		t.current = nil
	}
	for len(t.queue) == 0 && !t.closed && t.behind == 0 {
		t.waiting = true
		t.wake.Wait()
		t.waiting = false
	}
	if t.behind > 0 {
		// Told before the next chunk, so the gap is at its place.
		t.probs.AddLost(0, "the checker fell behind: %d bytes passed to the app were not checked or recorded here", t.behind)
		t.behind = 0
	}
	if len(t.queue) == 0 {
		t.stopTimer()
		return sessions.Chunk{}, io.EOF
	}
	ch := t.queue[0]
	t.queue[0] = sessions.Chunk{}
	t.queue = t.queue[1:]
	t.queued -= len(ch.Data)
	t.pool.held.Add(-int64(len(ch.Data)))
	t.current = ch.Data
	return ch, nil
}

func (t *tap) End() sessions.End {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.end
}

func (t *tap) TakeProblems() []sessions.Problem {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.probs.Take()
}

// Close is the checker giving up: what is still queued is dropped.
func (t *tap) Close() error {
	t.mu.Lock()
	t.closed = true
	t.pool.held.Add(-int64(t.queued))
	t.queue = nil
	t.queued = 0
	t.mu.Unlock()
	return nil
}
