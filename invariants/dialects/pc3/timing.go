package pc3

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// PC3's delivery timing (docs/timing.md): the checker is not built on the
// Engine, so it feeds each turn's invariants.Timing itself and judges it
// with the same invariants.TimingVerdict. Content is what a user waits
// for: text, thinking/reasoning and tool_call frames (their moves,
// moves.go), never status, ping, response_id or a terminal.

// FirstByte records when the response's first bytes arrived (a comment
// before the first frame counts).
func (c *Checker) FirstByte(at time.Duration) {
	if !c.hasFirstByte {
		c.firstByte, c.hasFirstByte = at, true
	}
}

// startTiming begins turn t's timing, reusing the gap buffer of the turn
// before it.
func (c *Checker) startTiming(t *turnState, gaps []time.Duration) {
	if cap(gaps) > 0 {
		t.timing.Reuse(gaps)
	}
	if c.haveArrival {
		t.before = c.lastArrival
	}
	stall := max(c.opts.Stall, 0)
	t.timing.Start(t.idx == 0, stall)
	if t.idx == 0 && c.hasFirstByte {
		t.timing.FirstByte(c.firstByte)
	}
}

// timeFrame feeds frame f of the open turn t to its timing; a content gap
// over the stall bound raises delivery-stall unless idle-gap named the
// same silence (one defect, one alarm).
func (c *Checker) timeFrame(f *decode.Frame, t *turnState) {
	if !c.timedAny {
		c.timedAny = true
		c.FirstByte(f.Arrival)
		if t.idx == 0 {
			t.timing.FirstByte(c.firstByte)
		}
	}
	content, chars := contentOf(f)
	resume := !content && resumesContent(f)
	gap, from := t.timing.Frame(f.Index, f.Arrival, content, chars)
	if resume {
		t.timing.Resume(f.Index, f.Arrival)
	}
	c.counted, c.countedAt = invariants.FrameContent{Content: content, Chars: chars, Resume: resume}, f.Index+1
	if !content && f.Decoded() {
		readUsage(f, t)
	}
	t.lastAt = f.Arrival
	if content && from < 0 { // the turn's first content closes no gap
		t.firstContent = f.Index
	}
	if c.opts.Stall > 0 && gap > c.opts.Stall && c.idleAt != f.Index {
		c.raise("delivery-stall", invariants.SevWarn, f.Index, "no content for %s (after frame %d) inside the turn (stall bound %s)",
			invariants.FormatDur(gap), from, invariants.FormatDur(c.opts.Stall))
	}
	if c.hasStamp {
		switch {
		case t.stamps == 0:
			t.stampMin, t.stampMax = c.stamp, c.stamp
		case c.stamp.before(t.stampMin):
			t.stampMin = c.stamp
		case t.stampMax.before(c.stamp):
			t.stampMax = c.stamp
		}
		t.stamps++
	}
}

// contentOf is whether f is a content frame and its characters: the
// content moves AppendMoves maps it to (text, reasoning, a thinking frame
// that carries its optional content, tool_call), read from the type on
// the hot path. A bare thinking frame is an indicator, not content.
func contentOf(f *decode.Frame) (bool, int) {
	if !f.Decoded() {
		return false, 0
	}
	switch Type(f) {
	case TypeText, TypeReasoning:
		return true, 0 // checkPayload adds them (Timing.AddChars)
	case TypeThinking: // content only with its optional text (AppendMoves)
		if c := thinkingContent(f); c != nil {
			return true, invariants.ContentChars(c)
		}
		return false, 0
	case TypeToolCall:
		return true, 0
	}
	return false, 0
}

// FrameContent is how the turn's timing counted f, the frame last
// observed (invariants.ContentCounter), a text's characters as its payload
// check added them; a frame the timing did not take (past the turn's end,
// no arrival time) is counted as it would have been, its text whole.
func (c *Checker) FrameContent(f *decode.Frame) invariants.FrameContent {
	if c.countedAt == f.Index+1 {
		return c.counted
	}
	content, chars := contentOf(f)
	if content && (Type(f) == TypeText || Type(f) == TypeReasoning) {
		chars = invariants.ContentChars(Chunk(f))
	}
	return invariants.FrameContent{Content: content, Chars: chars, Resume: !content && resumesContent(f)}
}

// resumesContent is whether f ends a wait (a tool's result: the move
// MoveToolClose AppendMoves maps it to), for Timing.Resume.
func resumesContent(f *decode.Frame) bool {
	return f.Decoded() && Type(f) == TypeToolCompleted
}

// judgeTiming settles turn t's timing once (at its terminal, or when it
// closes without one): its figures go to the turn, its delivery and
// budgets are judged.
func (c *Checker) judgeTiming(t *turnState) {
	if t.timed || !t.timing.Timed() {
		return
	}
	t.timed = true
	s := t.timing.Summary()
	c.turn(t).Timing = s
	v := invariants.TimingVerdict{Summary: &s, FirstContentFrame: t.firstContent}
	if t.stamps > 1 {
		v.ServerSpread, v.HasServerSpread = t.stampMax.time().Sub(t.stampMin.time()), true
		v.Waited = t.lastAt - t.before
	}
	named := v.Judge(&c.opts, func(rule string, sev invariants.Severity, frame int, msg string) {
		c.raise(rule, sev, frame, "%s", msg)
	})
	c.buffCompressed = c.buffCompressed || named
}

// endTiming says once, at the end of a timed stream, that the event
// stream was compressed, unless delivery-buffered named it already.
func (c *Checker) endTiming() {
	if !c.timedAny || c.buffCompressed {
		return
	}
	if msg := invariants.CompressedRemark(c.opts.Exchange); msg != "" {
		c.raise("delivery-compressed", invariants.SevInfo, invariants.NoFrame, "%s", msg)
	}
}
