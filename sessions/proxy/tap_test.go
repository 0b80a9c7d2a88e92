package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
)

// readAll drains a tap: the bytes, the chunks' times, and where each Lost
// problem came (the byte offset of the data it preceded).
func readAll(t *testing.T, tp *tap) (data []byte, times []time.Duration, lostAt []int) {
	t.Helper()
	for {
		ch, err := tp.Next()
		for _, p := range tp.TakeProblems() {
			if p.Lost {
				lostAt = append(lostAt, len(data))
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, ch.Data...)
		times = append(times, ch.T)
	}
}

// TestTapSharedBudget: without a spill, stalled checkers hold at most the
// proxy's total, whatever their number; what they could not take is
// counted and told where it was left out (after what was queued before
// it), and a drained tap gives its share back.
func TestTapSharedBudget(t *testing.T) {
	pool := &queueBudget{limit: 100}
	noSpill := &spillBudget{limit: -1}
	a := newTap(sessions.Meta{}, time.Now(), 80, pool, noSpill)
	b := newTap(sessions.Meta{}, time.Now(), 80, pool, noSpill)
	a.push(make([]byte, 60))
	b.push(make([]byte, 60)) // 120 > 100: left out
	if a.Behind() != 0 || b.Behind() != 60 || pool.held.Load() != 60 {
		t.Fatalf("behind a=%d b=%d held=%d", a.Behind(), b.Behind(), pool.held.Load())
	}
	a.push(make([]byte, 30)) // a's own limit: 90 > 80
	if a.Behind() != 30 {
		t.Fatalf("a behind %d", a.Behind())
	}
	a.finish(invariants.End{Kind: invariants.EndEOF})
	data, _, lostAt := readAll(t, a)
	if len(data) != 60 || len(lostAt) != 1 || lostAt[0] != 60 {
		t.Fatalf("a: %d bytes, gaps at %v: the gap comes after the 60 bytes queued before it", len(data), lostAt)
	}
	if pool.held.Load() != 0 {
		t.Fatalf("held after drain: %d", pool.held.Load())
	}
	// b lost bytes: it resumes after the next blank line, at a block's start.
	b.push([]byte("data: torn\n\ndata: whole"))
	if b.Behind() != int64(60+len("data: torn\n\n")) || pool.held.Load() != int64(len("data: whole")) {
		t.Fatalf("b may queue again once a drained, from a block's start: behind %d, held %d", b.Behind(), pool.held.Load())
	}
	b.finish(invariants.End{Kind: invariants.EndEOF})
	if data, _, lostAt := readAll(t, b); string(data) != "data: whole" || len(lostAt) != 1 || lostAt[0] != 0 {
		t.Fatalf("b: %q, gaps at %v", data, lostAt)
	}
}

// TestTapSpillsInOrder: a checker far behind its queue misses nothing:
// the reads past the queue go to the spill and come back in order, with
// their own arrival times; the spill file leaves nothing behind, the
// budgets are whole again, and once caught up the queue takes reads again.
func TestTapSpillsInOrder(t *testing.T) {
	dir := t.TempDir()
	pool := &queueBudget{limit: 1 << 20}
	budget := &spillBudget{limit: 1 << 20, dir: dir}
	tp := newTap(sessions.Meta{}, time.Now(), 100, pool, budget)
	var want []byte
	for i := range 50 {
		ev := fmt.Appendf(nil, "data: %d\n\n", i)
		want = append(want, ev...)
		tp.push(ev)
	}
	if tp.Spilled() == 0 || budget.held.Load() == 0 {
		t.Fatalf("nothing spilled: spilled %d, held %d", tp.Spilled(), budget.held.Load())
	}
	if runtime.GOOS != "windows" {
		if des, _ := os.ReadDir(dir); len(des) != 0 {
			t.Errorf("the spill must be unlinked while open: %v", des)
		}
	}
	// Read half, then push more while the spill is being read: it still
	// goes behind the spill.
	var got []byte
	var last time.Duration
	for range 25 {
		ch, err := tp.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ch.T < last {
			t.Fatalf("time went back: %v after %v", ch.T, last)
		}
		last = ch.T
		got = append(got, ch.Data...)
	}
	more := []byte("data: late\n\n")
	tp.push(more)
	want = append(want, more...)
	tp.finish(invariants.End{Kind: invariants.EndEOF})
	rest, _, lostAt := readAll(t, tp)
	got = append(got, rest...)
	if !bytes.Equal(got, want) || len(lostAt) != 0 || tp.Behind() != 0 {
		t.Fatalf("got %q\nwant %q\ngaps %v behind %d", got, want, lostAt, tp.Behind())
	}
	if budget.held.Load() != 0 || pool.held.Load() != 0 {
		t.Fatalf("budgets not given back: spill %d, queue %d", budget.held.Load(), pool.held.Load())
	}
	if des, _ := os.ReadDir(dir); len(des) != 0 {
		t.Errorf("spill left behind: %v", des)
	}
}

// TestTapSpillCaughtUp: once the checker has read the spill, the stream
// goes back to the memory queue (no spill file kept).
func TestTapSpillCaughtUp(t *testing.T) {
	budget := &spillBudget{limit: 1 << 20, dir: t.TempDir()}
	tp := newTap(sessions.Meta{}, time.Now(), 20, nil, budget)
	tp.push([]byte("data: 1234567890\n\n")) // 18: queued
	tp.push([]byte("data: abc\n\n"))        // spilled
	for range 2 {
		if _, err := tp.Next(); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		waitForChecker(t, tp)
		tp.push([]byte("data: x\n\n"))
	}()
	ch, err := tp.Next()
	if err != nil || string(ch.Data) != "data: x\n\n" {
		t.Fatalf("%q %v", ch.Data, err)
	}
	tp.mu.Lock()
	spilling, sp := tp.spilling, tp.sp
	tp.mu.Unlock()
	if spilling || sp != nil || budget.held.Load() != 0 {
		t.Fatalf("caught up, the spill must be gone: spilling %v, file %v, held %d", spilling, sp != nil, budget.held.Load())
	}
	tp.Close()
}

// TestTapSpillFull: past the spill's bound the reads are left out, told
// once at their place (after everything spilled before them), and the
// check resumes at a block's start once it has caught up.
func TestTapSpillFull(t *testing.T) {
	budget := &spillBudget{limit: 2 * (spillHeader + 12), dir: t.TempDir()}
	tp := newTap(sessions.Meta{}, time.Now(), 12, nil, budget)
	tp.push([]byte("data: q000\n\n")) // queued (12)
	tp.push([]byte("data: s001\n\n")) // spilled
	tp.push([]byte("data: s002\n\n")) // spilled
	tp.push([]byte("data: x003\n\n")) // spill full: left out
	tp.push([]byte("data: x004\n\n")) // left out until the checker catches up
	if tp.Behind() != 24 {
		t.Fatalf("behind %d", tp.Behind())
	}
	var got []byte
	for range 3 {
		ch, err := tp.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ps := tp.TakeProblems(); len(ps) != 0 {
			t.Fatalf("a gap before %q: %+v", ch.Data, ps)
		}
		got = append(got, ch.Data...)
	}
	// The checker finds it has caught up and waits; then the stream
	// resumes after the next blank line.
	type result struct {
		data   []byte
		lostAt []int
	}
	res := make(chan result)
	go func() {
		data, _, lostAt := readAll(t, tp)
		res <- result{data, lostAt}
	}()
	waitForChecker(t, tp)
	tp.push([]byte("a: torn\n\ndata: y005\n\n"))
	tp.finish(invariants.End{Kind: invariants.EndEOF})
	r := <-res
	rest, lostAt := r.data, r.lostAt
	if string(got) != "data: q000\n\ndata: s001\n\ndata: s002\n\n" || string(rest) != "data: y005\n\n" || len(lostAt) != 1 || lostAt[0] != 0 {
		t.Fatalf("got %q then %q, gaps %v", got, rest, lostAt)
	}
	if tp.Behind() != int64(24+len("a: torn\n\n")) || budget.held.Load() != 0 {
		t.Fatalf("behind %d, spill held %d", tp.Behind(), budget.held.Load())
	}
}

// waitForChecker waits until the tap's checker waits for reads.
func waitForChecker(t *testing.T, tp *tap) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		tp.mu.Lock()
		w := tp.waiting
		tp.mu.Unlock()
		if w {
			return
		}
	}
	t.Error("the checker never waited")
}

