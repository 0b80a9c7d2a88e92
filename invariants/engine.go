package invariants

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"framescope/decode"
)

// Engine is the checker of every dialect built on a Spec: it runs the
// dialect's mapping on each frame and applies the generic rules over the
// moves, once for all dialects.
type Engine struct {
	// doneBeforeTurn: a [DONE] came before any turn (done-early said it).
	doneBeforeTurn bool
	spec           *Spec
	shape          Shape
	opts           Options
	mapper         Mapper
	m              Mapping

	out  []Alarm
	all  Counts
	list Listing // which alarms get a message (opts.ListLimit)
	// turns, state and keys hold the turns from base on: with
	// opts.OnTurnFinal, the turns before it were handed out and dropped.
	// Indexes (t, cur, lastTurn) count from the stream's first turn.
	turns []Turn
	state []*turnState // parallel to turns; nil once a turn is settled
	base  int
	// lastOutcome is the latest turn handed out with an outcome (-1 none).
	lastOutcome int
	// pending are turns handed out while still open, in index order.
	pending []pendingTurn
	cur     int // the latest turn (-1 none)
	// lastTurn is the turn of the frame last observed (-1 none).
	lastTurn int

	frames      int
	lastArrival time.Duration
	haveArrival bool
	doneAt      int // frame of the stream's [DONE] (-1 none)
	// afterDoneRaised: after-terminal was raised for a frame after [DONE].
	afterDoneRaised bool
	cut             int // frame of a MoveCut (-1 none)
	ended           bool
	seqs            map[string]*int64
	keys            []string     // each turn's key as a JSON literal (parallel to turns)
	openSpans       int          // spans open in every turn (NoTerminal: the idle window runs)
	finals          map[int]bool // turns whose terminal ends the stream without [DONE]
	// idLimitStream: id-limit was raised outside any turn (engine_ids.go).
	idLimitStream bool

	// Timing (timing_rules.go): the response's first bytes, the frame
	// idle-gap was last raised at (-1 none), whether any frame had an
	// arrival time, and whether delivery-buffered named the compression.
	firstByte      time.Duration
	hasFirstByte   bool
	idleAt         int
	timedAny       bool
	buffCompressed bool
	spareGaps      [][]time.Duration // gap buffers of settled turns, for new ones
	// counted is how the turn's timing counted the frame of index
	// countedAt-1 (timing_content.go).
	counted   FrameContent
	countedAt int
}

type turnState struct {
	ended   bool                             // terminal (or cut) seen
	started bool                             // opened by a MoveTurnStart
	final   bool                             // the terminal ends the stream without [DONE]
	spans   [spanKinds]map[string]*spanState // by kind, then the key's JSON literal
	spanOrd []spanKey
	tools   map[string]*toolState
	toolOrd []string
	// missingRaised: the mapper raised terminal-missing itself (one per
	// choice in OpenAI Chat), so the generic one is not raised again.
	missingRaised bool
	idBound       // how many ids are open; past MaxOpenIDs (engine_ids.go)
	// timing is the turn's delivery, judged once (timed); firstContent
	// the frame of its first content.
	timing       Timing
	timed        bool
	firstContent int
	stamps       stampSpread // the server's stamps of its timed frames (timing_stamp.go)
}

const spanKinds = int(SpanReasoning) + 1

type spanKey struct {
	kind SpanKind
	key  string // JSON literal
}

type spanState struct {
	name  string
	frame int
	ord   int // its entry in spanOrd (a stale entry names another)
	open  bool
}

type toolState struct {
	name  string
	frame int
	open  bool
	ready bool
}

var sseContentTypes = []string{"text/event-stream"}

// NewEngine returns a checker for one stream of spec's dialect.
func NewEngine(spec *Spec, opts Options) *Engine {
	listening := spec.Shape.SubscriptionGET && opts.Exchange != nil && opts.Exchange.Method == "GET"
	if opts.Idle == 0 && listening {
		opts.Idle = -1 // silent until the server has something to say
	}
	if opts.Idle == 0 {
		opts.Idle = spec.Shape.Idle
		if opts.Idle == 0 {
			opts.Idle = DefaultIdle
		}
	}
	if opts.TTFE == 0 {
		opts.TTFE = DefaultTTFE
		if spec.Shape.Subscription || listening {
			opts.TTFE = -1
		}
	}
	timingOpts(&opts)
	e := &Engine{spec: spec, shape: spec.Shape, opts: opts, cur: -1, lastTurn: -1, doneAt: -1, cut: -1, lastOutcome: -1, idleAt: -1}
	e.list = NewListing(opts.ListLimit)
	if spec.NewMapper != nil {
		e.mapper = spec.NewMapper()
	}
	e.m.e = e
	return e
}

func (e *Engine) Counts() Counts { return e.all }
func (e *Engine) Turns() []Turn  { return e.turns }
func (e *Engine) Frames() int    { return e.frames }
func (e *Engine) Moves() []Move  { return e.m.Moves }
func (e *Engine) Turn() int      { return e.lastTurn }

