package store

import (
	"sort"
	"time"

	"framescope/invariants"
)

// The Timing view's data (docs/timing.md): each turn's frames with an
// arrival time, kept as they arrive (appendRow) with the checker's count
// of their content (pipeline.Item.Content), a live invariants.Timing
// per turn for the figures as of its latest frame, and the figures as of
// any earlier frame by replaying its points (cached: a cursor stepping on
// extends the replay, it does not restart it). The gap chart is bucketed
// here by binary search, a column at a time, so drawing a turn of a
// million frames reads only as many points as the chart has columns.

// timePoint is one timed frame of a turn (16 bytes: a million-frame turn
// keeps 16 MB).
type timePoint struct {
	at    time.Duration
	frame int32
	chars int32 // characters of content; -1: not content; resumeMark: it ends a tool's wait
}

// resumeMark is the chars of a point that ends a tool's wait (Timing.Resume).
const resumeMark = -2

func (p *timePoint) content() bool { return p.chars >= 0 }

// feed hands the point to a timing as the checker does: Frame, then
// Resume when it ends a wait.
func (p *timePoint) feed(t *invariants.Timing) (gap time.Duration, from int) {
	gap, from = t.Frame(int(p.frame), p.at, p.content(), max(int(p.chars), 0))
	if p.chars == resumeMark {
		t.Resume(int(p.frame), p.at)
	}
	return gap, from
}

// turnTiming is one turn's timing as the store keeps it.
type turnTiming struct {
	points []timePoint
	live   invariants.Timing // fed every point: the figures as of the latest
	stalls []Stall
	ended  bool // its terminal frame was fed: later frames are not the turn's delivery
	// firstContent is the arrival of its first content (hasContent).
	firstContent time.Duration
	hasContent   bool
}

// Stall is a content gap over the stall bound inside a turn.
type Stall struct {
	From, To     int // the content frames around it
	FromAt, ToAt time.Duration
}

// timingState is the store's timing of every turn, and the as-of cache.
type timingState struct {
	turns []*turnTiming
	// The as-of cache: turn cacheT replayed up to point cacheK.
	cache          invariants.Timing
	cacheT, cacheK int
	cacheOK        bool
	// alarms indexes the listed delivery and budget alarms in Alarms.
	alarms []int32
}

// count takes how the checker counted the frame's content for its
// turn's timing (pipeline.Item.Content): the store does not count again.
func (x *rowExt) count(c invariants.FrameContent) {
	x.content, x.chars, x.resume = c.Content, int32(c.Chars), c.Resume
}

// feedTiming records a frame row's arrival for its turn's timing.
func (s *Store) feedTiming(r *Row, x *rowExt) {
	if r.Kind != RowFrame || !x.hasArrival || r.Turn < 0 {
		return
	}
	ts := &s.timing
	for len(ts.turns) <= r.Turn {
		ts.turns = append(ts.turns, nil)
	}
	tt := ts.turns[r.Turn]
	if tt == nil {
		tt = new(turnTiming)
		tt.live.Start(r.Turn == 0, invariants.DefaultStall)
		ts.turns[r.Turn] = tt
	}
	if tt.ended {
		return
	}
	p := timePoint{at: x.arrival, frame: int32(r.Frame), chars: -1}
	switch {
	case x.content:
		p.chars = x.chars
	case x.resume:
		p.chars = resumeMark
	}
	tt.points = append(tt.points, p)
	if p.content() && !tt.hasContent {
		tt.firstContent, tt.hasContent = p.at, true
	}
	gap, from := p.feed(&tt.live)
	if gap > invariants.DefaultStall {
		fromAt := p.at - gap
		tt.stalls = append(tt.stalls, Stall{From: from, To: r.Frame, FromAt: fromAt, ToAt: p.at})
	}
	if t := &s.Turns[r.Turn]; t.TerminalFrame >= 0 && t.TerminalFrame <= r.Frame {
		tt.live.Terminal(p.at)
		tt.ended = true
	}
}

func (s *Store) turnTiming(t int) *turnTiming {
	if t < 0 || t >= len(s.timing.turns) {
		return nil
	}
	return s.timing.turns[t]
}

// Timed reports whether turn t has any frame with an arrival time.
func (s *Store) Timed(t int) bool { return s.turnTiming(t) != nil }

// TimingAsOf is turn t's figures as of frame n (the frames up to and
// including n). The live turn's latest figures come without a replay.
func (s *Store) TimingAsOf(t, n int) invariants.TurnTiming {
	tt := s.turnTiming(t)
	if tt == nil {
		return invariants.TurnTiming{}
	}
	k := sort.Search(len(tt.points), func(i int) bool { return int(tt.points[i].frame) > n })
	if k == len(tt.points) {
		return tt.live.Summary()
	}
	if k == 0 {
		return invariants.TurnTiming{}
	}
	c := &s.timing
	if !c.cacheOK || c.cacheT != t || c.cacheK > k {
		c.cache = invariants.Timing{}
		c.cache.Start(t == 0, invariants.DefaultStall)
		c.cacheT, c.cacheK, c.cacheOK = t, 0, true
	}
	for ; c.cacheK < k; c.cacheK++ {
		p := &tt.points[c.cacheK]
		p.feed(&c.cache)
	}
	return c.cache.Summary()
}

