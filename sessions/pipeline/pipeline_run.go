package pipeline

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// run is one Run's state between its steps: the checker once the dialect
// is chosen, the detection until then (pipeline_detect.go), and the Item
// handed to h.OnItem.
type run struct {
	meta sessions.Meta
	opts invariants.Options
	h    Handler
	res  *Result
	// handed counts the turns the checker gave to opts.OnTurnFinal and
	// dropped: Turns()[0] is turn handed.
	handed int

	d   invariants.Dialect
	chk invariants.Checker
	// wantMoves is h.WantMoves; flavored the checker, when it names
	// flavors; stamped and counter, when it parses envelope timestamps or
	// counts content and h wants moves.
	wantMoves bool
	flavored  invariants.Flavored
	stamped   invariants.Stamped
	counter   invariants.ContentCounter
	// twoWay is the checker when it reads the client's frames too.
	twoWay invariants.TwoWay

	detection

	// lone is what the first value of a capture of JSON values looks
	// like, for not-a-stream (pipeline_notstream.go).
	lone string

	// One Item, reused: set field by field, and handed by pointer (copying
	// a struct just built stalls the CPU on every frame of a flood).
	item Item
}

func newRun(meta sessions.Meta, opts invariants.Options, h Handler, res *Result) *run {
	r := &run{meta: meta, h: h, res: res}
	if sink := opts.OnTurnFinal; sink != nil {
		opts.OnTurnFinal = func(i int, t invariants.Turn) {
			r.handed++
			sink(i, t)
		}
	}
	r.opts = opts
	return r
}

// alarmsOut hands alarms that belong to no block to h.OnAlarms.
func (r *run) alarmsOut(a []invariants.Alarm) {
	if len(a) > 0 && r.h.OnAlarms != nil {
		r.h.OnAlarms(a)
	}
}

// choose starts the checker of the stream's dialect, says which it is,
// checks the HTTP response and hands on the blocks held meanwhile.
func (r *run) choose(chosen invariants.Dialect) {
	r.d = chosen
	r.res.Dialect = chosen.Name()
	r.chk = chosen.NewChecker(r.opts)
	r.wantMoves = r.h.WantMoves
	r.flavored, _ = r.chk.(invariants.Flavored)
	r.twoWay, _ = r.chk.(invariants.TwoWay)
	r.stamped, r.counter = nil, nil
	if r.h.WantMoves {
		r.stamped, _ = r.chk.(invariants.Stamped)
	}
	if r.h.WantMoves || r.h.WantContent {
		r.counter, _ = r.chk.(invariants.ContentCounter)
	}
	if r.h.OnDialect != nil {
		r.h.OnDialect(chosen)
	}
	if r.meta.HTTP {
		r.alarmsOut(r.chk.HTTP(r.meta.Status, r.meta.ContentType))
	}
	r.release()
}

// handle takes one entry of the read stage: held while the dialect is
// unknown, else checked and handed on.
func (r *run) handle(e *pipeEntry) {
	switch {
	case r.chk == nil:
		r.hold(e)
	case e.problem != nil:
		handProblem(&r.h, r.chk, r.meta.Name, e.problem)
	default:
		r.process(&e.frame.Event, &e.frame, e.arrival, e.hasArrival, e.from)
		if r.late != nil && e.frame.Decoded() && e.from == sessions.FromServer {
			r.lateFeed(&e.frame)
		}
	}
}

// process checks one block and hands it to h.OnItem.
//
// A client frame (a two-way transport's) is checked only by a TwoWay
// checker: this is the one place that decides it. Any other dialect reads
// the server's frames alone, as it reads an HTTP body.
func (r *run) process(ev *decode.Event, f *decode.Frame, arrival time.Duration, hasArrival bool, from sessions.Direction) {
	it := &r.item
	it.Event, it.Frame, it.Alarms, it.Moves = ev, nil, nil, nil
	it.Dialect, it.Turn, it.TurnKey = r.d, -1, ""
	it.Arrival, it.HasArrival = arrival, hasArrival
	it.HasStamp = false
	it.From = from
	switch {
	case from == sessions.FromClient:
		if ev.Dispatched() {
			it.Frame = f
			if r.twoWay != nil {
				it.Alarms = r.twoWay.ObserveClient(f)
				if t := r.chk.Turn(); t >= 0 {
					it.Turn = t
				}
			}
		}
	case ev.Dispatched():
		if f.Index == 0 && isJSONValues(r.meta.Kind) {
			r.lone = describeValue(f.Event.Data)
		}
		it.Frame = f
		r.observe(f, hasArrival)
	case ev.Truncated && ev.HasData:
		// Only a lost event matters; a trailing comment without its
		// blank line carries nothing a client would dispatch.
		it.Alarms = r.chk.Truncated(ev)
	default:
		r.chk.Block(ev, arrival, hasArrival)
	}
	if r.h.OnItem != nil {
		r.h.OnItem(it)
	}
}

// observe checks a dispatched frame, filling the item with what the
// checker said of it.
func (r *run) observe(f *decode.Frame, hasArrival bool) {
	it, chk := &r.item, r.chk
	it.Alarms = chk.Observe(f)
	if r.stamped != nil && !hasArrival {
		it.Stamp, it.HasStamp = r.stamped.Stamp()
	}
	if r.counter != nil {
		it.Content = invariants.FrameContent{}
		if hasArrival {
			it.Content = r.counter.FrameContent(f)
		}
	}
	if r.wantMoves {
		it.Moves = chk.Moves()
		if r.flavored != nil {
			it.Flavor = r.flavored.Flavor()
		}
	}
	if t := chk.Turn(); t >= 0 {
		it.Turn = t
		if ts := chk.Turns(); t-r.handed < len(ts) && t >= r.handed {
			it.TurnKey = ts[t-r.handed].ResponseID
		}
	}
}

// finish settles the run once the read stage is over: the dialect if it
// was still unknown, the end, an empty capture's remark, the result.
func (r *run) finish(rr readResult) (*Result, error) {
	if r.chk == nil {
		r.choose(r.detector.Finish())
	}
	end, readErr := rr.end, rr.readErr
	res, chk := r.res, r.chk
	res.Bytes = rr.bytes
	if readErr != nil {
		end = invariants.End{Kind: invariants.EndError, Detail: readErr.Error()}
	}
	ie := end // the checker's: a capture that says nothing ended at eof
	if ie.Kind == "" {
		ie.Kind = invariants.EndEOF
	}
	r.alarmsOut(chk.End(ie))
	if rr.frames == 0 && ie.Kind != invariants.EndCancelled {
		r.alarmsOut(remarkEmpty(chk, rr.bytes))
	}
	if isJSONValues(r.meta.Kind) && rr.frames == 1 && r.handed == 0 && len(chk.Turns()) == 0 && ie.Kind == invariants.EndEOF {
		r.alarmsOut(remarkNotStream(chk, r.lone))
	}
	res.End = end
	res.Frames = rr.frames
	res.Turns = chk.Turns()
	res.Counts = chk.Counts()
	res.Flavor = invariants.FlavorOf(chk)
	return res, readErr
}
