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
	// Content is how the checker counted a timed frame (one with an
	// arrival time) for its turn's timing: content and its characters, or
	// the end of a tool's wait (set when moves or content are wanted, for
	// checkers that say: invariants.ContentCounter). A viewer times its
	// rows by it, so the content is counted once.
	Content invariants.FrameContent
	// Turn is the index of the turn the frame belongs to (-1: none), and
	// TurnKey that turn's id so far (its response id, run id, turn id…).
	Turn    int
	TurnKey string
	// From says who sent the frame: the server, or on a two-way transport
	// (WebSocket) the client too. Only a TwoWay checker checks client frames.
	From sessions.Direction
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
	// them; check and dump do not, and a checker of its own maps them only
	// when asked).
	WantMoves bool
	// WantContent: set Item.Content (how the checker counted each timed
	// frame) without the moves (a report's excerpts of the frames its
	// budget alarms name).
	WantContent bool
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
	End     invariants.End
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

// Run reads a capture to its end through framer → decoder → dialect
// checker, streaming: memory stays bounded by the largest event, whatever
// the size of the capture. It is the one pipeline behind check, dump and the
// TUI, so they all see the same frames and alarms. Reading, framing and
// decoding run a stage ahead on a second core when there is one
// (pipeline_read.go); checking and the handlers stay on the caller's
// goroutine, in stream order. Unless opts.Dialect forces one, the dialect
// is detected from the first frames: blocks are held back (a few,
// bounded) until it is known, then handed on in order
// (pipeline_detect.go). The steps of a run are pipeline_run.go's.
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
	r := newRun(meta, opts, h, res)
	if forced != nil {
		r.choose(forced)
	} else {
		r.detector = dialects.NewDetector()
	}
	rr := runStages(c, h.OneStage, r.handle)
	return r.finish(rr)
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
