package invariants

import (
	"fmt"
	"strings"
	"time"

	"framescope/decode"
)

// The delivery rules and budgets (docs/timing.md): the Engine feeds each
// open turn's Timing from its frames' arrival times and moves, and judges
// the turn once it ends. A source without arrival times feeds nothing and
// raises none of them.

// Thresholds of delivery-buffered: a turn of at least buffMinFrames frames
// lasting at least buffMinSpan, most (buffShare) of whose frames arrived
// back to back (each within BurstWindow of the one before).
const (
	buffMinFrames = 8
	buffMinSpan   = time.Second
	buffShare     = 0.8
)

// timingOpts fills the timing defaults.
func timingOpts(o *Options) {
	if o.Stall == 0 {
		o.Stall = DefaultStall
	}
}

// startTiming begins turn t's timing (newTurn).
func (e *Engine) startTiming(t int, st *turnState) {
	stall := e.opts.Stall
	if stall < 0 {
		stall = 0
	}
	st.timing.Start(t == 0, stall)
	if n := len(e.spareGaps); n > 0 {
		st.timing.Reuse(e.spareGaps[n-1])
		e.spareGaps = e.spareGaps[:n-1]
	}
	if t == 0 && e.hasFirstByte {
		st.timing.FirstByte(e.firstByte)
	}
}

// timeFrame feeds frame f of turn t (which was still open before it) to
// the turn's timing; a stall it closes raises delivery-stall unless
// idle-gap named the same silence.
func (e *Engine) timeFrame(f *decode.Frame, t int, wasEnded bool) {
	if !f.HasArrival || t < 0 || wasEnded || e.opts.NoTiming {
		return
	}
	var st *turnState
	if i := t - e.base; i >= 0 && i < len(e.state) {
		st = e.state[i]
	}
	if st == nil || st.timed {
		return
	}
	content, chars := false, 0
	if f.Decoded() {
		content, chars = ContentOf(e.m.Moves)
	}
	gap, from := st.timing.Frame(f.Index, f.Arrival, content, chars)
	if content && st.timing.contents == 1 {
		st.firstContent = f.Index
	}
	if e.opts.Stall > 0 && gap > e.opts.Stall && e.idleAt != f.Index {
		e.raise("delivery-stall", SevWarn, f.Index, t, "no content for %s (after frame %d) inside the turn (stall bound %s)",
			FormatDur(gap), from, FormatDur(e.opts.Stall))
	}
	if st.ended {
		st.timing.Terminal(f.Arrival)
		e.judgeTiming(t, st)
	}
}

// judgeTiming settles turn t's timing once: its figures go to the turn,
// its delivery and budgets are judged.
func (e *Engine) judgeTiming(t int, st *turnState) {
	if st == nil || st.timed || !st.timing.Timed() {
		return
	}
	st.timed = true
	s := st.timing.Summary()
	if b := st.timing.Release(); cap(b) > 0 && len(e.spareGaps) < 4 {
		e.spareGaps = append(e.spareGaps, b)
	}
	if i := t - e.base; i >= 0 && i < len(e.turns) {
		e.turns[i].Timing = s
	}
	e.judgeBuffered(t, &s)
	if m := e.opts.MaxFirstContent; m > 0 && s.HasContent && s.FirstContent > m {
		e.raise("budget-first-content", SevError, st.firstContent, t, "the first content arrived %s after the %s (budget %s)",
			FormatDur(s.FirstContent), originName(&s), FormatDur(m))
	}
	if m := e.opts.MaxGap; m > 0 && s.Chunks > 1 && s.GapMax > m {
		e.raise("budget-gap", SevError, s.GapMaxTo, t, "no content for %s between frames %d and %d (budget %s)",
			FormatDur(s.GapMax), s.GapMaxFrom, s.GapMaxTo, FormatDur(m))
	}
	if m := e.opts.MinRate; m > 0 && s.Chunks > 1 && s.ChunksPerSec < m {
		e.raise("budget-rate", SevError, NoFrame, t, "content came at %.1f deltas/s over %d deltas (budget %g/s)", s.ChunksPerSec, s.Chunks, m)
	}
}