// Remark raises a stream-level alarm the pipeline found (Remarker).
func (e *Engine) Remark(rule string, sev Severity, frame int, msg string) []Alarm {
	e.out = e.out[:0]
	e.raise(rule, sev, frame, -1, "%s", msg)
	return e.out
}

// Flavor is the provider flavor the mapping recognised or the user forced
// (invariants.Flavored).
func (e *Engine) Flavor() string { return e.m.Flavor() }

// raise records an alarm of the turn t (-1: the stream).
func (e *Engine) raise(rule string, sev Severity, frame, t int, format string, args ...any) {
	a := e.newAlarm(rule, sev, frame, t)
	if !e.list.Take(rule, t) {
		a.Unlisted = true // counted; past the listing limit, no message made
		if !e.opts.EveryMessage {
			return
		}
	}
	switch {
	case len(args) == 0:
		a.Message = format
	default:
		a.Message = fmt.Sprintf(format, args...)
	}
}

// newAlarm appends a counted alarm of turn t without a message yet (built
// in place: a flood raises millions).
func (e *Engine) newAlarm(rule string, sev Severity, frame, t int) *Alarm {
	a := NewAlarm(&e.out, rule, sev, frame, t)
	if i := t - e.base; t >= 0 && i >= 0 && i < len(e.turns) {
		a.ResponseID = e.turns[i].ResponseID
	} else if p := e.pendingOf(t); p != nil {
		a.ResponseID = p.rid
	}
	e.all.Add(sev)
	return a
}

func (e *Engine) HTTP(status int, contentType string) []Alarm {
	e.out = e.out[:0]
	if status < 200 || status > 299 {
		e.raise("http-status", SevError, NoFrame, -1, "HTTP status %d is not 2xx", status)
	}
	mt := strings.ToLower(strings.TrimSpace(contentType))
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = strings.TrimSpace(mt[:i])
	}
	want := e.shape.ContentTypes
	if len(want) == 0 {
		want = sseContentTypes
	}
	if !slices.Contains(want, mt) {
		if contentType == "" {
			e.raise("content-type", SevWarn, NoFrame, -1, "the response has no Content-Type (want %s)", want[0])
		} else {
			e.raise("content-type", SevWarn, NoFrame, -1, "Content-Type is %q, not %s", decode.Clip(contentType, 80), strings.Join(want, " or "))
		}
	}
	return e.out
}

func (e *Engine) Truncated(ev *decode.Event) []Alarm {
	e.out = e.out[:0]
	who := "a client discards it"
	if tn, ok := e.mapper.(TruncationNoter); ok {
		if s := tn.TruncationNote(ev); s != "" {
			who = s
		}
	}
	e.raise("sse-truncated", SevWarn, NoFrame, e.cur,
		"the stream ended inside an SSE event at byte %d (%d bytes without the closing blank line); %s", ev.Offset, ev.Size, who)
	return e.out
}

func (e *Engine) CaptureProblem(msg string, sev Severity) []Alarm {
	e.out = e.out[:0]
	e.raise("capture-corrupt", sev, NoFrame, e.cur, "%s", msg)
	return e.out
}

// Block: a comment is a heartbeat in the dialects that send them so.
func (e *Engine) Block(ev *decode.Event, arrival time.Duration, hasArrival bool) {
	if hasArrival && !e.hasFirstByte {
		e.firstByte, e.hasFirstByte = arrival, true
	}
	if e.shape.CommentHeartbeats && len(ev.Comments) > 0 && hasArrival {
		e.lastArrival, e.haveArrival = arrival, true
	}
}

// open reports whether turn t can still take frames (not ended).
func (e *Engine) open(t int) bool {
	return t >= 0 && e.state[t-e.base] != nil && !e.state[t-e.base].ended
}

// anyOpen reports whether some turn is open (the idle window runs).
func (e *Engine) anyOpen() bool {
	if e.shape.Turns == NoTurns {
		return e.doneAt < 0
	}
	if e.shape.NoTerminal {
		return e.openSpans > 0 // a turn lasts while its streams do
	}
	for i := len(e.state) - 1; i >= 0; i-- {
		if e.state[i] != nil && !e.state[i].ended {
			return true
		}
	}
	return len(e.pending) > 0 // handed out while open: open until End
}

