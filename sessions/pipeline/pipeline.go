package pipeline

import (
	"fmt"
	"strconv"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions"
)

// Item is one SSE block as the pipeline saw it: every block the framer
// emits, dispatched or not, so a viewer can show comments and truncated
// tails too.
type Item struct {
	// Event is the SSE block (always set). Valid only during the callback.
	Event *decode.Event
	// Frame is set when the block was dispatched. Valid only during the
	// callback; Clone to keep.
	Frame *decode.Frame
	// Alarms raised while reading this block. Valid only during the callback.
	Alarms []invariants.Alarm
	// Moves are the frame's moves on the common turn model. Valid only
	// during the callback.
	Moves []invariants.Move
	// Dialect is the stream's dialect (labels: Dialect.Label(Frame)), and
	// Flavor its provider flavor as known so far (set with Moves).
	Dialect invariants.Dialect
	Flavor  string
	// Stamp is the frame's envelope timestamp as the checker parsed it,
	// for a frame without an arrival time (set when moves are wanted, for
	// checkers that parse one: invariants.Stamped).
	Stamp    time.Time
	HasStamp bool
	// Turn is the index of the turn the frame belongs to (-1: none), and
	// TurnKey that turn's id so far (its response id, run id, turn id…).
	Turn    int
	TurnKey string
	// Arrival time of the chunk that completed the block.
	Arrival    time.Duration
	HasArrival bool
}

// Handler receives the pipeline's output as it happens.
type Handler struct {
	// OnDialect is called once, before the first item, with the stream's
	// dialect (forced or detected).
	OnDialect func(invariants.Dialect)
	// OnItem is called for every block, in stream order. The Item is
	// valid only during the call (the pipeline reuses it).
	OnItem func(*Item)
	// OnAlarms is called with alarms that belong to no block: the HTTP
	// response, capture damage and the end of the stream.
	OnAlarms func([]invariants.Alarm)
	// OnNote is called with remarks about the capture that are not alarms.
	OnNote func(string)
	// WantMoves: hand each frame's moves in Item.Moves (the panes need
	// them; check and dump do not). A native dialect's frames are read
	// through their envelope (invariants.Native), so its moves, which its
	// checker maps only when asked, are not asked for.
	WantMoves bool
	// OneStage runs the whole pipeline on the caller's goroutine, even
	// with a second core: a caller running several pipelines at once
	// (check A B C …) already keeps the cores busy.
	OneStage bool
	// OnErrorBody is called once, at the end, with the first ErrorBodyMax
	// bytes of a non-2xx response's body (which is not read as SSE:
	// pipeline_status.go) and whether there was more.
	OnErrorBody func(body []byte, truncated bool)
}

// Result summarises a finished run.
type Result struct {
	Meta    sessions.Meta
	End     sessions.End
	Frames  int
	Bytes   int64
	Dialect string
	// Flavor is the provider flavor of the dialect the checker recognised
	// (or --flavor forced), "" when none.
	Flavor string
	Turns  []invariants.Turn
	Counts invariants.Counts
	// ErrorBody is the start of a non-2xx response's body (nil for a
	// stream that was read as SSE), ErrorBodyTruncated whether there was
	// more than ErrorBodyMax.
	ErrorBody          []byte
	ErrorBodyTruncated bool
}

// ResolveDialect checks a --dialect value: "" (detect) or a known name.
func ResolveDialect(name string) (invariants.Dialect, error) {
	if name == "" {
		return nil, nil
	}
	d, ok := dialects.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown dialect %q (framescope check --dialect list shows them)", decode.Sanitize(name))
	}
	return d, nil
}

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
	problem    *sessions.Problem
}

