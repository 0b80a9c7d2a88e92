package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"framescope/decode"
)

// Alarms lists every alarm in the order raised; Enter jumps to its frame.
type Alarms struct {
	sh      *shared
	w, h    int
	focused bool
	cursor  int
	top     int
}

func newAlarms(sh *shared) *Alarms { return &Alarms{sh: sh} }

func (a *Alarms) SetSize(w, h int) { a.w, a.h = w, h; a.clamp() }

// explainH is how many lines under the list explain the alarm at the
// cursor (none when the pane is short).
func (a *Alarms) explainH() int {
	if a.h < 10 {
		return 0
	}
	return min(5, a.h/3)
}

// listH is the height of the list part.
func (a *Alarms) listH() int { return max(a.h-a.explainH(), 1) }
func (a *Alarms) Focus()     { a.focused = true }
func (a *Alarms) Blur()      { a.focused = false }

func (a *Alarms) Title() string {
	c := a.sh.st.Counts
	n := len(a.sh.st.Alarms)
	if n == 0 {
		return "Alarms"
	}
	return fmt.Sprintf("Alarms %d (%d error, %d warn, %d info)", n, c.Error, c.Warn, c.Info)
}

func (a *Alarms) Keys() help.KeyMap {
	k := a.sh.keys
	return bindingHelp{
		short: []key.Binding{k.Up, k.Down, k.Enter},
		full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Enter}},
	}
}

func (a *Alarms) clamp() {
	n := len(a.sh.st.Alarms)
	a.cursor = max(min(a.cursor, n-1), 0)
	h := a.listH()
	if a.h <= 0 {
		return
	}
	if a.cursor < a.top {
		a.top = a.cursor
	}
	if a.cursor >= a.top+h {
		a.top = a.cursor - h + 1
	}
	a.top = max(min(a.top, n-h), 0)
}

// selectRow puts the cursor on the first alarm of a row (when it has one).
func (a *Alarms) selectRow(row int) {
	if row < 0 || row >= a.sh.st.Len() {
		return
	}
	if r := a.sh.st.Row(row); len(r.Alarms) > 0 {
		a.cursor = int(r.Alarms[0])
		a.clamp()
	}
}

func (a *Alarms) Update(msg tea.Msg) (Pane, tea.Cmd) {
	k := a.sh.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			a.cursor--
		case key.Matches(msg, k.Down):
			a.cursor++
		case key.Matches(msg, k.PageUp):
			a.cursor -= max(a.listH()-1, 1)
		case key.Matches(msg, k.PageDown):
			a.cursor += max(a.listH()-1, 1)
		case key.Matches(msg, k.Top):
			a.cursor = 0
		case key.Matches(msg, k.Bottom):
			a.cursor = len(a.sh.st.Alarms) - 1
		case key.Matches(msg, k.Enter):
			a.clamp()
			if a.cursor < len(a.sh.st.Alarms) {
				if row := a.sh.st.Alarms[a.cursor].Row; row >= 0 {
					return a, func() tea.Msg { return jumpMsg{row} }
				}
			}
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			a.cursor -= 3
		case tea.MouseWheelDown:
			a.cursor += 3
		}
	case tea.MouseClickMsg:
		a.cursor = a.top + msg.Y
	}
	a.clamp()
	return a, nil
}

func (a *Alarms) View() string {
	st := a.sh.st
	sty := a.sh.sty
	a.clamp()
	if len(st.Alarms) == 0 {
		msg := "no alarms so far"
		if st.Conn == ConnEnded {
			msg = "no alarms"
		}
		return block([]string{sty.Dim.Render(msg)}, a.w, a.h)
	}
	fw := max(len(strconv.Itoa(st.Frames)), 2)
	// The rule column is as wide as the longest visible rule name (capped).
	ruleW := 0
	lh := a.listH()
	for i := a.top; i < len(st.Alarms) && i < a.top+lh; i++ {
		ruleW = max(ruleW, ansiWidth(decode.Sanitize(st.Alarms[i].Rule)))
	}
	ruleW = min(ruleW, max(a.w/3, 12), 22)
	lines := make([]string, 0, a.h)
	for i := a.top; i < len(st.Alarms) && len(lines) < lh; i++ {
		al := &st.Alarms[i]
		// The frame as check reports it ("-": no single frame), even when
		// the alarm was raised while reading a row it can jump to.
		frame := "-"
		if al.Frame >= 0 {
			frame = strconv.Itoa(al.Frame)
		}
		// Narrow panes drop the severity word: the mark and colour say it.
		sev := fmt.Sprintf("%s %-5s", sevMark(al.Severity), al.Severity)
		if a.w < 70 {
			sev = sevMark(al.Severity)
		}
		rule := decode.Sanitize(al.Rule)
		plain := sev + " " + padLeft(frame, fw) + " " + fit(rule, ruleW) + " " + decode.Sanitize(al.Message)
		if i == a.cursor {
			s := sty.SelectedBlur
			if a.focused {
				s = sty.Selected
			}
			lines = append(lines, s.Render(fit(plain, a.w)))
			continue
		}
		line := sty.Sev(al.Severity).Render(sev) + " " +
			sty.Dim.Render(padLeft(frame, fw)) + " " +
			sty.Bold.Render(fit(rule, ruleW)) + " " +
			sty.Base.Render(decode.Sanitize(al.Message))
		lines = append(lines, fit(line, a.w))
	}
	if eh := a.explainH(); eh > 0 {
		for len(lines) < lh {
			lines = append(lines, "")
		}
		lines = append(lines, sty.Sep.Render(strings.Repeat("─", a.w)))
		var ex []string
		for _, l := range wrapLines(alarmExplain(st.Alarms[a.cursor].Alarm, st.Dialect, sty), a.w, false) {
			ex = append(ex, l.styled)
		}
		if len(ex) > eh-1 {
			ex = ex[:eh-1]
		}
		lines = append(lines, ex...)
	}
	return block(lines, a.w, a.h)
}