// FirstContent is turn t's time to first content (from the response
// start for the first turn, else from the turn's first frame): the
// header's figure while a live turn streams.
func (s *Store) FirstContent(t int) (time.Duration, bool) {
	tt := s.turnTiming(t)
	if tt == nil || !tt.hasContent {
		return 0, false
	}
	if t == 0 {
		return tt.firstContent, true
	}
	return tt.firstContent - tt.points[0].at, true
}

// StallsOf is turn t's content gaps over the stall bound.
func (s *Store) StallsOf(t int) []Stall {
	if tt := s.turnTiming(t); tt != nil {
		return tt.stalls
	}
	return nil
}

// ChartCol is one column of a turn's gap chart: the frames that arrived
// in its slice of the turn's time axis.
type ChartCol struct {
	Frames   int
	Contents int
	// Burst: its frames (two or more) arrived back to back, each within
	// invariants.BurstWindow of the one before; Stall: a stall covers it.
	Burst bool
	Stall bool
}

// Chart is a turn's gap chart: cols columns over [Start, End] of the
// arrival axis, and the column of frame n (the cursor; -1 when the turn
// has no timed frame up to n).
type Chart struct {
	Cols       []ChartCol
	Start, End time.Duration
	Cursor     int
}

// GapChart buckets turn t's timed frames into cols columns, marking the
// column of frame n. Each column costs two binary searches and a walk
// over its own frames only when they are few (a burst check).
func (s *Store) GapChart(t, n, cols int) Chart {
	tt := s.turnTiming(t)
	if tt == nil || len(tt.points) == 0 || cols <= 0 {
		return Chart{Cursor: -1}
	}
	pts := tt.points
	c := Chart{Cols: make([]ChartCol, cols), Start: pts[0].at, End: pts[len(pts)-1].at, Cursor: -1}
	if t == 0 {
		c.Start = 0 // the first turn counts from the response start
	}
	span := c.End - c.Start
	colOf := func(at time.Duration) int {
		if span <= 0 {
			return 0
		}
		return min(int(int64(at-c.Start)*int64(cols)/int64(span+1)), cols-1)
	}
	bound := func(col int) time.Duration { // the first instant of column col
		return c.Start + time.Duration(int64(span+1)*int64(col)/int64(cols))
	}
	lo := 0
	for col := range cols {
		end := c.End + 1
		if col+1 < cols {
			end = bound(col + 1)
		}
		hi := lo + sort.Search(len(pts)-lo, func(i int) bool { return pts[lo+i].at >= end })
		cc := &c.Cols[col]
		cc.Frames = hi - lo
		if cc.Frames >= 2 && cc.Frames <= 4096 {
			burst := true
			for i := lo + 1; i < hi && burst; i++ {
				burst = pts[i].at-pts[i-1].at <= invariants.BurstWindow
			}
			cc.Burst = burst
		}
		if cc.Frames > 4096 {
			cc.Burst = pts[hi-1].at-pts[lo].at <= invariants.BurstWindow*time.Duration(cc.Frames)
		}
		for i := lo; i < hi && i < lo+4096; i++ {
			if pts[i].content() {
				cc.Contents++
			}
		}
		lo = hi
	}
	for _, st := range tt.stalls {
		for col := colOf(st.FromAt) + 1; col < colOf(st.ToAt); col++ {
			c.Cols[col].Stall = true
		}
	}
	k := sort.Search(len(pts), func(i int) bool { return int(pts[i].frame) > n })
	if k > 0 {
		c.Cursor = colOf(pts[k-1].at)
	}
	return c
}

// DeliveryAlarms are turn t's listed delivery and budget alarms (the
// Timing view's diagnosis).
func (s *Store) DeliveryAlarms(t int) []AlarmRec {
	var out []AlarmRec
	for _, i := range s.timing.alarms {
		if a := s.Alarms[i]; a.Turn == t {
			out = append(out, a)
		}
	}
	return out
}

// takeUsage gives each timed turn the output tokens its dialect reported,
// from the checker's turns at the end of the stream (usage is no move, so
// the rows do not carry it): the figures as of the turn's last frame show
// tokens/s beside deltas/s (docs/timing.md "The Timing view").
func (s *Store) takeUsage(final []invariants.Turn) {
	for i := range final {
		tt, tm := s.turnTiming(i), &final[i].Timing
		if tt == nil || !tm.HasUsage {
			continue
		}
		tt.live.Usage(tm.OutputTokens)
		if tm.HasGenTime {
			tt.live.GenerationTime(tm.GenTime)
		}
	}
}
