package report

import (
	"time"

	"framescope/invariants"
	"framescope/sessions/pipeline"
)

// An alarm's excerpt is its frame's payload. Most alarms name the frame
// being read; a turn's budget alarms are raised when the turn is judged
// (at its terminal, or at the end of the stream) but name an earlier
// frame: its first content (budget-first-content) and the content frame
// that closed its longest gap (budget-gap). excerptMemo keeps, per recent
// turn, those two frames' excerpts as the frames pass, counting content
// as the turn's timing does (invariants.Timing.Frame, from the item's
// Content). An alarm that names another frame than the one being read
// gets the excerpt of the frame it names from here, or none: never the
// excerpt of the frame being read.

// memoTurns is how many turns the memo keeps (a turn is judged at its
// end; a few may be held open at once).
const memoTurns = 8

type memoFrame struct {
	index   int
	offset  int64
	excerpt string
	set     bool
}

type memoTurn struct {
	turn     int
	contents int
	lastAt   time.Duration
	gapMax   time.Duration
	first    memoFrame // the turn's first content
	gapTo    memoFrame // the content frame that closed the longest gap
}

type excerptMemo struct {
	turns []memoTurn
}

// newExcerptMemo is a memo when the options judge budgets that name an
// earlier frame, else nil (nothing kept, nothing spent).
func newExcerptMemo(o invariants.Options) *excerptMemo {
	if o.MaxFirstContent <= 0 && o.MaxGap <= 0 {
		return nil
	}
	return &excerptMemo{}
}

// observe takes a timed frame; excerpt makes its excerpt (once).
func (m *excerptMemo) observe(it *pipeline.Item, excerpt func() string) {
	if m == nil || it.Frame == nil || !it.HasArrival || it.Turn < 0 {
		return
	}
	c := it.Content
	if !c.Content && !c.Resume {
		return
	}
	t := m.turn(it.Turn)
	at, index := it.Arrival, it.Frame.Index
	switch {
	case c.Content && t.contents == 0:
		t.first = memoFrame{index, it.Event.Offset, excerpt(), true}
	case c.Content:
		if gap := at - t.lastAt; t.contents == 1 || gap > t.gapMax {
			t.gapMax = gap
			t.gapTo = memoFrame{index, it.Event.Offset, excerpt(), true}
		}
	case t.contents == 0: // a resume before any content: no gap to end
		return
	}
	if c.Content {
		t.contents++
	}
	t.lastAt = at
}

// turn is turn's record, made (and the oldest dropped) when new.
func (m *excerptMemo) turn(turn int) *memoTurn {
	for i := range m.turns {
		if m.turns[i].turn == turn {
			return &m.turns[i]
		}
	}
	if len(m.turns) == memoTurns {
		copy(m.turns, m.turns[1:])
		m.turns = m.turns[:memoTurns-1]
	}
	m.turns = append(m.turns, memoTurn{turn: turn})
	return &m.turns[len(m.turns)-1]
}

// of is the excerpt kept of frame and its stream offset ("", -1 when
// none is).
func (m *excerptMemo) of(frame int) (string, int64) {
	if m == nil {
		return "", -1
	}
	for i := len(m.turns) - 1; i >= 0; i-- {
		t := &m.turns[i]
		if t.first.set && t.first.index == frame {
			return t.first.excerpt, t.first.offset
		}
		if t.gapTo.set && t.gapTo.index == frame {
			return t.gapTo.excerpt, t.gapTo.offset
		}
	}
	return "", -1
}