func (e *Engine) Observe(f *decode.Frame) []Alarm {
	e.out = e.out[:0]
	e.frames++
	m := &e.m
	m.reset()

	idleOpen := e.anyOpen()
	e.checkFraming(f)
	decoded := e.decoded(f)
	mapped := decoded
	if decoded && e.mapper != nil {
		e.mapper.Map(f, m)
	} else if tm, ok := e.mapper.(TextMapper); ok && !decoded && !f.Done && e.shape.NotJSON {
		tm.MapText(f, m)
		mapped = true
	}
	if e.shape.Turns == NoTurns {
		e.lastTurn = -1
		e.checkTiming(f, idleOpen)
		e.flushMapped(where{f, f.Index}, -1)
		return e.out
	}

	// Which turn the frame belongs to.
	t := -1
	startsTurn := m.starts()
	afterDone := e.doneAt >= 0 && !f.Done
	switch {
	case f.Done:
		t = e.cur
	case m.Stream:
	case e.cut >= 0 || afterDone:
		t = e.cur
	case e.shape.Turns == TurnPerStream:
		if e.cur < 0 {
			t = e.newTurn(f, startsTurn, nil)
		} else {
			t = e.cur
		}
	default: // TurnKeyed
		t = e.keyedTurn(f, m, startsTurn)
	}
	e.lastTurn = t
	wasEnded := true
	if t >= 0 {
		turn := &e.turns[t-e.base]
		turn.LastFrame = f.Index
		turn.Frames++
		if st := e.state[t-e.base]; st != nil {
			wasEnded = st.ended
		}
	}
	e.checkTiming(f, idleOpen)

	if f.Done {
		e.observeDone(f, t)
		e.timeFrame(f, t, wasEnded)
		return e.out
	}
	late := false
	switch {
	case e.cut >= 0:
		e.raise("after-terminal", SevError, f.Index, t, "%s frame after the server cut the stream at frame %d", e.label(f), e.cut)
		late = true
	case afterDone:
		// The stream goes on past its end: one defect, one alarm, on the
		// first frame after the [DONE] (a client that stops there loses
		// them all; one that reads on applies them to a finished turn).
		if !e.afterDoneRaised {
			e.afterDoneRaised = true
			e.raise("after-terminal", SevError, f.Index, t, "%s frame after the stream's [DONE] at frame %d (and any later frame)", e.label(f), e.doneAt)
		}
		late = true
	case t >= 0 && e.state[t-e.base].ended && !e.shape.NoTerminal:
		e.raise("after-terminal", SevError, f.Index, t, "%s frame after the turn's terminal %s at frame %d",
			e.label(f), e.turns[t-e.base].TerminalEvent, e.turns[t-e.base].TerminalFrame)
		late = true
	}
	if mapped {
		e.applyMoves(where{f, f.Index}, t, late)
	}
	e.flushMapped(where{f, f.Index}, t)
	e.timeFrame(f, t, wasEnded || late)
	return e.out
}

// keyedTurn finds (or opens) the turn a frame of a keyed dialect belongs to.
func (e *Engine) keyedTurn(f *decode.Frame, m *Mapping, startsTurn bool) int {
	if startsTurn {
		// A start while its turn (or, with OneOpenTurn, any turn) is open
		// belongs to that turn: applyMoves raises start-duplicate on it.
		key := m.startKey()
		if e.shape.OneOpenTurn && e.open(e.cur) {
			return e.cur
		}
		if t := e.findTurn(key); t >= 0 && e.open(t) && key != nil {
			return t
		}
		return e.newTurn(f, true, key)
	}
	if m.Turn != nil {
		if t := e.findTurn(m.Turn); t >= 0 {
			return t
		}
		return e.newTurn(f, false, m.Turn)
	}
	if e.cur >= 0 {
		return e.cur
	}
	return e.newTurn(f, false, nil)
}

func (e *Engine) findTurn(key decode.Raw) int {
	if key == nil {
		return -1
	}
	for i := len(e.keys) - 1; i >= 0 && i >= len(e.keys)-keyedWindow; i-- {
		if e.keys[i] == string(key) {
			return e.base + i
		}
	}
	return -1
}

func (e *Engine) newTurn(f *decode.Frame, started bool, key decode.Raw) int {
	e.handOut(len(e.turns) - keyedWindow)
	e.turns = append(e.turns, Turn{FirstFrame: f.Index, LastFrame: f.Index, TerminalFrame: NoFrame,
		ResponseID: keyString(key)})
	st := &turnState{started: started, firstContent: NoFrame}
	e.state = append(e.state, st)
	e.keys = append(e.keys, string(key))
	e.cur = e.base + len(e.turns) - 1
	e.startTiming(e.cur, st)
	if !started && e.shape.StartRequired {
		e.raise("start-missing", SevError, f.Index, e.cur, "the turn's first frame is %s, not the dialect's start event", e.label(f))
	}
	return e.cur
}

