package pc3

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// Checker checks frames incrementally: Observe each frame as it arrives,
// then End once. Alarms come out as soon as they are decidable.
type Checker struct {
	// stamp is the timestamp of the frame last observed (hasStamp: it
	// had one that parsed), for invariants.Stamped.
	stamp    instant
	hasStamp bool
	opts     invariants.Options
	out      []invariants.Alarm // alarms of the current call (reused)
	all      invariants.Counts
	list     invariants.Listing // which alarms get a message (Options.ListLimit)

	turns []invariants.Turn
	// base is the index of turns[0]: the turns before it were handed to
	// opts.OnTurnFinal and dropped.
	base int
	cur  *turnState // the latest turn; nil before the first frame

	// names interns the tool names and types and component types the
	// turns keep (a few distinct ones serve every turn); bounded.
	names map[string]string
	// scratch holds a decoded text chunk while it is searched.
	scratch []byte

	frames      int
	lastArrival time.Duration
	haveArrival bool
	ended       bool

	// Delivery (timing.go): the response's first bytes, the frame
	// idle-gap was last raised at, whether any frame was timed (and the
	// frame being observed: its payload check counts a text's characters
	// then), and whether delivery-buffered named the compression.
	firstByte      time.Duration
	hasFirstByte   bool
	idleAt         int
	timedAny       bool
	timedNow       bool
	buffCompressed bool
	// counted is how the turn's timing counted the frame of index
	// countedAt-1 (invariants.ContentCounter; timing.go).
	counted   invariants.FrameContent
	countedAt int
}

type turnState struct {
	idx         int
	closed      bool // its [DONE] arrived (or the stream ended)
	sawRIDFrame bool
	rid         string
	haveRID     bool
	version     string
	haveVersion bool
	lastTS      instant
	haveTS      bool

	// tools and comps map an id to its entry in toolList / compList, which
	// keep them in order of appearance. The checker reuses one turnState
	// (maps and lists cleared) from turn to turn.
	tools    map[string]int32
	toolList []toolState
	comps    map[string]int32
	compList []compState
	// firstSoftError is the first non-terminal error of the turn (-1 none);
	// sawText says the turn carried a text frame. AC-3 does not pin the
	// apology's order relative to the error, so any text acknowledges it.
	firstSoftError int
	sawText        bool
	// doneJustNow: the previous frame was this turn's [DONE]. A [DONE] that
	// follows late frames of a closed turn repeats its sentinel; only a
	// [DONE] right after a [DONE] opens a new (empty) turn.
	doneJustNow bool
	idBound     // open ids past invariants.MaxOpenIDs (idbound.go)

	// timing is the turn's delivery, judged once (timed) at its terminal
	// or its end; firstContent the frame of its first content; the
	// stamps the earliest and latest envelope timestamps of its timed
	// frames (stamps: how many), for the server's spread.
	timing       invariants.Timing
	timed        bool
	firstContent int
	stampMin     instant
	stampMax     instant
	stamps       int
	// before is the arrival of the frame before the turn (0: the
	// response start), lastAt the arrival of its last timed frame.
	before, lastAt time.Duration
}

type toolState struct {
	id        string
	name, typ string
	frame     int
	done      bool
}

type compState struct {
	id     string
	typ    string
	key    decode.Raw
	frame  int
	loaded bool
}

// New returns a checker.
func New(opts invariants.Options) *Checker {
	if opts.Idle == 0 {
		opts.Idle = invariants.DefaultIdle
	}
	if opts.TTFE == 0 {
		opts.TTFE = invariants.DefaultTTFE
	}
	if opts.Stall == 0 {
		opts.Stall = invariants.DefaultStall
	}
	return &Checker{opts: opts, list: invariants.NewListing(opts.ListLimit), idleAt: -1}
}

// turnIdx is the index of the latest turn (-1: none yet), as raise files
// alarms.
func (c *Checker) turnIdx() int {
	if c.cur == nil {
		return -1
	}
	return c.cur.idx
}

