package ui

import (
	"math"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/ui/store"
)

// Playback replays a recorded session at its recorded timing: the cursor
// moves row by row as the rows' times (Row.At) elapse, and every as-of pane
// follows it. Timing is anchored, not accumulated: each tick computes the
// stream time the wall clock has reached since the anchor and moves the
// cursor over every listed row that is due, so slow renders never make
// playback drift and a burst of rows in the same millisecond costs one
// tick, not one per row. Ticks carry a generation: a pause, a speed change
// or a restart bumps it, and older ticks are ignored.
//
// Rows without times (raw SSE without timestamps) play at a fixed pace of
// untimedPace per row (10 rows/s at ×1). In a live session playback is off
// while the stream is open — the cursor follows the stream (f) — and works
// once it ended, like on any recording.

const (
	untimedPace = 100 * time.Millisecond
	// minPlayTick bounds the tick rate (~60/s): a row shown for less than a
	// frame of the terminal is not seen anyway.
	minPlayTick = 16 * time.Millisecond
	// waitRowsTick re-checks for rows while a capture is still being read.
	waitRowsTick = 100 * time.Millisecond
	// Speeds are ×2^step: ×0.25 … ×16.
	minSpeedStep = -2
	maxSpeedStep = 4
)

type playback struct {
	on    bool
	gen   int
	step  int // speed ×2^step
	timed bool
	// The anchor: at wall time anchorWall the stream stood at anchorAt.
	anchorAt   time.Duration
	anchorWall time.Time
	lastSel    int // the cursor the last tick left (a different one: the user moved)
}

// playTickMsg is one playback tick.
type playTickMsg struct {
	gen int
	at  time.Time
}

func (p *playback) speed() float64 { return math.Ldexp(1, p.step) }

// speedText is "×0.25", "×1", "×16".
func (p *playback) speedText() string {
	return "×" + strconv.FormatFloat(p.speed(), 'f', -1, 64)
}

// streamAt is the stream time playback has reached at wall time w.
func (p *playback) streamAt(w time.Time) time.Duration {
	return p.anchorAt + time.Duration(float64(w.Sub(p.anchorWall))*p.speed())
}

// due is the stream time of a row: its time when timed (rows without one
// are due at once: target), else its list position at the fixed pace.
func (m *Model) due(row int, target time.Duration) time.Duration {
	if !m.play.timed {
		pos, _ := m.timeline.posOf(row)
		return time.Duration(pos) * untimedPace
	}
	if r := m.sh.st.Row(row); r.HasAt {
		return r.At
	}
	return target
}

// anchorAtCursor starts the clock at the cursor's row.
func (m *Model) anchorAtCursor(now time.Time) {
	p := &m.play
	p.anchorWall = now
	p.lastSel = m.sh.sel
	p.anchorAt = 0
	if !p.timed {
		p.anchorAt = m.due(m.sh.sel, 0)
		return
	}
	// A row without a time stands at the last timed row before it.
	for i := m.sh.sel; i >= 0 && i >= m.sh.sel-64; i-- {
		if r := m.sh.st.Row(i); r.HasAt {
			p.anchorAt = r.At
			return
		}
	}
}

// nextListed returns the listed row after row.
func (m *Model) nextListed(row int) (int, bool) {
	t := m.timeline
	pos, exact := t.posOf(row)
	if exact {
		pos++
	}
	if pos >= t.count() {
		return 0, false
	}
	return t.rowAt(pos), true
}

// togglePlay starts or pauses playback.
func (m *Model) togglePlay() tea.Cmd {
	p := &m.play
	if p.on {
		m.stopPlay("paused")
		return nil
	}
	st := m.sh.st
	if m.live && st.Conn != store.ConnEnded {
		m.notice = "playback works on recordings: this stream is live (f follows it); play it once it ended"
		return nil
	}
	if m.timeline.count() == 0 {
		m.notice = "nothing to play"
		return nil
	}
	if m.timeline.AtBottom() && st.Conn == store.ConnEnded {
		m.jump(0) // at the end: play again from the top
	}
	p.on = true
	p.gen++
	_, p.timed = st.LastAt()
	m.anchorAtCursor(m.clock())
	m.notice = "playing " + p.speedText()
	if !p.timed {
		m.notice += " — the rows have no times: 10 rows/s at ×1"
	}
	return m.schedulePlay(p.anchorWall)
}