func (e *Engine) observeDone(f *decode.Frame, t int) {
	if !e.shape.Done {
		reading := DoneIgnored
		if e.shape.DoneBreaks {
			reading = DoneBreaks
		}
		if dr, ok := e.mapper.(DoneReader); ok {
			reading = dr.ReadDone()
		}
		switch reading {
		case DoneBreaks:
			e.raise("frame-json", SevError, f.Index, t, "[DONE] is not part of the %s wire and not JSON: the client's JSON parse fails on it", e.spec.ID)
		case DoneIgnored:
			e.raise("event-unknown", SevInfo, f.Index, t, "[DONE] is not part of the %s wire; clients ignore it", e.spec.ID)
		}
		return
	}
	if e.doneAt >= 0 {
		e.raise("after-terminal", SevError, f.Index, t, "a second [DONE] after the one at frame %d", e.doneAt)
		return
	}
	e.doneAt = f.Index
	if dm, ok := e.mapper.(DoneMapper); ok && t >= 0 {
		e.m.reset()
		dm.MapDone(&e.m)
		e.applyMoves(where{nil, f.Index}, t, e.state[t-e.base] == nil || e.state[t-e.base].ended)
		e.flushMapped(where{nil, f.Index}, t)
	}
	if t < 0 {
		e.raise("done-early", SevError, f.Index, t, "[DONE] arrived before any turn")
		e.doneBeforeTurn = true
		return
	}
	e.turns[t-e.base].Done = true
	if !e.state[t-e.base].ended && e.cut < 0 {
		e.raise("done-early", SevError, f.Index, t, "[DONE] arrived but the turn has no terminal event")
		e.missing(t, false, "[DONE] at frame "+fmt.Sprint(f.Index))
	}
}

func (e *Engine) End(end End) []Alarm {
	e.out = e.out[:0]
	if e.ended {
		return e.out
	}
	e.ended = true
	if m, ok := e.mapper.(Ender); ok {
		e.m.reset()
		e.m.end = &end
		m.EndStream(&e.m)
		e.m.end = nil
		if e.cur >= 0 && e.state[e.cur-e.base] != nil {
			e.applyMoves(where{nil, NoFrame}, e.cur, e.state[e.cur-e.base].ended)
		}
		e.flushMapped(where{nil, NoFrame}, e.cur)
	}
	e.endTiming()
	if e.anyOpen() && end.HasTime && e.haveArrival && e.opts.Idle > 0 {
		if gap := end.At - e.lastArrival; gap > e.opts.Idle {
			e.raise("idle-gap", SevWarn, NoFrame, e.cur, "no frame for %s before the stream ended (%s) while the turn was open (idle window %s)",
				FormatDur(gap), end.Label(), e.opts.Idle)
		}
	}
	if e.shape.Turns == NoTurns {
		// No turn can say the stream failed: one alarm says it (in a
		// dialect with turns, terminal-missing does).
		if end.Kind == EndError {
			e.raise("stream-error", SevError, NoFrame, -1, "the stream ended by an error: %s", end.Label())
		}
		return e.out
	}
	if e.base+len(e.turns) == 0 {
		// A [DONE] before any turn already said it (done-early): one
		// defect, one alarm.
		if !e.shape.NoTerminal && !e.doneBeforeTurn && !e.shape.Session {
			sev := SevError
			if end.Kind == EndCancelled {
				sev = SevInfo
			}
			e.raise("terminal-missing", sev, NoFrame, -1, "the stream ended (%s) before any frame arrived", end.Label())
		}
		return e.out
	}
	endTurn := func(t int, st *turnState) {
		if st == nil {
			return
		}
		if e.shape.NoTerminal {
			e.settleNoTerminal(t)
			return
		}
		if !st.ended {
			e.missing(t, end.Kind == EndCancelled || e.cut >= 0, end.Label())
			return
		}
		e.setState(t, nil)
	}
	for _, p := range e.pending { // the oldest turns first, as they came
		endTurn(p.t, p.st)
	}
	for i := range e.turns {
		endTurn(e.base+i, e.state[i])
	}
	last := e.base + len(e.turns) - 1
	if e.shape.Done && e.doneAt < 0 && e.cut < 0 && e.turns[last-e.base].Outcome != "" && !e.lastFinal() {
		at := "at the end of the stream"
		if fr := e.turns[last-e.base].TerminalFrame; fr != NoFrame {
			at = fmt.Sprintf("at frame %d", fr)
		}
		e.raise("done-missing", SevWarn, NoFrame, last, "the stream ended (%s) after the terminal %s %s without [DONE]",
			end.Label(), e.turns[last-e.base].TerminalEvent, at)
	}
	return e.out
}

func (e *Engine) lastFinal() bool {
	for i := len(e.turns) - 1; i >= 0; i-- {
		if e.turns[i].Outcome != "" {
			return e.finalTurn(e.base + i)
		}
	}
	return e.lastOutcome >= 0 && e.finalTurn(e.lastOutcome)
}

func (e *Engine) finalTurn(t int) bool { return e.finals[t] }