func originName(s *TurnTiming) string {
	if s.FromResponse {
		return "response started"
	}
	return "turn's first frame"
}

// judgeBuffered raises delivery-buffered when the turn's frames arrived
// bunched while the turn took seconds: a paced stream's deltas come
// milliseconds apart, each in a read of its own.
func (e *Engine) judgeBuffered(t int, s *TurnTiming) {
	if s.Frames < buffMinFrames || s.Duration < buffMinSpan {
		return
	}
	// Most frames back to back, in a burst far shorter than the turn: a
	// server that streams spreads them; one that is held back (on the way,
	// or by a server that does not flush) sends them at once. Frames in
	// a few reads but spread (a tool's wait between two writes) are not.
	if float64(s.Burst) < buffShare*float64(s.Frames) || s.BurstSpan*10 > s.Duration {
		return
	}
	bunched := fmt.Sprintf("%d of its %d frames arrived within %s", s.Burst, s.Frames, FormatDur(s.BurstSpan))
	if s.Reads == 1 {
		bunched = fmt.Sprintf("its %d frames arrived in one read", s.Frames)
	}
	cause, named := e.bufferCause()
	e.buffCompressed = e.buffCompressed || named
	e.raise("delivery-buffered", SevWarn, NoFrame, t, "%s though the turn took %s: the stream was held back and delivered at once; likely cause: %s",
		bunched, FormatDur(s.Duration), cause)
}

// bufferCause names the likely buffer from the response headers, and
// whether it was the compression (then delivery-compressed is not said
// again).
func (e *Engine) bufferCause() (string, bool) {
	x := e.opts.Exchange
	if x == nil {
		return "a proxy, CDN or the client's networking stack (no response headers to tell)", false
	}
	var why []string
	compressed := false
	if enc := compression(x); enc != "" {
		why = append(why, fmt.Sprintf("Content-Encoding: %s on an event stream (a compressor holds events until its block fills)", decode.Clip(enc, 30)))
		compressed = true
	}
	for _, h := range [...]string{"Via", "X-Cache", "CF-Ray", "X-Served-By", "X-Amz-Cf-Id"} {
		if v := x.ResponseHeader(h); v != "" {
			why = append(why, fmt.Sprintf("a proxy or CDN (%s: %s)", h, decode.Clip(v, 40)))
			break
		}
	}
	if v := x.ResponseHeader("X-Accel-Buffering"); !strings.EqualFold(strings.TrimSpace(v), "no") {
		why = append(why, "no X-Accel-Buffering: no (nginx buffers proxied responses by default)")
	}
	if v := x.ResponseHeader("Cache-Control"); !strings.Contains(strings.ToLower(v), "no-transform") {
		why = append(why, "no Cache-Control: no-transform (an intermediary may transform and hold the body)")
	}
	if len(why) == 0 {
		return "not in the response headers (X-Accel-Buffering: no and Cache-Control: no-transform are set): a proxy that ignores them, or the client's networking stack", false
	}
	return strings.Join(why, "; "), compressed
}

// compression is the response's Content-Encoding, "" when none.
func compression(x *Exchange) string {
	enc := strings.TrimSpace(x.ResponseHeader("Content-Encoding"))
	if strings.EqualFold(enc, "identity") {
		return ""
	}
	return enc
}

// endTiming settles the timing of every turn still held when the stream
// ends, then says once whether the event stream was compressed.
func (e *Engine) endTiming() {
	for i := range e.state {
		e.judgeTiming(e.base+i, e.state[i])
	}
	for i := range e.pending {
		e.judgeTiming(e.pending[i].t, e.pending[i].st)
	}
	if !e.timedAny || e.buffCompressed || e.opts.Exchange == nil {
		return
	}
	if enc := compression(e.opts.Exchange); enc != "" {
		e.raise("delivery-compressed", SevInfo, NoFrame, -1,
			"the event stream is compressed (Content-Encoding: %s): delivery depends on the server flushing its compressor after every event", decode.Clip(enc, 30))
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