// TestTapSmallReadsShareBlocks: queued small reads cost their size, not a
// 64 KiB buffer each (a chunk's capacity is its length), and the blocks
// go back once read.
func TestTapSmallReadsShareBlocks(t *testing.T) {
	tp := newTap(sessions.Meta{}, time.Now(), 1<<20, nil, nil)
	ev := []byte("data: {\"x\":1}\n\n")
	for range 1000 {
		tp.push(ev)
	}
	blocks := map[*tapBlock]bool{}
	tp.mu.Lock()
	for _, e := range tp.queue {
		blocks[e.blk] = true
		if cap(e.ch.Data) != len(ev) {
			t.Fatalf("chunk cap %d for %d bytes", cap(e.ch.Data), len(ev))
		}
	}
	tp.mu.Unlock()
	// A small block first (the checker seemed to keep up), then big ones.
	if want := len(ev) * 1000 / tapBlockSize; len(blocks) > want+2 {
		t.Fatalf("%d blocks for %d bytes", len(blocks), len(ev)*1000)
	}
	tp.finish(invariants.End{Kind: invariants.EndEOF})
	if data, _, _ := readAll(t, tp); len(data) != 1000*len(ev) {
		t.Fatalf("%d bytes", len(data))
	}
}

// TestTapCloseWithSpill: a checker that gives up drops its queue and its
// spill, and the budgets are whole again.
func TestTapCloseWithSpill(t *testing.T) {
	pool := &queueBudget{limit: 1 << 20}
	budget := &spillBudget{limit: 1 << 20, dir: t.TempDir()}
	tp := newTap(sessions.Meta{}, time.Now(), 10, pool, budget)
	for range 10 {
		tp.push([]byte("data: 1\n\n"))
	}
	tp.Close()
	tp.push([]byte("data: 2\n\n"))
	if budget.held.Load() != 0 || pool.held.Load() != 0 {
		t.Fatalf("spill %d, queue %d", budget.held.Load(), pool.held.Load())
	}
}