// missing ends turn t without a terminal: terminal-missing, and the spans
// it left open (warn: the missing terminal already says the turn broke).
func (e *Engine) missing(t int, benign bool, how string) {
	st := e.stateOf(t)
	if st == nil || st.ended {
		return
	}
	st.ended = true
	if st.missingRaised {
		e.unclosedSpans(t, NoFrame, SevWarn, "before the turn ended without a terminal")
		e.setState(t, nil)
		return
	}
	sev := SevError
	msg := "the turn ended (%s) without a terminal event"
	switch {
	case e.cut >= 0:
		sev, msg = SevInfo, "the server cut the stream (%s) before the turn's terminal event; the client must reconnect and resume"
	case benign:
		sev, msg = SevInfo, "the client ended the turn (%s) before a terminal event"
	}
	e.raise("terminal-missing", sev, NoFrame, t, msg, how)
	e.unclosedSpans(t, NoFrame, SevWarn, "before the turn ended without a terminal")
	e.setState(t, nil)
}

// settleNoTerminal ends a turn of a dialect without terminal events at the
// end of the stream: complete when every span closed.
func (e *Engine) settleNoTerminal(t int) {
	st := e.stateOf(t)
	openSpans := 0
	for i := range st.spanOrd {
		if s := st.liveSpan(i); s != nil && s.open {
			openSpans++
		}
	}
	if openSpans > 0 {
		e.unclosedSpans(t, NoFrame, SevError, "at the end of the stream")
	} else if turn := &e.turns[t-e.base]; turn.Outcome == "" { // never pending: it has open spans
		turn.Outcome = TurnCompleted
		turn.Terminal = TerminalOf(TurnCompleted)
	}
	e.setState(t, nil)
}

func (e *Engine) unclosedSpans(t, frame int, sev Severity, when string) {
	st := e.stateOf(t)
	for i, k := range st.spanOrd {
		if s := st.liveSpan(i); s != nil && s.open {
			e.raise("span-unclosed", sev, frame, t, "%s %s (opened at frame %d) is still open %s", k.kind, clipRaw(decode.Raw(k.key)), s.frame, when)
			s.open = false
			e.openSpans--
			st.liveSpans--
		}
	}
}

func (e *Engine) checkFraming(f *decode.Frame) {
	if f.InvalidUTF8 {
		e.raise("frame-utf8", SevError, f.Index, e.cur, "the frame's bytes are not valid UTF-8")
	}
	e.checkFrameSize(f)
	if e.shape.NotJSON || e.decoded(f) {
		return
	}
	if (f.Problem == decode.ProblemNotJSON || f.Problem == decode.ProblemNotObject) && !e.opts.EveryMessage && !e.list.Listed("frame-json", e.cur) {
		e.newAlarm("frame-json", SevError, f.Index, e.cur).Unlisted = true // counted, not listed: no detail made
		return
	}
	switch f.Problem {
	case decode.ProblemNotJSON:
		e.raise("frame-json", SevError, f.Index, e.cur, "data is not JSON (%s)", f.ProblemDetail())
	case decode.ProblemNotObject:
		e.raise("frame-json", SevError, f.Index, e.cur, "%s", f.ProblemDetail())
	}
}

func (e *Engine) checkTiming(f *decode.Frame, idleOpen bool) {
	if !f.HasArrival {
		return
	}
	if !e.timedAny {
		e.timedAny = true
		if !e.hasFirstByte {
			e.firstByte, e.hasFirstByte = f.Arrival, true
		}
	}
	if e.frames == 1 && e.opts.TTFE > 0 && f.Arrival > e.opts.TTFE {
		e.raise("ttfe", SevWarn, f.Index, e.cur, "first frame arrived %s after the response started (bound %s)", FormatDur(f.Arrival), e.opts.TTFE)
	}
	if e.haveArrival && idleOpen && e.opts.Idle > 0 {
		if gap := f.Arrival - e.lastArrival; gap > e.opts.Idle {
			e.raise("idle-gap", SevWarn, f.Index, e.cur, "no frame for %s while the turn was open (idle window %s)", FormatDur(gap), e.opts.Idle)
			e.idleAt = f.Index
		}
	}
	e.lastArrival, e.haveArrival = f.Arrival, true
}

// flushMapped raises what the mapping said of the frame: its own alarms,
// an unknown type, an SSE event: field that disagrees with the JSON type.
func (e *Engine) flushMapped(w where, t int) {
	m := &e.m
	frame, f := w.idx, w.f
	if f != nil {
		if m.Unknown {
			e.raise("event-unknown", SevInfo, frame, t, "%s is not in the %s vocabulary; clients ignore it", e.label(f), e.spec.ID)
		}
		if e.shape.EventField && f.HasType && m.Type != nil && e.decoded(f) && !m.Type.StrEq(f.Event.Type) {
			sev := SevError
			if s, ok := e.spec.Severities["sse-event-mismatch"]; ok {
				sev = s // the dialect's clients read the JSON type (openai-responses)
			}
			e.raise("sse-event-mismatch", sev, frame, t, "SSE event: %q but the JSON type is %s", decode.Clip(f.Event.Type, 40), clipRaw(m.Type))
		}
	}
	for _, a := range m.alarms {
		if a.rule == idLimitRule {
			var st *turnState
			if t >= 0 {
				st = e.stateOf(t)
			}
			e.saturate(frame, t, st, a.msg)
			continue
		}
		if a.rule == "terminal-missing" && t >= 0 && e.state[t-e.base] != nil {
			e.state[t-e.base].missingRaised = true
		}
		fr := frame
		if a.noFrame {
			fr = NoFrame
		}
		e.raise(a.rule, a.sev, fr, t, "%s", a.msg)
	}
}