// Run reads a capture to its end through framer → decoder → dialect
// checker, streaming: memory stays bounded by the largest event, whatever
// the size of the capture. It is the one pipeline behind check, dump and the
// TUI, so they all see the same frames and alarms. Reading, framing and
// decoding run a stage ahead on a second core when there is one
// (pipeline_read.go); checking and the handlers stay on the caller's
// goroutine, in stream order. Unless opts.Dialect forces one, the dialect
// is detected from the first frames: blocks are held back (a few,
// bounded) until it is known, then handed on in order.
func Run(c sessions.Capture, opts invariants.Options, h Handler) (*Result, error) {
	meta := c.Meta()
	if meta.Synthetic {
		opts.SyntheticFraming = true
	}
	if opts.Exchange == nil {
		opts.Exchange = ExchangeOf(meta)
	}
	forced, err := ResolveDialect(opts.Dialect)
	if err != nil {
		return nil, err
	}
	res := &Result{Meta: meta}
	if StatusFailed(meta) {
		if forced == nil {
			forced = dialects.NewDetector().Finish()
		}
		return runFailedStatus(c, forced, opts, h, res)
	}
	// handed counts the turns the checker gave to opts.OnTurnFinal and
	// dropped: Turns()[0] is turn handed.
	handed := 0
	if sink := opts.OnTurnFinal; sink != nil {
		opts.OnTurnFinal = func(i int, t invariants.Turn) {
			handed++
			sink(i, t)
		}
	}

	var (
		d        invariants.Dialect
		chk      invariants.Checker
		detector *invariants.Detector
		// late keeps detecting after a leading non-JSON frame made the
		// stream sse (dialect-late), for lateLeft more decoded frames.
		late     *invariants.Detector
		lateLeft int
		held     []heldItem
		heldN    int
		heldB    int
		// wantMoves is h.WantMoves for the chosen dialect; flavored the
		// checker, when it names flavors.
		wantMoves bool
		flavored  invariants.Flavored
		stamped   invariants.Stamped
	)
	alarmsOut := func(a []invariants.Alarm) {
		if len(a) > 0 && h.OnAlarms != nil {
			h.OnAlarms(a)
		}
	}
	// One Item, reused: set field by field, and handed by pointer (copying
	// a struct just built stalls the CPU on every frame of a flood).
	var item Item
	process := func(ev *decode.Event, f *decode.Frame, arrival time.Duration, hasArrival bool) {
		item.Event, item.Frame, item.Alarms, item.Moves = ev, nil, nil, nil
		item.Dialect, item.Turn, item.TurnKey = d, -1, ""
		item.Arrival, item.HasArrival = arrival, hasArrival
		item.HasStamp = false
		switch {
		case ev.Dispatched():
			item.Frame = f
			item.Alarms = chk.Observe(f)
			if stamped != nil && !hasArrival {
				item.Stamp, item.HasStamp = stamped.Stamp()
			}
			if wantMoves {
				item.Moves = chk.Moves()
				if flavored != nil {
					item.Flavor = flavored.Flavor()
				}
			}
			if t := chk.Turn(); t >= 0 {
				item.Turn = t
				if ts := chk.Turns(); t-handed < len(ts) && t >= handed {
					item.TurnKey = ts[t-handed].ResponseID
				}
			}
		case ev.Truncated && ev.HasData:
			// Only a lost event matters; a trailing comment without its
			// blank line carries nothing a client would dispatch.
			item.Alarms = chk.Truncated(ev)
		default:
			chk.Block(ev, arrival, hasArrival)
		}
		if h.OnItem != nil {
			h.OnItem(&item)
		}
	}
	choose := func(chosen invariants.Dialect) {
		d = chosen
		res.Dialect = d.Name()
		chk = d.NewChecker(opts)
		wantMoves = h.WantMoves && !invariants.IsNative(d)
		flavored, _ = chk.(invariants.Flavored)
		stamped = nil
		if h.WantMoves {
			stamped, _ = chk.(invariants.Stamped)
		}
		if h.OnDialect != nil {
			h.OnDialect(d)
		}
		if meta.HTTP {
			alarmsOut(chk.HTTP(meta.Status, meta.ContentType))
		}
		for i := range held {
			it := &held[i]
			if it.problem != nil {
				handProblem(&h, chk, meta.Name, it.problem)
				continue
			}
			if f := it.frame; f != nil {
				process(&f.Event, f, it.arrival, it.hasArrival)
				continue
			}
			process(&it.ev, nil, it.arrival, it.hasArrival)
		}
		held = nil
	}
	if forced != nil {
		choose(forced)
	} else {
		detector = dialects.NewDetector()
	}
	// hold keeps an entry back while the dialect is unknown; it reports
	// whether detection has now decided.
	hold := func(e *pipeEntry) {
		if e.problem != nil {
			held = append(held, heldItem{problem: e.problem})
			return
		}
		ev := &e.frame.Event
		if ev.Dispatched() {
			f := e.frame.Clone()
			f.Arrival, f.HasArrival = e.arrival, e.hasArrival
			held = append(held, heldItem{frame: f, arrival: e.arrival, hasArrival: e.hasArrival})
		} else {
			held = append(held, heldItem{ev: ev.Clone(), arrival: e.arrival, hasArrival: e.hasArrival})
		}
		heldB += len(ev.Raw)
		if ev.Dispatched() {
			heldN++
			if chosen, ok := detector.Feed(&e.frame); ok {
				choose(chosen)
				if chosen == invariants.SSE && !e.frame.Decoded() {
					late, lateLeft = dialects.NewDetector(), maxHeldFrames
				}
				return
			}
		}
		if heldN >= maxHeldFrames || heldB >= maxHeldBytes {
			choose(detector.Finish())
		}
	}
	// lateFeed reads a decoded frame of a stream made sse by its first
	// frame; a dialect's signature there is said once (dialect-late).
	lateFeed := func(f *decode.Frame) {
		lateLeft--
		d, ok := late.Feed(f)
		if !ok && lateLeft > 0 {
			return
		}
		if !ok {
			d = late.Finish()
		}
		late = nil
		if r, isR := chk.(invariants.Remarker); isR && d != invariants.SSE {
			alarmsOut(r.Remark("dialect-late", invariants.SevInfo, f.Index, fmt.Sprintf(
				"frames from here on carry the %s signature, but a leading frame that is not JSON made the stream plain sse: check it as %s with --dialect %s",
				d.Name(), d.Name(), d.Name())))
		}
	}
	rr := runStages(c, h.OneStage, func(e *pipeEntry) {
		switch {
		case chk == nil:
			hold(e)
		case e.problem != nil:
			handProblem(&h, chk, meta.Name, e.problem)
		default:
			process(&e.frame.Event, &e.frame, e.arrival, e.hasArrival)
			if late != nil && e.frame.Decoded() {
				lateFeed(&e.frame)
			}
		}
	})
	if chk == nil {
		choose(detector.Finish())
	}
	end, readErr := rr.end, rr.readErr
	res.Bytes = rr.bytes
	ie := invariants.End{Kind: invariants.EndKind(end.Kind), Detail: end.Detail, At: end.T, HasTime: end.HasTime}
	if readErr != nil {
		ie = invariants.End{Kind: invariants.EndError, Detail: readErr.Error()}
		end = sessions.End{Kind: sessions.EndError, Detail: readErr.Error()}
	}
	if ie.Kind == "" {
		ie.Kind = invariants.EndEOF
	}
	alarmsOut(chk.End(ie))
	if rr.frames == 0 && ie.Kind != invariants.EndCancelled {
		alarmsOut(remarkEmpty(chk, rr.bytes))
	}
	res.End = end
	res.Frames = rr.frames
	res.Turns = chk.Turns()
	res.Counts = chk.Counts()
	res.Flavor = invariants.FlavorOf(chk)
	return res, readErr
}

