package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/ui/store"
)

// Timing is the Timing view (docs/timing.md): the turn's gap chart (one
// column per slice of its time axis, a bar per the frames that arrived
// in it, stalls and bursts marked, the cursor's frame under it), its
// figures as of the cursor, and the delivery diagnosis (the turn's
// delivery and budget alarms, with their evidence). It takes the Client
// pane's place when the timing key toggles it (model.go). The figures
// and the chart come from the store (store/timing.go); View only draws.
type Timing struct {
	scrollPane
}

func newTiming(sh *shared) *Timing { return &Timing{scrollPane: scrollPane{sh: sh}} }

func (p *Timing) Title() string {
	turn, _ := p.sh.asOf()
	if turn < 0 {
		return "Timing"
	}
	if n := len(p.sh.st.DeliveryAlarms(turn)); n > 0 {
		return fmt.Sprintf("Timing (%s)", invariants.Plural(n, "delivery alarm"))
	}
	return "Timing"
}

func (p *Timing) Update(msg tea.Msg) (Pane, tea.Cmd) {
	p.sc.update(msg, p.sh.keys)
	return p, nil
}

// barLevels are the chart's bar heights by frames in a column.
var barLevels = []rune("▁▂▃▄▅▆▇█")

func (p *Timing) View() string {
	st := p.sh.st
	sty := p.sh.sty
	turn, n := p.sh.asOf()
	if turn < 0 {
		return block([]string{sty.Dim.Render("no turn yet")}, p.w, p.h)
	}
	head := sty.Dim.Render(fmt.Sprintf("turn %d · as of frame %d", turn+1, n))
	if !st.Timed(turn) {
		lines := []string{head, sty.Dim.Render("no arrival times: this capture is untimed (raw SSE, NDJSON); record or connect to time a stream")}
		return block(wrapAll(lines, p.w), p.w, p.h)
	}
	lines := []string{head}
	// The verdict before the figures: in the wide grid the pane has a
	// dozen lines, and the diagnosis is what a user opened it for.
	lines = append(lines, p.chart(turn, n)...)
	lines = append(lines, p.diagnosis(turn, n)...)
	lines = append(lines, p.figures(st.TimingAsOf(turn, n))...)
	lines = wrapAll(lines, p.w)
	return p.sc.view(lines, p.w, p.h)
}

// chart is the gap chart: a bar line, the cursor line, the axis.
func (p *Timing) chart(turn, n int) []string {
	sty := p.sh.sty
	cols := max(p.w-1, 1)
	c := p.sh.st.GapChart(turn, n, cols)
	if len(c.Cols) == 0 {
		return nil
	}
	most := 1
	for _, col := range c.Cols {
		most = max(most, col.Frames)
	}
	var bars, under strings.Builder
	for i, col := range c.Cols {
		switch {
		case col.Frames == 0 && col.Stall:
			bars.WriteString(sty.SevWarn.Render("─"))
		case col.Frames == 0:
			bars.WriteString(sty.Dim.Render("·"))
		default:
			lv := barLevels[min((col.Frames*len(barLevels)-1)/most, len(barLevels)-1)]
			s := sty.TypeLifecycle
			if col.Contents > 0 {
				s = sty.TypeContent
			}
			if col.Burst {
				s = sty.SevError
			}
			bars.WriteString(s.Render(string(lv)))
		}
		if i == c.Cursor {
			under.WriteString(sty.Cursor.Render("▲"))
		} else {
			under.WriteByte(' ')
		}
	}
	from, to := fmtDur(c.Start), fmtDur(c.End)
	axis := from + strings.Repeat(" ", max(cols-len(from)-len(to), 1)) + to
	legend := sty.Dim.Render("frames per slice · ") + sty.SevError.Render("█") + sty.Dim.Render(" burst · ") +
		sty.SevWarn.Render("─") + sty.Dim.Render(" stall over "+fmtDur(invariants.DefaultStall)+" · ▲ cursor")
	return []string{bars.String(), under.String(), sty.Dim.Render(axis), legend}
}