// applyMoves runs the generic rules over the frame's moves.
func (e *Engine) applyMoves(w where, t int, late bool) {
	for i := range e.m.Moves {
		mv := &e.m.Moves[i]
		switch mv.Kind {
		case MoveSeq:
			e.seq(w, t, mv)
			continue
		case MoveCut:
			if e.cut < 0 {
				e.cut = w.idx
			}
			continue
		}
		if t < 0 || late {
			// After the stream's [DONE], the one after-terminal says it all.
			if late && t >= 0 && mv.Kind == MoveTerminal && e.turns[t-e.base].Outcome != "" && e.doneAt < 0 {
				e.raise("terminal-duplicate", SevError, w.idx, t, "second terminal event (%s) after %s at frame %d",
					e.labelAt(w), e.turns[t-e.base].TerminalEvent, e.turns[t-e.base].TerminalFrame)
			}
			continue
		}
		st := e.state[t-e.base]
		if st == nil {
			continue
		}
		turn := &e.turns[t-e.base]
		switch mv.Kind {
		case MoveTurnStart:
			if !st.started && turn.FirstFrame != w.idx {
				if e.shape.Turns == TurnPerStream {
					e.raise("start-duplicate", SevError, w.idx, t, "%s inside the turn that began at frame %d", e.labelAt(w), turn.FirstFrame)
				}
			} else if st.started && turn.FirstFrame != w.idx {
				e.raise("start-duplicate", SevError, w.idx, t, "%s while the turn opened at frame %d is still open", e.labelAt(w), turn.FirstFrame)
			}
			st.started = true
			if mv.Key != nil && turn.ResponseID == "" {
				e.nameTurn(t, mv.Key)
			}
		case MoveTurnKey:
			if mv.Key != nil && turn.ResponseID == "" {
				e.nameTurn(t, mv.Key)
			}
		case MoveTerminal:
			e.terminal(w, t, mv)
		case MoveText, MoveReasoning:
			if mv.Key != nil && mv.Span != SpanNone {
				if _, ok := e.spanOpen(st, mv.Span, mv.Key); !ok && !(unknownOK(st) && st.spans[mv.Span][string(mv.Key)] == nil) {
					e.raise("span-orphan", SevError, w.idx, t, "%s delta for %s %s that is not open", e.labelAt(w), mv.Span, clipRaw(mv.Key))
				}
			}
		case MoveSpanOpen:
			byKey := st.spans[mv.Span]
			if byKey == nil {
				byKey = map[string]*spanState{}
				st.spans[mv.Span] = byKey
			}
			if s, ok := byKey[string(mv.Key)]; ok && s.open {
				e.raise("span-duplicate", SevError, w.idx, t, "%s %s opened again; it is open since frame %d", mv.Span, clipRaw(mv.Key), s.frame)
				continue
			}
			if !e.admit(w, t, st, e.labelAt(w)) {
				continue
			}
			k := spanKey{mv.Span, string(mv.Key)}
			byKey[k.key] = &spanState{name: rawText(mv.Name), frame: w.idx, ord: len(st.spanOrd), open: true}
			e.openSpans++
			st.liveSpans++
			st.spanOrd = append(st.spanOrd, k)
		case MoveSpanClose:
			if s, ok := st.spans[mv.Span][string(mv.Key)]; ok && s.open {
				s.open = false
				e.openSpans--
				st.liveSpans--
				st.forgetSpan(mv.Span, string(mv.Key))
			} else if !unknownOK(st) || ok {
				e.raise("span-orphan", SevError, w.idx, t, "%s closes %s %s that is not open", e.labelAt(w), mv.Span, clipRaw(mv.Key))
			}
		case MoveToolOpen:
			e.toolOpen(w, t, st, mv)
		case MoveToolArgs, MoveToolReady:
			if ts := st.tools[string(mv.Key)]; ts == nil && unknownOK(st) {
				continue
			} else if ts == nil || !ts.open {
				e.raise("tool-orphan", SevError, w.idx, t, "%s for tool call %s that is not open", e.labelAt(w), clipRaw(mv.Key))
			} else if mv.Kind == MoveToolReady {
				ts.ready = true
			}
		case MoveToolClose:
			ts := st.tools[string(mv.Key)]
			if ts == nil && unknownOK(st) {
				continue
			}
			if ts == nil || !ts.open {
				e.raise("tool-orphan", SevError, w.idx, t, "%s ends tool call %s that is not open", e.labelAt(w), clipRaw(mv.Key))
				continue
			}
			ts.open = false
			st.openTools--
			if mv.Name != nil && ts.name != "" && rawText(mv.Name) != ts.name {
				e.raise("tool-mismatch", SevError, w.idx, t, "tool call %s opened as %q (frame %d) ends as %s",
					clipRaw(mv.Key), decode.Clip(ts.name, 60), ts.frame, clipRaw(mv.Name))
			}
		}
	}
}

