package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
)

// Tools is the waterfall of the turn's tool calls as of the selected frame,
// against the turn's time axis: calls still open at that frame are marked,
// calls that start later are not shown yet.
type Tools struct {
	scrollPane
}

func newTools(sh *shared) *Tools { return &Tools{scrollPane: scrollPane{sh: sh}} }

func (t *Tools) Title() string {
	turn, n := t.sh.asOf()
	if turn < 0 {
		return "Tools"
	}
	lo, hi := t.sh.st.ToolsAsOf(turn, n)
	return countTitle("Tools", hi-lo, t.sh.st.OpenToolsAt(turn, n), "open")
}

func (t *Tools) Update(msg tea.Msg) (Pane, tea.Cmd) {
	t.sc.update(msg, t.sh.keys)
	return t, nil
}

// axis maps a turn's times (or frame indexes, for untimed sources) to
// columns.
type axis struct {
	timed  bool
	t0, t1 time.Duration
	f0, f1 int
	cols   int
}

func (a axis) col(at time.Duration, hasAt bool, frame int) int {
	if a.cols <= 1 {
		return 0
	}
	var x float64
	if a.timed && hasAt {
		if a.t1 <= a.t0 {
			return 0
		}
		x = float64(at-a.t0) / float64(a.t1-a.t0)
	} else {
		if a.f1 <= a.f0 {
			return 0
		}
		x = float64(frame-a.f0) / float64(a.f1-a.f0)
	}
	c := int(x*float64(a.cols-1) + 0.5)
	return min(max(c, 0), a.cols-1)
}

func (t *Tools) View() string {
	st := t.sh.st
	sty := t.sh.sty
	turn, n := t.sh.asOf()
	if turn < 0 {
		return block([]string{sty.Dim.Render("no turn yet")}, t.w, t.h)
	}
	tr := &st.Turns[turn]
	lo, hi := st.ToolsAsOf(turn, n)
	alo, ahi := st.ToolsOfTurn(turn)
	row := st.Row(t.sh.sel)
	head := fmt.Sprintf("turn %d · as of frame %d", turn+1, n)
	if row.HasAt {
		head += " (" + fmtOffset(row.At) + ")"
	}
	if later := ahi - hi; later > 0 {
		head += fmt.Sprintf(" · %d later", later)
	}
	lines := []string{sty.Dim.Render(cut(head, t.w))}
	if hi == lo {
		msg := "no tool call yet"
		if ahi == alo {
			msg = "no tool call in this turn"
		}
		lines = append(lines, sty.Dim.Render(msg))
		return block(lines, t.w, t.h)
	}
	labelW := min(max(t.w*2/5, 12), 32)
	durW := 10
	barW := t.w - labelW - durW - 2
	if barW < 4 {
		labelW = max(t.w-durW-1, 4)
		barW = 0
	}
	curAt, hasCur := t.sh.cursorAt()
	ax := axis{timed: tr.HasTime, t0: tr.StartAt, t1: tr.EndAt, f0: tr.FirstFrame, f1: tr.LastFrame, cols: barW}
	if hasCur && curAt > ax.t1 {
		ax.t1 = curAt // a live stream: the axis runs to now
	}
	cur := ax.col(curAt, hasCur, n)
	// Calls still running on a live stream spin (the clock ticks while the
	// stream is open); time travel to an earlier frame shows them still.
	spin := t.spinner()
	t.sc.h, t.sc.n = t.h-1, hi-lo
	t.sc.by(0)
	for i := lo + t.sc.top; i < hi && len(lines) < t.h; i++ {
		sp := &st.Tools[i]
		open := sp.OpenAt(n)
		// Ready: its input was complete and the stream handed it to the
		// client to run (finish_reason "tool_calls"): it ends there.
		ready := sp.ReadyAt(n)
		label := decode.Sanitize(sp.Name) + " " + decode.Sanitize(sp.ID)
		if sp.Type != "" {
			label += " " + decode.Sanitize(sp.Type) // mcp / function
		}
		if open && spin != "" {
			label = spin + " " + label
		}
		var dur string
		switch {
		case sp.Orphan:
			dur = "orphan"
		case ready && sp.HasStart && sp.HasReady:
			dur = "ready " + fmtDur(sp.ReadyTime-sp.StartAt)
		case ready:
			dur = "ready"
		case open:
			dur = "open"
			if sp.HasStart && hasCur {
				dur = "open " + fmtDur(curAt-sp.StartAt)
			}
		case sp.HasStart && sp.HasEnd:
			dur = fmtDur(sp.EndAt - sp.StartAt)
		default:
			dur = fmt.Sprintf("%d fr", sp.End-sp.Start)
		}
		var b strings.Builder
		lsty := sty.Base
		if open {
			lsty = sty.BarOpen
		}
		b.WriteString(lsty.Render(fit(label, labelW)) + " ")
		if barW > 0 {
			x0 := ax.col(sp.StartAt, sp.HasStart, sp.Start)
			x1 := cur
			switch {
			case ready:
				x1 = ax.col(sp.ReadyTime, sp.HasReady, sp.Ready)
			case !open:
				x1 = ax.col(sp.EndAt, sp.HasEnd, sp.End)
			}
			x1 = max(x1, x0)
			for x := 0; x < barW; x++ {
				switch {
				case x >= x0 && x <= x1 && sp.Orphan:
					b.WriteString(sty.SevError.Render("◆"))
				case x >= x0 && x <= x1 && ready && x == x1:
					b.WriteString(sty.Bar.Render("→"))
				case x >= x0 && x <= x1 && open && x == x1:
					b.WriteString(sty.BarOpen.Render("▶"))
				case x >= x0 && x <= x1 && open:
					b.WriteString(sty.BarOpen.Render("▒"))
				case x >= x0 && x <= x1:
					b.WriteString(sty.Bar.Render("█"))
				case x == cur:
					b.WriteString(sty.Cursor.Render("│"))
				default:
					b.WriteString(sty.Dim.Render("·"))
				}
			}
			b.WriteString(" ")
		}
		dsty := sty.Dim
		if open {
			dsty = sty.BarOpen
		}
		b.WriteString(dsty.Render(padLeft(cut(dur, durW), durW)))
		lines = append(lines, b.String())
	}
	return block(lines, t.w, t.h)
}

// spinner is the glyph of the moment while the cursor follows an open
// live stream ("" otherwise).
func (t *Tools) spinner() string {
	if t.sh.liveNow == nil || t.sh.sel != t.sh.st.Len()-1 {
		return ""
	}
	now, live := t.sh.liveNow()
	if !live {
		return ""
	}
	return spinnerFrames[int(now/spinnerStep)%len(spinnerFrames)]
}

// spinnerFrames turn once every len(spinnerFrames) × spinnerStep.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const spinnerStep = 250 * time.Millisecond
