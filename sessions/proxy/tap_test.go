package proxy

import (
	"context"
	"io"
	"testing"
	"time"

	"framescope/sessions"
)

// TestTapSharedBudget: stalled checkers hold at most the proxy's total,
// whatever their number; what they could not take is counted, and a
// drained tap gives its share back.
func TestTapSharedBudget(t *testing.T) {
	pool := &queueBudget{limit: 100}
	a := newTap(sessions.Meta{}, time.Now(), 80, pool)
	b := newTap(sessions.Meta{}, time.Now(), 80, pool)
	a.push(make([]byte, 60))
	b.push(make([]byte, 60)) // 120 > 100: left out
	if a.Behind() != 0 || b.Behind() != 60 || pool.held.Load() != 60 {
		t.Fatalf("behind a=%d b=%d held=%d", a.Behind(), b.Behind(), pool.held.Load())
	}
	a.push(make([]byte, 30)) // a's own limit: 90 > 80
	if a.Behind() != 30 {
		t.Fatalf("a behind %d", a.Behind())
	}
	a.finish(sessions.End{Kind: sessions.EndEOF})
	if ch, err := a.Next(); err != nil || len(ch.Data) != 60 {
		t.Fatalf("next: %d %v", len(ch.Data), err)
	}
	if probs := a.TakeProblems(); len(probs) != 1 || !probs[0].Lost {
		t.Fatalf("the gap must be a Lost problem: %+v", probs)
	}
	if _, err := a.Next(); err != io.EOF {
		t.Fatal(err)
	}
	if pool.held.Load() != 0 {
		t.Fatalf("held after drain: %d", pool.held.Load())
	}
	// b lost bytes: it resumes after the next blank line, at a block's start.
	b.push([]byte("data: torn\n\ndata: whole"))
	if b.Behind() != int64(60+len("data: torn\n\n")) || pool.held.Load() != int64(len("data: whole")) {
		t.Fatalf("b may queue again once a drained, from a block's start: behind %d, held %d", b.Behind(), pool.held.Load())
	}
}

// TestSubscriptionBatches: a subscriber that reads late gets one entry
// per flow, in its latest state.
func TestSubscriptionBatches(t *testing.T) {
	book := newFlowBook()
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