// handProblem hands a capture problem on: a note to h.OnNote, damage to
// the checker, whose capture-problem alarms go to h.OnAlarms. The message
// names the capture's line when the problem has one.
func handProblem(h *Handler, chk invariants.Checker, name string, p *sessions.Problem) {
	msg := p.Message
	if p.Line > 0 {
		msg = name + ":" + strconv.Itoa(p.Line) + ": " + msg
	}
	if p.Note {
		if h.OnNote != nil {
			h.OnNote(msg)
		}
		return
	}
	sev := invariants.SevWarn
	if p.Lost {
		sev = invariants.SevError
	}
	if a := chk.CaptureProblem(msg, sev); len(a) > 0 && h.OnAlarms != nil {
		h.OnAlarms(a)
	}
}

// LookupRule finds a rule as the stream's dialect defines it (its clause
// and summary); an unknown dialect reads as dialects.Default.
func LookupRule(dialectName, rule string) (invariants.Rule, bool) {
	d, ok := dialects.Lookup(dialectName)
	if !ok {
		d = dialects.Default()
	}
	for _, r := range d.Rules() {
		if r.Name == rule {
			return r, true
		}
	}
	return invariants.Rule{}, false
}

// ExchangeOf is what meta knows of the HTTP exchange, for request-aware
// dialects (invariants.Options.Exchange); nil for a raw body.
func ExchangeOf(meta sessions.Meta) *invariants.Exchange {
	if !meta.HTTP && meta.Method == "" && meta.URL == "" && meta.RequestBody == nil {
		return nil
	}
	x := &invariants.Exchange{
		Method:          meta.Method,
		URL:             meta.URL,
		RequestHeaders:  meta.RequestHeaders,
		RequestBody:     meta.RequestBody,
		ResponseHeaders: meta.ResponseHeaders,
	}
	if meta.HTTP {
		x.Status = meta.Status
	}
	return x
}

// remarkEmpty raises capture-empty on a stream that held no frame, unless
// an error or warn already said what went wrong (one defect, one alarm:
// an HTTP error, a transport failure, a truncated event).
func remarkEmpty(chk invariants.Checker, bytes int64) []invariants.Alarm {
	r, ok := chk.(invariants.Remarker)
	if c := chk.Counts(); !ok || c.Error > 0 || c.Warn > 0 {
		return nil
	}
	msg := "the capture is empty (0 bytes): no frame to check"
	if bytes > 0 {
		msg = fmt.Sprintf("the capture holds %s but no frame (only comments, blank lines or fields without data): nothing to check", invariants.FormatBytes(bytes, false))
	}
	return r.Remark("capture-empty", invariants.SevWarn, invariants.NoFrame, msg)
}
