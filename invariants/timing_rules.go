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
	if e.haveArrival {
		st.stamps.before = e.lastArrival
	}
}

// timeFrame feeds frame f of turn t (which was still open before it) to
// the turn's timing; a stall it closes raises delivery-stall unless
// idle-gap named the same silence.
func (e *Engine) timeFrame(f *decode.Frame, t int, wasEnded bool) {
	if e.m.has&(mappedUsage|mappedGenTime) != 0 && !e.opts.NoTiming {
		e.takeUsage(t)
	}
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
	fc := countContent(e.m.Moves, f)
	e.counted, e.countedAt = fc, f.Index+1
	content := fc.Content
	gap, from := st.timing.Frame(f.Index, f.Arrival, content, fc.Chars)
	e.takeStamp(st, f)
	if fc.Resume {
		st.timing.Resume(f.Index, f.Arrival)
	}
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
	v := TimingVerdict{Summary: &s, FirstContentFrame: st.firstContent}
	st.stamps.verdict(&v)
	named := v.Judge(&e.opts, func(rule string, sev Severity, frame int, msg string) {
		e.raise(rule, sev, frame, t, "%s", msg)
	})
	e.buffCompressed = e.buffCompressed || named
}

// TimingVerdict is what a checker knows of a settled turn's delivery:
// its figures, the frame of its first content, and (where the dialect
// stamps each frame, PC3's envelope timestamp) how far apart the server
// stamped the turn's first and last frames. The Engine and the checkers
// not built on it (PC3) judge a turn with it, so the rules say the same.
type TimingVerdict struct {
	Summary           *TurnTiming
	FirstContentFrame int
	// ServerSpread is the span of the server's timestamps over the
	// turn's frames (HasServerSpread: two or more frames were stamped).
	// Waited is how long the turn could have been held on the way: from
	// the arrival of the frame before the turn (the response start for
	// the first) to the turn's last frame. A replay of a recording keeps
	// its old stamps and sends them at once without any wait: the stamps
	// count only as far as the client waited.
	ServerSpread    time.Duration
	HasServerSpread bool
	Waited          time.Duration
}

// Judge raises the turn's delivery-buffered and budget-* alarms through
// raise and reports whether delivery-buffered named the compression as
// its cause (then delivery-compressed is not said again).
func (v *TimingVerdict) Judge(o *Options, raise func(rule string, sev Severity, frame int, msg string)) (namedCompression bool) {
	s := v.Summary
	namedCompression = v.judgeBuffered(o, raise)
	if m := o.MaxFirstContent; m > 0 && s.HasContent && s.FirstContent > m {
		raise("budget-first-content", SevError, v.FirstContentFrame, fmt.Sprintf("the first content arrived %s after the %s (budget %s)",
			FormatDur(s.FirstContent), originName(s), FormatDur(m)))
	}
	if m := o.MaxGap; m > 0 && s.Chunks > 1 && s.GapMax > m {
		raise("budget-gap", SevError, s.GapMaxTo, fmt.Sprintf("no content for %s between frames %d and %d (budget %s)",
			FormatDur(s.GapMax), s.GapMaxFrom, s.GapMaxTo, FormatDur(m)))
	}
	// All content in one instant (one read) is no rate to judge: it came
	// as fast as it could, not at zero deltas a second.
	if m := o.MinRate; m > 0 && s.Chunks > 1 && s.ContentSpan > 0 && s.ChunksPerSec < m {
		raise("budget-rate", SevError, NoFrame, fmt.Sprintf("content came at %.1f deltas/s over %d deltas (budget %g/s)", s.ChunksPerSec, s.Chunks, m))
	}
	return namedCompression
}

func originName(s *TurnTiming) string {
	if s.FromResponse {
		return "response started"
	}
	return "turn's first frame"
}

// judgeBuffered raises delivery-buffered when the turn's frames arrived
// bunched while the turn took seconds: a paced stream's deltas come
// milliseconds apart, each in a read of its own. Where the server stamped
// each frame, the stamps' spread is the turn's time too: a later turn
// (whose figures count from its own first frame) that the server wrote
// over seconds and that arrived in one read was held on the way.
func (v *TimingVerdict) judgeBuffered(o *Options, raise func(string, Severity, int, string)) bool {
	s := v.Summary
	span := s.Duration
	stamped := v.HasServerSpread && min(v.ServerSpread, v.Waited) > span
	if stamped {
		span = min(v.ServerSpread, v.Waited)
	}
	if s.Frames < buffMinFrames || span < buffMinSpan {
		return false
	}
	// Most frames back to back, in a burst far shorter than the turn: a
	// server that streams spreads them; one that is held back (on the way,
	// or by a server that does not flush) sends them at once. Frames in
	// a few reads but spread (a tool's wait between two writes) are not.
	if float64(s.Burst) < buffShare*float64(s.Frames) || s.BurstSpan*10 > span {
		return false
	}
	bunched := fmt.Sprintf("%d of its %d frames arrived within %s", s.Burst, s.Frames, FormatDur(s.BurstSpan))
	if s.Reads == 1 {
		bunched = fmt.Sprintf("its %d frames arrived in one read", s.Frames)
	}
	took := fmt.Sprintf("the turn took %s", FormatDur(s.Duration))
	if stamped {
		took = fmt.Sprintf("the server stamped them over %s and they came %s after the frame before", FormatDur(v.ServerSpread), FormatDur(v.Waited))
	} else if v.HasServerSpread {
		took = fmt.Sprintf("%s and the server stamped them over %s", took, FormatDur(v.ServerSpread))
	}
	cause, named := BufferCause(o.Exchange)
	raise("delivery-buffered", SevWarn, NoFrame, fmt.Sprintf("%s though %s: the stream was held back and delivered at once; likely cause: %s",
		bunched, took, cause))
	return named
}

// CompressedRemark is delivery-compressed's message when the response
// was compressed ("" when not).
func CompressedRemark(x *Exchange) string {
	if x == nil {
		return ""
	}
	if enc := compression(x); enc != "" {
		return fmt.Sprintf("the event stream is compressed (Content-Encoding: %s): delivery depends on the server flushing its compressor after every event", decode.Clip(enc, 30))
	}
	return ""
}

// BufferCause names the likely buffer from the response headers, and
// whether it was the compression (then delivery-compressed is not said
// again).
func BufferCause(x *Exchange) (string, bool) {
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
	if !e.timedAny || e.buffCompressed {
		return
	}
	if msg := CompressedRemark(e.opts.Exchange); msg != "" {
		e.raise("delivery-compressed", SevInfo, NoFrame, -1, "%s", msg)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