// figures are the turn's timing as of the cursor.
func (p *Timing) figures(s invariants.TurnTiming) []string {
	sty := p.sh.sty
	d := fmtDur
	if !s.Timed {
		return []string{sty.Dim.Render("no timed frame of this turn yet")}
	}
	origin := "from the turn's first frame"
	if s.FromResponse {
		origin = "from the response start"
	}
	first := sty.Dim.Render("no content yet")
	if s.HasContent {
		first = d(s.FirstContent)
	}
	end := "to the last frame"
	if s.HasTerminal {
		end = "to the terminal"
	}
	lines := []string{
		sty.Bold.Render("Figures") + sty.Dim.Render(" as of the cursor, "+origin),
		sty.Label.Render("first content ") + first + sty.Label.Render("  first frame ") + d(s.FirstFrame) +
			sty.Label.Render("  duration ") + d(s.Duration) + sty.Dim.Render(" "+end),
	}
	delta := sty.Label.Render("deltas ") + fmt.Sprint(s.Chunks) + sty.Label.Render("  chars ") + fmt.Sprint(s.Chars)
	if s.Chunks > 1 && s.ChunksPerSec > 0 {
		delta += sty.Label.Render("  rate ") + fmt.Sprintf("%.1f/s, %.0f chars/s", s.ChunksPerSec, s.CharsPerSec)
	}
	lines = append(lines, delta)
	if s.Chunks > 1 {
		lines = append(lines, sty.Label.Render("gaps ")+fmt.Sprintf("p50 %s  p95 %s  max %s (frames %d–%d)", d(s.GapP50), d(s.GapP95), d(s.GapMax), s.GapMaxFrom, s.GapMaxTo))
	}
	stalls := sty.Label.Render("stalls ") + fmt.Sprint(s.Stalls)
	if s.Stalls > 0 {
		stalls = sty.SevWarn.Render(fmt.Sprintf("stalls %d (%s)", s.Stalls, d(s.StallTotal)))
	}
	lines = append(lines, stalls+sty.Label.Render("  frames ")+fmt.Sprintf("%d in %s", s.Frames, invariants.Plural(s.Reads, "read"))+
		sty.Label.Render("  longest burst ")+fmt.Sprintf("%s in %s", invariants.Plural(s.Burst, "frame"), d(s.BurstSpan)))
	if s.HasContent {
		lines = append(lines, sty.Label.Render("tail ")+d(s.Tail)+sty.Dim.Render(" from the last content"))
	}
	if s.HasUsage {
		tok := sty.Label.Render("output tokens ") + fmt.Sprint(s.OutputTokens)
		if s.ContentSpan > 0 {
			tok += sty.Label.Render("  rate ") + fmt.Sprintf("%.1f tokens/s", s.TokensPerSec) + sty.Dim.Render(" over the content")
		}
		if s.HasGenTime {
			tok += sty.Label.Render("  server ") + fmt.Sprintf("%.1f/s", s.ServerTokensPerSec)
		}
		lines = append(lines, tok)
	}
	return lines
}

// diagnosis is the turn's delivery verdict as of frame n: its delivery
// and budget alarms with their evidence (the messages say what arrived
// when). An alarm at a later frame, or one about the whole turn before
// the cursor reaches the turn's end, is not known yet.
func (p *Timing) diagnosis(turn, n int) []string {
	sty := p.sh.sty
	tr := &p.sh.st.Turns[turn]
	end := tr.LastFrame
	if tr.TerminalFrame >= 0 {
		end = tr.TerminalFrame
	}
	var as []store.AlarmRec
	later := 0
	for _, a := range p.sh.st.DeliveryAlarms(turn) {
		if a.Frame != invariants.NoFrame && a.Frame > n || a.Frame == invariants.NoFrame && n < end {
			later++
			continue
		}
		as = append(as, a)
	}
	lines := []string{sty.Bold.Render("Delivery")}
	if later > 0 {
		lines[0] += sty.Dim.Render(fmt.Sprintf(" (%s later in the turn)", invariants.Plural(later, "more alarm")))
	}
	if len(as) == 0 {
		msg := "no delivery alarm: frames arrived as they were sent"
		switch {
		case later > 0:
			msg = "no delivery alarm yet"
		case tr.TerminalFrame < 0 && p.sh.st.Conn != store.ConnEnded:
			msg = "judged when the turn ends"
		}
		return append(lines, sty.Dim.Render(msg))
	}
	for _, a := range as {
		ss := sty.SevInfo
		switch a.Severity {
		case invariants.SevError:
			ss = sty.SevError
		case invariants.SevWarn:
			ss = sty.SevWarn
		}
		lines = append(lines, ss.Render(sevMark(a.Severity)+" "+a.Rule)+" "+decode.Sanitize(a.Message))
	}
	return lines
}

// wrapAll hard-wraps each (possibly styled) line to w cells.
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		if ansiWidth(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(wordwrap(l, w), "\n")...)
	}
	return out
}