func (m *Model) stopPlay(notice string) {
	m.play.on = false
	m.play.gen++
	m.notice = notice
}

// schedulePlay asks for the tick at which the next listed row is due.
func (m *Model) schedulePlay(now time.Time) tea.Cmd {
	p := &m.play
	gen := p.gen
	d := waitRowsTick
	if next, ok := m.nextListed(m.sh.sel); ok {
		target := p.streamAt(now)
		d = max(time.Duration(float64(m.due(next, target)-target)/p.speed()), minPlayTick)
	}
	return tea.Tick(d, func(t time.Time) tea.Msg { return playTickMsg{gen: gen, at: t} })
}

// playTick moves the cursor over every row due by the tick's time.
func (m *Model) playTick(msg playTickMsg) tea.Cmd {
	p := &m.play
	if !p.on || msg.gen != p.gen {
		return nil // paused, restarted or re-timed since: a stale tick
	}
	if m.live && m.sh.st.Conn != store.ConnEnded {
		m.stopPlay("playback stopped: the session is live again")
		return nil
	}
	if m.sh.sel != p.lastSel {
		// The user moved the cursor: play on from there.
		m.anchorAtCursor(msg.at)
		return m.schedulePlay(msg.at)
	}
	target := p.streamAt(msg.at)
	sel := m.sh.sel
	for {
		next, ok := m.nextListed(sel)
		if !ok {
			if m.sh.st.Conn == store.ConnEnded {
				m.jump(sel)
				m.stopPlay("playback finished")
				return nil
			}
			break // the capture is still being read: wait for rows
		}
		if m.due(next, target) > target {
			break
		}
		sel = next
	}
	if sel != m.sh.sel {
		m.jump(sel)
	}
	p.lastSel = m.sh.sel
	return m.schedulePlay(msg.at)
}

// changeSpeed doubles (dir 1) or halves (dir -1) the speed; while playing
// the clock is re-anchored so the position does not jump.
func (m *Model) changeSpeed(dir int) tea.Cmd {
	p := &m.play
	step := min(max(p.step+dir, minSpeedStep), maxSpeedStep)
	if step == p.step {
		m.notice = "speed " + p.speedText() + " (the limit)"
		return nil
	}
	if !p.on {
		p.step = step
		m.notice = "speed " + p.speedText()
		return nil
	}
	now := m.clock()
	p.anchorAt = p.streamAt(now)
	p.anchorWall = now
	p.step = step
	p.gen++
	m.notice = "playing " + p.speedText()
	return m.schedulePlay(now)
}

// stepFrame moves the cursor to the next (dir 1) or previous (dir -1)
// listed frame, skipping comments and notes: stepping is about what the
// client saw change, frame by frame (j/k still visit every row). Like a
// video player's frame step, it pauses playback.
func (m *Model) stepFrame(dir int) {
	if m.play.on {
		m.stopPlay("")
	}
	t := m.timeline
	n := t.count()
	if n == 0 {
		return
	}
	pos, exact := t.posOf(max(m.sh.sel, 0))
	p := pos - 1
	if dir > 0 {
		p = pos
		if exact {
			p++
		}
	}
	for ; p >= 0 && p < n; p += dir {
		if row := t.rowAt(p); m.sh.st.Row(row).Kind == store.RowFrame {
			m.jump(row)
			return
		}
	}
	if dir > 0 {
		m.notice = "no frame after this row"
	} else {
		m.notice = "no frame before this row"
	}
}

// playIndicator is the header's playback badge ("" when not playing).
func (m *Model) playIndicator() string {
	p := &m.play
	if !p.on {
		return ""
	}
	s := "▶ PLAY " + p.speedText()
	if !p.timed {
		s += " (untimed: 10 rows/s at ×1)"
	}
	return m.sh.sty.Bold.Render(s)
}