// Counts returns the tally of every alarm raised so far.
func (c *Checker) Counts() invariants.Counts { return c.all }

// Turns returns the turns seen so far (with Options.OnTurnFinal, those not
// yet handed out). The slice is owned by the checker.
func (c *Checker) Turns() []invariants.Turn { return c.turns }

// turn is the summary of the turn t: always the latest (c.cur), never
// one handed out.
func (c *Checker) turn(t *turnState) *invariants.Turn { return &c.turns[t.idx-c.base] }

// handOut gives every turn held to opts.OnTurnFinal and drops them (the
// backing array is reused: one turn is held at a time).
func (c *Checker) handOut() {
	if c.opts.OnTurnFinal == nil {
		return
	}
	for i := range c.turns {
		c.opts.OnTurnFinal(c.base+i, c.turns[i])
	}
	c.base += len(c.turns)
	clear(c.turns)
	c.turns = c.turns[:0]
	c.list.Forget(c.base) // alarms come for the latest turn only
}

// CurrentTurn is the index of the turn the last observed frame belongs to
// (-1 before the first frame).
func (c *Checker) CurrentTurn() int {
	if c.cur == nil {
		return -1
	}
	return c.cur.idx
}

// Frames returns the number of frames observed.
func (c *Checker) Frames() int { return c.frames }