func (e *Engine) toolOpen(w where, t int, st *turnState, mv *Move) {
	if emptyKey(mv.Key) {
		e.raise("tool-malformed", SevError, w.idx, t, "%s opens a tool call without an id", e.labelAt(w))
		return
	}
	if st.tools == nil {
		st.tools = map[string]*toolState{}
	}
	if ts, ok := st.tools[string(mv.Key)]; ok && (ts.open || !e.shape.ReuseToolIDs) {
		e.raise("tool-duplicate", SevError, w.idx, t, "tool call %s opened again; first opened at frame %d", clipRaw(mv.Key), ts.frame)
		return
	} else if ok {
		if !e.admit(w, t, st, e.labelAt(w)) {
			return
		}
		ts.open, ts.ready, ts.frame, ts.name = true, false, w.idx, rawText(mv.Name)
		st.openTools++
		return
	}
	if !e.admit(w, t, st, e.labelAt(w)) {
		return
	}
	st.forgetFinishedTools()
	id := string(mv.Key)
	st.tools[id] = &toolState{name: rawText(mv.Name), frame: w.idx, open: true}
	st.openTools++
	st.toolOrd = append(st.toolOrd, id)
}

func (e *Engine) terminal(w where, t int, mv *Move) {
	turn := &e.turns[t-e.base]
	st := e.state[t-e.base]
	name := rawText(mv.Name)
	if name == "" {
		name = e.labelAt(w)
	}
	if st.ended {
		e.raise("terminal-duplicate", SevError, w.idx, t, "second terminal event (%s) after %s at frame %d", name, turn.TerminalEvent, turn.TerminalFrame)
		return
	}
	st.ended = true
	st.final = mv.Final
	if mv.Final {
		e.markFinal(t)
	}
	turn.Outcome = mv.Outcome
	turn.Terminal = TerminalOf(mv.Outcome)
	turn.TerminalFrame = w.idx
	turn.TerminalEvent = name
	// An interrupt (AG-UI) hands the turn back to the user cleanly: what it
	// leaves open is as wrong as at a success.
	sev, when := SevError, "before the success terminal "+name
	if mv.Outcome != TurnCompleted && mv.Outcome != TurnInterrupted {
		sev, when = SevWarn, "at the terminal "+name+" ("+mv.Outcome+")"
	}
	if !e.shape.NoTerminal {
		e.unclosedSpans(t, w.idx, sev, when)
	}
	for _, id := range st.toolOrd {
		if ts := st.tools[id]; ts.open && !(ts.ready && mv.Outcome == TurnCompleted) {
			e.raise("tool-unfinished", sev, w.idx, t, "tool call %s (%s) from frame %d has no result %s", clipRaw(decode.Raw(id)), decode.Clip(ts.name, 60), ts.frame, when)
		}
	}
	st.spans, st.spanOrd, st.tools, st.toolOrd = [spanKinds]map[string]*spanState{}, nil, nil, nil
	st.liveSpans, st.openTools = 0, 0
}

func (e *Engine) markFinal(t int) {
	if e.finals == nil {
		e.finals = map[int]bool{}
	}
	e.finals[t] = true
}

func (e *Engine) seq(w where, t int, mv *Move) {
	if e.seqs == nil {
		e.seqs = map[string]*int64{}
	}
	var last int64
	p, seen := e.seqs[string(mv.Key)]
	if seen {
		last = *p
	}
	// The counter's name is made only for a message: a seq move is on the
	// hot path.
	what := func() string {
		if mv.Name != nil {
			return rawText(mv.Name)
		}
		return "sequence number"
	}
	switch {
	case !seen:
		if mv.SeqFrom >= 0 && mv.Seq != mv.SeqFrom {
			if mv.Seq > mv.SeqFrom && mv.SeqGap != "" {
				e.raise("seq-gap", Severity(mv.SeqGap), w.idx, t, "%s starts at %d, not %d", what(), mv.Seq, mv.SeqFrom)
			} else if mv.Seq < mv.SeqFrom {
				e.raise("seq-order", SevError, w.idx, t, "%s starts at %d, below %d", what(), mv.Seq, mv.SeqFrom)
			}
		}
	case mv.Seq <= last:
		e.raise("seq-order", SevError, w.idx, t, "%s %d after %d: it must increase", what(), mv.Seq, last)
		return // keep the highest value seen
	case mv.Seq > last+1 && mv.SeqGap != "":
		e.raise("seq-gap", Severity(mv.SeqGap), w.idx, t, "%s jumps from %d to %d (%d missing)", what(), last, mv.Seq, mv.Seq-last-1)
	}
	if !seen {
		v := mv.Seq
		e.seqs[string(mv.Key)] = &v
		return
	}
	*p = mv.Seq
}

