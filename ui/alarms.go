package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/report"
	"framescope/ui/store"
)

// Alarms lists the alarms in the order raised, as check's report lists
// them: the first alarms of a rule in a turn one by one, the rest as one
// group row ("×999,900 more") that Enter expands into its frames. Enter on
// an alarm jumps to its frame.
type Alarms struct {
	sh      *shared
	w, h    int
	focused bool
	cursor  int
	top     int
	// expanded lists the expanded groups by their entry in the store's
	// list, ascending: item i of the pane is found in O(len(expanded)).
	expanded []int32
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
	n := a.sh.st.AlarmTotal()
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

// groupSize is how many items an expanded group adds under its row.
func (a *Alarms) groupSize(e int32) int {
	st := a.sh.st
	return st.Groups()[-st.AlarmEntries()[e]-1].Rows
}

// count is the number of items: entries and the rows of expanded groups.
func (a *Alarms) count() int {
	n := len(a.sh.st.AlarmEntries())
	for _, e := range a.expanded {
		n += a.groupSize(e)
	}
	return n
}

// item returns the entry of item i and, for a row of an expanded group,
// which of the group's rows it is (sub -1: the entry itself).
func (a *Alarms) item(i int) (entry int32, sub int) {
	off := 0
	for _, e := range a.expanded {
		if i <= int(e)+off {
			break
		}
		if sz := a.groupSize(e); i <= int(e)+off+sz {
			return e, i - off - int(e) - 1
		} else {
			off += sz
		}
	}
	return int32(i - off), -1
}

// itemOf is the item of entry e's row.
func (a *Alarms) itemOf(e int32) int {
	i := int(e)
	for _, x := range a.expanded {
		if x < e {
			i += a.groupSize(x)
		}
	}
	return i
}

// toggle expands or collapses the group at entry e.
func (a *Alarms) toggle(e int32) {
	k, ok := slices.BinarySearch(a.expanded, e)
	if ok {
		a.expanded = slices.Delete(a.expanded, k, k+1)
	} else {
		a.expanded = slices.Insert(a.expanded, k, e)
	}
}

func (a *Alarms) clamp() {
	n := a.count()
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

// selectRow puts the cursor on the first alarm of a row (when it has one):
// a listed alarm, or the row in its expanded group, or the group's row.
func (a *Alarms) selectRow(row int) {
	st := a.sh.st
	if row < 0 || row >= st.Len() {
		return
	}
	r := st.Row(row)
	if len(r.Alarms) == 0 {
		return
	}
	if ai := r.Alarms[0]; ai >= 0 {
		a.cursor = a.itemOf(st.EntryOfAlarm(ai))
	} else {
		g := &st.Groups()[-ai-1]
		a.cursor = a.itemOf(g.Entry)
		if _, ok := slices.BinarySearch(a.expanded, g.Entry); ok {
			if k, ok := g.IndexOf(row); ok {
				a.cursor += 1 + k
			}
		}
	}
	a.clamp()
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
			a.cursor = a.count() - 1
		case key.Matches(msg, k.Enter):
			a.clamp()
			if a.cursor < a.count() {
				if row := a.rowAt(a.cursor); row >= 0 {
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

// rowAt is the row Enter on item i jumps to (-1: none). Enter on a group's
// row expands or collapses it instead.
func (a *Alarms) rowAt(i int) int {
	st := a.sh.st
	e, sub := a.item(i)
	x := st.AlarmEntries()[e]
	if x >= 0 {
		return st.Alarms[x].Row
	}
	if sub < 0 {
		a.toggle(e)
		return -1
	}
	return st.Groups()[-x-1].RowAt(sub)
}

// alarmLine is an item of the list: its alarm (rebuilt for a group's
// rows), and for a group's own row the group.
func (a *Alarms) alarmLine(i int) (al invariants.Alarm, g *store.AlarmGroup, open bool) {
	st := a.sh.st
	e, sub := a.item(i)
	x := st.AlarmEntries()[e]
	if x >= 0 {
		return st.Alarms[x].Alarm, nil, false
	}
	grp := &st.Groups()[-x-1]
	if sub >= 0 {
		return st.GroupAlarm(int(-x-1), grp.RowAt(sub)), nil, false
	}
	_, open = slices.BinarySearch(a.expanded, e)
	al = invariants.Alarm{Rule: grp.Rule, Severity: grp.Severity, Frame: invariants.NoFrame, Turn: grp.Turn}
	if grp.Rows > 0 {
		if r := st.Row(grp.RowAt(0)); r.Kind == store.RowFrame {
			al.Frame = r.Frame
		}
	}
	return al, grp, open
}

func (a *Alarms) View() string {
	st := a.sh.st
	sty := a.sh.sty
	a.clamp()
	n := a.count()
	if n == 0 {
		msg := "no alarms so far"
		if st.Conn == store.ConnEnded {
			msg = "no alarms"
		}
		return block([]string{sty.Dim.Render(msg)}, a.w, a.h)
	}
	fw := max(len(strconv.Itoa(st.Frames)), 2)
	lh := a.listH()
	type line struct {
		al   invariants.Alarm
		g    *store.AlarmGroup
		open bool
	}
	vis := make([]line, 0, lh)
	for i := a.top; i < n && len(vis) < lh; i++ {
		al, g, open := a.alarmLine(i)
		vis = append(vis, line{al, g, open})
	}
	// The rule column is as wide as the longest visible rule name (capped).
	ruleW := 0
	for _, v := range vis {
		ruleW = max(ruleW, ansiWidth(decode.Sanitize(v.al.Rule)))
	}
	ruleW = min(ruleW, max(a.w/3, 12), 22)
	lines := make([]string, 0, a.h)
	for k, v := range vis {
		i := a.top + k
		al := &v.al
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
		msg := decode.Sanitize(al.Message)
		if v.g != nil {
			msg = groupLabel(v.g, v.open)
		}
		plain := sev + " " + padLeft(frame, fw) + " " + fit(rule, ruleW) + " " + msg
		if i == a.cursor {
			s := sty.SelectedBlur
			if a.focused {
				s = sty.Selected
			}
			lines = append(lines, s.Render(fit(plain, a.w)))
			continue
		}
		body := sty.Base.Render(msg)
		if v.g != nil {
			body = sty.Bold.Render(msg)
		}
		line := sty.Sev(al.Severity).Render(sev) + " " +
			sty.Dim.Render(padLeft(frame, fw)) + " " +
			sty.Bold.Render(fit(rule, ruleW)) + " " + body
		lines = append(lines, fit(line, a.w))
	}
	if eh := a.explainH(); eh > 0 {
		for len(lines) < lh {
			lines = append(lines, "")
		}
		lines = append(lines, sty.Sep.Render(strings.Repeat("─", a.w)))
		al, g, _ := a.alarmLine(a.cursor)
		if g != nil {
			al.Message = fmt.Sprintf("%s alarms of %s in turn %d were counted, not listed (check's report lists the first %d of a rule in a turn)",
				commas(g.Count), decode.Sanitize(g.Rule), g.Turn, report.MaxListed)
		}
		var ex []string
		for _, l := range wrapLines(alarmExplain(al, st.Dialect, sty), a.w, false) {
			ex = append(ex, l.styled)
		}
		if len(ex) > eh-1 {
			ex = ex[:eh-1]
		}
		lines = append(lines, ex...)
	}
	return block(lines, a.w, a.h)
}

// groupLabel is a group's row: how many alarms it counts and where.
func groupLabel(g *store.AlarmGroup, open bool) string {
	mark, verb := "▸", "expand"
	if open {
		mark, verb = "▾", "collapse"
	}
	s := fmt.Sprintf("%s ×%s more in turn %d, not listed", mark, commas(g.Count), g.Turn)
	if g.Turn < 0 {
		s = fmt.Sprintf("%s ×%s more, not listed", mark, commas(g.Count))
	}
	if g.Rows > 0 {
		s += " (enter: " + verb + ")"
	}
	return s
}