func (c *Checker) raise(rule string, sev invariants.Severity, frame int, format string, args ...any) {
	a := c.newAlarm(rule, sev, frame)
	if !c.list.Take(rule, a.Turn) {
		a.Unlisted = true
		if !c.opts.EveryMessage {
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

// newAlarm appends an alarm of the latest turn, counted, without a
// message yet (built in place: a flood raises millions).
func (c *Checker) newAlarm(rule string, sev invariants.Severity, frame int) *invariants.Alarm {
	a := invariants.NewAlarm(&c.out, rule, sev, frame, -1)
	if c.cur != nil {
		a.Turn = c.cur.idx
		a.ResponseID = c.cur.rid
	}
	c.all.Add(sev)
	return a
}

// HTTP checks the response of a live or HAR source. Call it before the
// first frame. The returned slice is valid until the next call.
func (c *Checker) HTTP(status int, contentType string) []invariants.Alarm {
	c.out = c.out[:0]
	if status < 200 || status > 299 {
		c.raise("http-status", invariants.SevError, invariants.NoFrame, "HTTP status %d is not 2xx", status)
	}
	mt := strings.ToLower(strings.TrimSpace(contentType))
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = strings.TrimSpace(mt[:i])
	}
	if mt != "text/event-stream" {
		if contentType == "" {
			c.raise("content-type", invariants.SevWarn, invariants.NoFrame, "the response has no Content-Type (want text/event-stream)")
		} else {
			c.raise("content-type", invariants.SevWarn, invariants.NoFrame, "Content-Type is %q, not text/event-stream", contentType)
		}
	}
	return c.out
}

// Truncated reports an SSE event the stream ended in before its blank
// line: clients discard it, so its frame never existed for them.
func (c *Checker) Truncated(ev *decode.Event) []invariants.Alarm {
	c.out = c.out[:0]
	c.raise("sse-truncated", invariants.SevWarn, invariants.NoFrame,
		"the stream ended inside an SSE event at byte %d (%d bytes without the closing blank line); a client discards it", ev.Offset, ev.Size)
	return c.out
}

// CaptureProblem reports damage in the capture file itself.
func (c *Checker) CaptureProblem(msg string, sev invariants.Severity) []invariants.Alarm {
	c.out = c.out[:0]
	c.raise("capture-corrupt", sev, invariants.NoFrame, "%s", msg)
	return c.out
}

// Remark raises a stream-level alarm the pipeline found
// (invariants.Remarker): capture-empty.
func (c *Checker) Remark(rule string, sev invariants.Severity, frame int, msg string) []invariants.Alarm {
	c.out = c.out[:0]
	c.raise(rule, sev, frame, "%s", msg)
	return c.out
}

// Stamp is the envelope timestamp of the frame last observed
// (invariants.Stamped).
func (c *Checker) Stamp() (time.Time, bool) {
	if !c.hasStamp {
		return time.Time{}, false
	}
	return c.stamp.time(), true
}

// Observe checks one frame. The returned slice is valid until the next call.
func (c *Checker) Observe(f *decode.Frame) []invariants.Alarm {
	c.out = c.out[:0]
	c.frames++
	c.hasStamp = false

	c.checkFraming(f)

	// Turn segmentation (docs/rules.md): a turn starts at the first frame of the
	// stream or the first frame after a [DONE]; after [DONE] a frame with
	// the same response_id still belongs to the closed turn.
	newTurn := false
	if c.cur == nil {
		newTurn = true
	} else if c.cur.closed {
		if f.Done {
			newTurn = c.cur.doneJustNow
		} else {
			rid := ResponseID(f)
			newTurn = !f.Decoded() || rid.Kind() != decode.KindString || !c.cur.haveRID || !rid.StrEq(c.cur.rid)
		}
	}
	if newTurn {
		c.startTurn(f)
	}
	t := c.cur
	turn := c.turn(t)
	turn.LastFrame = f.Index
	turn.Frames++
	terminalBefore := turn.Terminal

	c.checkTiming(f, newTurn, terminalBefore)
	t.doneJustNow = f.Done
	timed := f.HasArrival && !c.opts.NoTiming && terminalBefore == invariants.NotTerminal && !t.closed
	c.timedNow = timed

	if f.Done {
		if timed {
			c.timeFrame(f, t)
		}
		c.observeDone(f)
		return c.out
	}
	if terminalBefore != invariants.NotTerminal || t.closed {
		if terminalBefore != invariants.NotTerminal {
			c.raise("after-terminal", invariants.SevError, f.Index, "%s frame after the turn's terminal %s at frame %d",
				frameLabel(f), terminalBefore, turn.TerminalFrame)
		} else {
			c.raise("after-terminal", invariants.SevError, f.Index, "%s frame after the turn's [DONE]", frameLabel(f))
		}
	}
	if !f.Decoded() {
		if timed {
			c.timeFrame(f, t)
		}
		return c.out
	}
	open := terminalBefore == invariants.NotTerminal && !t.closed

	c.checkEnvelope(f, t, open)
	if timed {
		c.timeFrame(f, t) // after the envelope: its timestamp is parsed
	}
	c.checkVocabulary(f)
	c.checkPayload(f, t, open)

	if term := Terminal(f); term != invariants.NotTerminal {
		if terminalBefore != invariants.NotTerminal {
			c.raise("terminal-duplicate", invariants.SevError, f.Index, "second terminal frame (%s) after %s at frame %d",
				term, terminalBefore, turn.TerminalFrame)
		} else if !t.closed {
			turn.Terminal = term
			turn.TerminalFrame = f.Index
			turn.TerminalEvent = Type(f)
			turn.Outcome = pc3Outcome(term)
			c.settleAtTerminal(f, t, term)
			if timed {
				t.timing.Terminal(f.Arrival)
			}
			c.judgeTiming(t)
		}
	}
	c.checkClientDivergence(f)
	return c.out
}

// End closes the stream. The returned slice is valid until the next call.
func (c *Checker) End(e invariants.End) []invariants.Alarm {
	c.out = c.out[:0]
	if c.ended {
		return c.out
	}
	c.ended = true
	if c.cur == nil {
		sev := invariants.SevError
		if e.Kind == invariants.EndCancelled {
			sev = invariants.SevInfo
		}
		c.raise("terminal-missing", sev, invariants.NoFrame, "the stream ended (%s) before any frame arrived", e.Label())
		return c.out
	}
	t := c.cur
	turn := c.turn(t)
	if !t.closed {
		if turn.Terminal == invariants.NotTerminal && e.HasTime && c.haveArrival && c.opts.Idle > 0 {
			if gap := e.At - c.lastArrival; gap > c.opts.Idle {
				c.raise("idle-gap", invariants.SevWarn, invariants.NoFrame, "no frame for %s before the stream ended (%s) while the turn was open (idle window %s)",
					invariants.FormatDur(gap), e.Label(), c.opts.Idle)
			}
		}
		if turn.Terminal != invariants.NotTerminal {
			c.raise("done-missing", invariants.SevWarn, invariants.NoFrame, "the stream ended (%s) after the terminal %s at frame %d without [DONE]",
				e.Label(), turn.Terminal, turn.TerminalFrame)
		}
		c.closeTurn(t, e.Kind == invariants.EndCancelled, e.Label(), invariants.NoFrame)
	}
	c.endTiming()
	return c.out
}

func (c *Checker) startTurn(f *decode.Frame) {
	// Only the latest turn changes: the one before is final now.
	c.handOut()
	c.turns = append(c.turns, invariants.Turn{FirstFrame: f.Index, TerminalFrame: invariants.NoFrame})
	t := c.cur
	if t == nil {
		t = new(turnState)
		c.cur = t
	}
	// The turn before is final: its state is reused. A map grown large by
	// one turn is dropped rather than cleared on every later turn.
	tools, comps := t.tools, t.comps
	if len(tools) > 64 {
		tools = nil
	}
	if len(comps) > 64 {
		comps = nil
	}
	clear(tools)
	clear(comps)
	toolList, compList := t.toolList[:0], t.compList[:0]
	if cap(toolList) > 256 {
		toolList = nil
	}
	if cap(compList) > 256 {
		compList = nil
	}
	gaps := t.timing.Release()
	*t = turnState{idx: c.base + len(c.turns) - 1, firstSoftError: -1,
		tools: tools, toolList: toolList, comps: comps, compList: compList}
	c.startTiming(t, gaps)
}

// intern returns b as a string, shared with earlier equal ones.
func (c *Checker) intern(b []byte) string {
	if s, ok := c.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if c.names == nil {
		c.names = make(map[string]string)
	}
	if len(c.names) < 1024 {
		c.names[s] = s
	}
	return s
}

func (c *Checker) observeDone(f *decode.Frame) {
	t := c.cur
	turn := c.turn(t)
	if t.closed {
		return // a repeated sentinel of a turn already closed
	}
	turn.Done = true
	if turn.Terminal == invariants.NotTerminal {
		c.raise("done-early", invariants.SevError, f.Index, "[DONE] arrived but the turn has no terminal frame")
	}
	c.closeTurn(t, false, "", f.Index)
}

// closeTurn raises the per-turn absences once the turn can get no more
// frames: at its [DONE] or at the end of the stream.
// how names the end; when "", the end is the [DONE] at frame doneAt (the
// label is made only when a message needs it).
func (c *Checker) closeTurn(t *turnState, clientEnded bool, how string, doneAt int) {
	t.closed = true
	turn := c.turn(t)
	if turn.Terminal == invariants.NotTerminal {
		sev := invariants.SevError
		msg := "the turn ended (%s) without a terminal frame (completed, error with is_final: true, or cancelled)"
		if clientEnded {
			sev = invariants.SevInfo
			msg = "the client ended the turn (%s) before a terminal frame; per §5.6 its cancelled frame is observable only upstream"
		}
		if how == "" {
			how = "[DONE] at frame " + fmt.Sprint(doneAt)
		}
		c.raise("terminal-missing", sev, invariants.NoFrame, msg, how)
	}
	if !t.sawRIDFrame {
		c.raise("response-id-frame", invariants.SevWarn, invariants.NoFrame, "the turn has no response_id frame")
	}
	if t.firstSoftError >= 0 && !t.sawText {
		c.raise("error-unacknowledged", invariants.SevWarn, invariants.NoFrame,
			"the turn has a non-terminal error (frame %d) but no text frame: the user was never told", t.firstSoftError)
	}
	c.judgeTiming(t)
}

func (c *Checker) checkFraming(f *decode.Frame) {
	if f.InvalidUTF8 {
		c.raise("frame-utf8", invariants.SevError, f.Index, "the frame's bytes are not valid UTF-8")
	}
	size := int64(len(f.Data))
	if f.Oversized {
		size = f.Size
	}
	switch {
	case size > 1<<20:
		c.raise("frame-size", invariants.SevError, f.Index, "frame data is %s, over the 1 MiB hard limit (NFR-7 asks ≤ 256 KiB)", invariants.FormatBytes(size, false))
	case size > 256<<10:
		c.raise("frame-size", invariants.SevWarn, f.Index, "frame data is %s, over the 256 KiB target of NFR-7", invariants.FormatBytes(size, false))
	}
	if (f.Problem == decode.ProblemNotJSON || f.Problem == decode.ProblemNotObject) && !c.opts.EveryMessage && !c.list.Listed("frame-json", c.turnIdx()) {
		c.newAlarm("frame-json", invariants.SevError, f.Index).Unlisted = true // counted, not listed: no detail made
		return
	}
	switch f.Problem {
	case decode.ProblemNotJSON:
		c.raise("frame-json", invariants.SevError, f.Index, "data is not JSON (%s)", f.ProblemDetail())
	case decode.ProblemNotObject:
		c.raise("frame-json", invariants.SevError, f.Index, "%s", f.ProblemDetail())
	}
}

func (c *Checker) checkTiming(f *decode.Frame, newTurn bool, terminalBefore invariants.Terminality) {
	if !f.HasArrival {
		return
	}
	if f.Index == 0 && c.opts.TTFE > 0 && f.Arrival > c.opts.TTFE {
		c.raise("ttfe", invariants.SevWarn, f.Index, "first frame arrived %s after the response started (bound %s)", invariants.FormatDur(f.Arrival), c.opts.TTFE)
	}
	if c.haveArrival && !newTurn && !c.cur.closed && terminalBefore == invariants.NotTerminal && c.opts.Idle > 0 {
		if gap := f.Arrival - c.lastArrival; gap > c.opts.Idle && !isIdleTimeoutCancel(f) {
			c.raise("idle-gap", invariants.SevWarn, f.Index, "no frame for %s while the turn was open (idle window %s)", invariants.FormatDur(gap), c.opts.Idle)
			c.idleAt = f.Index
		}
	}
	c.lastArrival = f.Arrival
	c.haveArrival = true
}

// isIdleTimeoutCancel: the relay's own IDLE_TIMEOUT cancellation arrives
// after a silent window by design (NFR-6) — that gap is the relay doing its
// job, not a missing idle timeout.
func isIdleTimeoutCancel(f *decode.Frame) bool {
	if !f.Decoded() || Type(f) != TypeCancelled {
		return false
	}
	return ErrorInfoOf(f).Code == "IDLE_TIMEOUT"
}

// envelope is a frame's four envelope members (nil when absent), by their
// positions in Keys (they come first), read in one call for the envelope
// checks.
type envelope [keyResponseID + 1]decode.Raw

func (c *Checker) checkEnvelope(f *decode.Frame, t *turnState, open bool) {
	var env envelope
	f.Values(Keys, env[:])
	if !env.complete() && !c.opts.EveryMessage && !c.list.Listed("envelope-missing", c.turnIdx()) {
		// Counted, not listed (a flood of `data: {}`): no message made.
		c.newAlarm("envelope-missing", invariants.SevError, f.Index).Unlisted = true
	} else {
		c.checkEnvelopeFields(f, &env)
	}
	c.checkEnvelopeValues(f, &env, t, open)
}

// sameVersion: the frame's version string is v (the index answers the
// usual labels without comparing bytes).
func sameVersion(f *decode.Frame, v string) bool {
	switch v {
	case "0.5":
		return IsV05(f)
	case "0.4":
		return IsV04(f)
	}
	return Version(f).StrEq(v)
}

// complete: the four envelope members are non-empty strings.
func (e *envelope) complete() bool {
	for _, v := range e {
		if !v.IsNonEmptyStr() {
			return false
		}
	}
	return true
}

func (c *Checker) checkEnvelopeFields(f *decode.Frame, env *envelope) {
	var missing []string
	check := func(name string, v decode.Raw) {
		switch {
		case v == nil:
			missing = append(missing, name+" absent")
		case v.Kind() != decode.KindString:
			missing = append(missing, name+" not a string")
		case len(v) == 2:
			missing = append(missing, name+" empty")
		}
	}
	check("event_type", env[keyEventType])
	check("version", env[keyVersion])
	check("timestamp", env[keyTimestamp])
	check("response_id", env[keyResponseID])
	if len(missing) > 0 {
		c.raise("envelope-missing", invariants.SevError, f.Index, "envelope incomplete: %s", strings.Join(missing, ", "))
	}
}

func (c *Checker) checkEnvelopeValues(f *decode.Frame, env *envelope, t *turnState, open bool) {
	if stamp := env[keyTimestamp]; stamp.IsNonEmptyStr() {
		var when instant
		var ok bool
		if bytes.IndexByte(stamp, '\\') < 0 {
			when.sec, when.nsec, ok = parseUnix([]byte(stamp[1 : len(stamp)-1]))
		} else {
			s, _ := stamp.Str()
			when.sec, when.nsec, ok = parseUnix(s)
		}
		ts := func() string { s, _ := stamp.Str(); return s }
		if !ok {
			c.raise("envelope-timestamp", invariants.SevError, f.Index, "timestamp %q is not an ISO-8601 date-time", decode.Clip(ts(), 60))
		} else {
			if t.haveTS && when.before(t.lastTS) {
				c.raise("timestamp-order", invariants.SevWarn, f.Index, "timestamp %s is earlier than the previous frame's %s",
					ts(), t.lastTS.time().Format("2006-01-02T15:04:05.000Z07:00"))
			}
			t.lastTS, t.haveTS = when, true
			c.stamp, c.hasStamp = when, true
		}
	}
	version := env[keyVersion]
	if version.IsNonEmptyStr() && !IsV04(f) && !IsV05(f) {
		v, _ := version.Str()
		c.raise("version-unknown", invariants.SevWarn, f.Index, "version %q is neither \"0.4\" nor \"0.5\"", decode.Clip(v, 40))
	}

	turn := c.turn(t)
	if ridRaw := env[keyResponseID]; ridRaw.IsNonEmptyStr() && !(t.haveRID && ridRaw.StrEq(t.rid)) {
		rid, _ := ridRaw.Str()
		switch {
		case !t.haveRID:
			t.rid, t.haveRID = rid, true
			turn.ResponseID = rid
			// Alarms raised earlier in this call belong to the turn too.
			for i := range c.out {
				if c.out[i].Turn == t.idx && c.out[i].ResponseID == "" {
					c.out[i].ResponseID = rid
				}
			}
		case open && rid != t.rid:
			c.raise("envelope-drift", invariants.SevError, f.Index, "response_id %q differs from the turn's %q", decode.Clip(rid, 60), decode.Clip(t.rid, 60))
		}
	}
	if version.IsNonEmptyStr() && !(t.haveVersion && sameVersion(f, t.version)) {
		v := "0.5"
		switch {
		case IsV04(f):
			v = "0.4"
		case !IsV05(f):
			v, _ = version.Str()
		}
		switch {
		case !t.haveVersion:
			t.version, t.haveVersion = v, true
		case open && v != t.version:
			c.raise("envelope-drift", invariants.SevError, f.Index, "version %q differs from the turn's %q", decode.Clip(v, 40), decode.Clip(t.version, 40))
		}
	}

	if f.HasType {
		if et := env[keyEventType]; et.Kind() == decode.KindString && !TypeIs(f, f.Event.Type) {
			et, _ := et.Str()
			c.raise("sse-event-mismatch", invariants.SevError, f.Index, "SSE event: %q but event_type %q", decode.Clip(f.Event.Type, 40), decode.Clip(et, 40))
		}
	} else if !IsV04(f) && !c.opts.SyntheticFraming {
		c.raise("sse-event-missing", invariants.SevInfo, f.Index, "v0.5 frame without an SSE event: line (data-only framing)")
	}
}

func (c *Checker) checkVocabulary(f *decode.Frame) {
	et := Type(f)
	if et == "" {
		return
	}
	if et == TypeSupportContent {
		c.raise("internal-leak", invariants.SevError, f.Index, "internal-only event type support_content reached the wire (R-6)")
	}
	if !KnownType(et) {
		c.raise("event-unknown", invariants.SevInfo, f.Index, "event_type %q is not in the v0.5 vocabulary; clients ignore it", decode.Clip(et, 60))
	}
	if IsMCPLifecycle(et) {
		c.raise("event-deprecated", invariants.SevInfo, f.Index, "%s is a legacy MCP lifecycle frame, deprecating in Phase 6", decode.Clip(et, 60))
	}
}

// checkClientDivergence runs the frame through both client profiles of the
// reference machine (client.go) and notes where they part: the frame's row
// in an open turn leads the v0.4 and the v0.5 client to different states
// or actions. Frames labelled "0.4" are out of the rule's scope (docs/rules.md):
// a v0.4 server's frames mean the same to both clients.
func (c *Checker) checkClientDivergence(f *decode.Frame) {
	if IsV04(f) {
		return
	}
	if d, ok := ClientDivergence(f); ok {
		// The message is precomputed per pair of rows: set it after raise
		// so the hot path formats nothing.
		c.raise("client-divergence", invariants.SevInfo, f.Index, "client-divergence")
		if a := &c.out[len(c.out)-1]; !a.Unlisted || c.opts.EveryMessage {
			a.Message = d.Message()
		}
	}
}

// settleAtTerminal raises what the terminal frame makes certain: tools
// still open and placeholders never filled.
func (c *Checker) settleAtTerminal(f *decode.Frame, t *turnState, term invariants.Terminality) {
	sev := invariants.SevError
	if term != invariants.TerminalCompleted {
		sev = invariants.SevWarn
	}
	for i := range t.toolList {
		if tool := &t.toolList[i]; !tool.done {
			c.raise("tool-unfinished", sev, f.Index, "tool_call %q (%s) from frame %d has no tool_completed at the terminal %s",
				decode.Clip(tool.id, 60), decode.Clip(tool.name, 60), tool.frame, term)
		}
	}
	for i := range t.compList {
		if comp := &t.compList[i]; !comp.loaded {
			c.raise("component-unfilled", sev, f.Index, "placeholder %q (data_loading at frame %d) got no data_loaded before the terminal %s",
				decode.Clip(comp.id, 60), comp.frame, term)
		}
	}
}

func pc3Outcome(t invariants.Terminality) string {
	switch t {
	case invariants.TerminalCompleted:
		return invariants.TurnCompleted
	case invariants.TerminalCancelled:
		return invariants.TurnCancelled
	}
	return invariants.TurnFailed
}

func frameLabel(f *decode.Frame) string {
	if !f.Decoded() {
		return "undecodable"
	}
	if et, ok := EventType(f).NonEmptyStr(); ok {
		return decode.Clip(et, 40)
	}
	return "untyped"
}
