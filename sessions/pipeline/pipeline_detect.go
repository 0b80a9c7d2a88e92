package pipeline

import (
	"fmt"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions"
)

// Detection holds blocks back until the dialect is known, within bounds:
// a stream of undecodable frames must not be buffered without end.
const (
	maxHeldFrames = 64
	maxHeldBytes  = 4 << 20
)

// heldItem is a block read while the dialect was still being detected
// (its bytes cloned: the batch they came in is recycled), or a capture
// problem found meanwhile. A dispatched block is held as its decoded
// frame, cloned with its members re-pointed, never decoded twice.
type heldItem struct {
	ev         decode.Event
	frame      *decode.Frame // the block's frame, when dispatched
	arrival    time.Duration
	hasArrival bool
	from       sessions.Direction
	problem    *sessions.Problem
}

// detection is a run's state while it detects the dialect, and after.
type detection struct {
	detector *invariants.Detector
	// late keeps detecting after a leading non-JSON frame made the
	// stream sse (dialect-late), for lateLeft more decoded frames.
	late     *invariants.Detector
	lateLeft int
	held     []heldItem
	heldN    int
	heldB    int
}

// hold keeps an entry back while the dialect is unknown, and chooses it
// once detection has decided (or held enough).
func (r *run) hold(e *pipeEntry) {
	if e.problem != nil {
		r.held = append(r.held, heldItem{problem: e.problem})
		return
	}
	ev := &e.frame.Event
	if ev.Dispatched() {
		f := e.frame.Clone()
		f.Arrival, f.HasArrival = e.arrival, e.hasArrival
		r.held = append(r.held, heldItem{frame: f, arrival: e.arrival, hasArrival: e.hasArrival, from: e.from})
	} else {
		r.held = append(r.held, heldItem{ev: ev.Clone(), arrival: e.arrival, hasArrival: e.hasArrival, from: e.from})
	}
	r.heldB += len(ev.Raw)
	if ev.Dispatched() && e.from == sessions.FromServer { // the dialect is the server's
		r.heldN++
		if chosen, ok := r.detector.Feed(&e.frame); ok {
			r.choose(chosen)
			if chosen == invariants.SSE && !e.frame.Decoded() {
				r.late, r.lateLeft = dialects.NewDetector(), maxHeldFrames
			}
			return
		}
	}
	if r.heldN >= maxHeldFrames || r.heldB >= maxHeldBytes {
		r.choose(r.detector.Finish())
	}
}

// release hands on, in order, what was held while the dialect was
// unknown (choose, once the checker is there).
func (r *run) release() {
	for i := range r.held {
		it := &r.held[i]
		if it.problem != nil {
			handProblem(&r.h, r.chk, r.meta.Name, it.problem)
			continue
		}
		if f := it.frame; f != nil {
			r.process(&f.Event, f, it.arrival, it.hasArrival, it.from)
			continue
		}
		r.process(&it.ev, nil, it.arrival, it.hasArrival, it.from)
	}
	r.held = nil
}

// lateFeed reads a decoded frame of a stream made sse by its first
// frame; a dialect's signature there is said once (dialect-late).
func (r *run) lateFeed(f *decode.Frame) {
	r.lateLeft--
	d, ok := r.late.Feed(f)
	if !ok && r.lateLeft > 0 {
		return
	}
	if !ok {
		d = r.late.Finish()
	}
	r.late = nil
	if rm, isR := r.chk.(invariants.Remarker); isR && d != invariants.SSE {
		r.alarmsOut(rm.Remark("dialect-late", invariants.SevInfo, f.Index, fmt.Sprintf(
			"frames from here on carry the %s signature, but a leading frame that is not JSON made the stream plain sse: check it as %s with --dialect %s",
			d.Name(), d.Name(), d.Name())))
	}
}