func (e *Engine) nameTurn(t int, key decode.Raw) {
	id := keyString(key)
	e.turns[t-e.base].ResponseID = id
	for i := range e.out {
		if e.out[i].Turn == t && e.out[i].ResponseID == "" {
			e.out[i].ResponseID = id
		}
	}
}

func (e *Engine) spanOpen(st *turnState, kind SpanKind, key decode.Raw) (string, bool) {
	s, ok := st.spans[kind][string(key)]
	if !ok || !s.open {
		return "", false
	}
	return s.name, true
}

// where is the frame the moves being applied came from: f is nil for the
// moves a mapper makes at [DONE] or at the end of the stream.
type where struct {
	f   *decode.Frame
	idx int
}

func (e *Engine) labelAt(w where) string {
	if w.f == nil {
		if w.idx == NoFrame {
			return "the end of the stream"
		}
		return "[DONE]"
	}
	return e.label(w.f)
}

// decoded reports whether the frame's data is a JSON value the mapper
// reads: an object, or any JSON value in a dialect whose Shape.JSONValues
// says so (LangGraph's [message, metadata] tuples, its end event's null).
func (e *Engine) decoded(f *decode.Frame) bool {
	return f.Decoded() || (e.shape.JSONValues && f.Problem == decode.ProblemNotObject && !f.Done)
}

func (e *Engine) label(f *decode.Frame) string {
	if !e.decoded(f) {
		if f.Done {
			return "[DONE]"
		}
		return "undecodable"
	}
	if l := e.spec.Label(f); l != "" {
		return decode.Clip(l, 40)
	}
	return "untyped"
}

// keyedWindow is how many of the latest turns a keyed frame can find
// (findTurn): older turns get frames no more.
const keyedWindow = 64

// handOut gives the oldest turns, up to the first n held, to
// opts.OnTurnFinal and drops them, in order. The caller keeps the latest
// keyedWindow turns: older ones are out of findTurn's reach and get no
// frame again, so their summaries are final, except that End completes a
// turn without terminal events whose spans all closed: that is done now.
// A turn still open keeps its state (pending) for End to end.
func (e *Engine) handOut(n int) {
	if e.opts.OnTurnFinal == nil {
		return
	}
	k := 0
	for ; k < n && k < len(e.turns); k++ {
		t, st := e.base+k, e.state[k]
		if st != nil && e.shape.NoTerminal && !hasOpenSpan(st) {
			e.settleNoTerminal(t)
			st = nil
		}
		if st != nil && (!st.ended || e.shape.NoTerminal) {
			e.pending = append(e.pending, pendingTurn{t: t, rid: e.turns[k].ResponseID, st: st})
		}
		if e.turns[k].Outcome != "" {
			e.lastOutcome = t
		}
		if st != nil && !st.timed {
			// Still open: its figures as of now.
			e.turns[k].Timing = st.timing.Summary()
		}
		e.opts.OnTurnFinal(t, e.turns[k])
	}
	if k == 0 {
		return
	}
	clear(e.turns[:k])
	clear(e.state[:k])
	clear(e.keys[:k])
	e.turns, e.state, e.keys = e.turns[k:], e.state[k:], e.keys[k:]
	e.base += k
	// Turns handed out raise no more alarms, but for those still open
	// (End ends them): their counts stay.
	done := e.base
	if len(e.pending) > 0 {
		done = min(done, e.pending[0].t)
	}
	e.list.Forget(done)
}

// pendingTurn is a turn handed out while still open.
type pendingTurn struct {
	t   int
	rid string
	st  *turnState
}

// pendingOf finds turn t among the pending (in index order).
func (e *Engine) pendingOf(t int) *pendingTurn {
	i, ok := slices.BinarySearchFunc(e.pending, t, func(p pendingTurn, t int) int { return cmp.Compare(p.t, t) })
	if !ok {
		return nil
	}
	return &e.pending[i]
}

// stateOf is turn t's state, held or pending (nil: settled).
func (e *Engine) stateOf(t int) *turnState {
	if i := t - e.base; i >= 0 && i < len(e.state) {
		return e.state[i]
	}
	if p := e.pendingOf(t); p != nil {
		return p.st
	}
	return nil
}

func (e *Engine) setState(t int, st *turnState) {
	if i := t - e.base; i >= 0 && i < len(e.state) {
		e.state[i] = st
	} else if p := e.pendingOf(t); p != nil {
		p.st = st
	}
}

func hasOpenSpan(st *turnState) bool {
	for i := range st.spanOrd {
		if s := st.liveSpan(i); s != nil && s.open {
			return true
		}
	}
	return false
}