// TestSubscriptionBatches: a subscriber that reads late gets one entry
// per flow, in its latest state.
func TestSubscriptionBatches(t *testing.T) {
	book := newFlowBook(DefaultMaxFlows)
	sub := book.subscribe()
	defer sub.Close()
	f := &liveFlow{Flow: Flow{Method: "GET", Started: time.Now()}}
	book.start(f)
	for i := range 1000 {
		book.update(f, func(fl *Flow) { fl.Frames = i })
	}
	book.update(f, func(fl *Flow) { fl.Done = true })
	got, err := sub.Next(context.Background())
	if err != nil || len(got) != 1 || !got[0].Done || got[0].Frames != 999 {
		t.Fatalf("%d flows: %+v %v", len(got), got, err)
	}
}

// TestTapKeepingUpAllocatesNothing: a checker that keeps up with a chat
// stream's small reads costs no allocation per read: the queue's array is
// reused once it empties and the copies go to pooled small blocks.
func TestTapKeepingUpAllocatesNothing(t *testing.T) {
	tp := newTap(sessions.Meta{}, time.Now(), 1<<20, nil, nil)
	ev := []byte("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n")
	step := func() {
		tp.push(ev)
		if c, err := tp.Next(); err != nil || !bytes.Equal(c.Data, ev) {
			t.Fatalf("got %q, %v", c.Data, err)
		}
	}
	step()
	if n := testing.AllocsPerRun(2000, step); n > 0.05 {
		t.Fatalf("%.2f allocations per read", n)
	}
	tp.mu.Lock()
	small := tp.tail != nil && cap(tp.tail.buf) == smallTapBlockSize
	tp.mu.Unlock()
	if !small {
		t.Fatal("small reads the checker keeps up with must go to small blocks")
	}
}
