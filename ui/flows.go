package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/decode"
	"framescope/sessions"
	"framescope/sessions/proxy"
)

// Flows is the proxy's flow list (framescope proxy on a terminal, as
// mitmproxy's): one row per request as it happens — method, host/path,
// status, dialect, frames, duration and the alarms by severity. A filter
// narrows it by text, host: or dialect:. Only the visible rows are
// rendered; the flows arrive in batches (FlowsApp), never one message per
// frame.
type Flows struct {
	sty  *Styles
	keys FlowKeys
	w, h int
	// focused is kept for the Pane shape; the list is the only pane.
	focused bool

	all   []proxy.Flow  // in order of arrival (ID order)
	index map[int64]int // flow ID → position in all
	shown []int         // positions in all the filter lets through
	sel   int           // cursor: a position in shown (-1: none)
	top   int           // the first shown row on screen
	stick bool          // the cursor follows the newest flow
	query flowQuery     // the filter applied
	typed *string       // the filter being typed (nil: not typing)
	clock func() time.Time
	// max bounds the flows listed: the proxy's own bound (--max-flows,
	// FlowsOptions.MaxFlows); the oldest finished ones are forgotten.
	max int
}

// FlowKeys is the flow list's key map.
type FlowKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open, Exchange, Filter, Clear, Quit     key.Binding
	ForceQuit                               key.Binding
}

// DefaultFlowKeys returns the flow list's bindings (the inspector's
// navigation keys, so moving feels the same on both screens).
func DefaultFlowKeys() FlowKeys {
	k := DefaultKeyMap()
	return FlowKeys{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom,
		Open:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Exchange:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "request/response")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter (host: dialect:)")),
		Clear:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "stop the proxy")),
		ForceQuit: k.ForceQuit,
	}
}

func (k FlowKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Exchange, k.Filter, k.Clear, k.Quit}
}

func (k FlowKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Open, k.Exchange, k.Filter, k.Clear, k.Quit, k.ForceQuit}}
}

func newFlows(sty *Styles, clock func() time.Time) *Flows {
	if clock == nil {
		clock = time.Now
	}
	return &Flows{sty: sty, keys: DefaultFlowKeys(), index: map[int64]int{}, sel: -1, stick: true, clock: clock, max: proxy.DefaultMaxFlows}
}

func (l *Flows) SetSize(w, h int)  { l.w, l.h = w, h; l.scroll() }
func (l *Flows) Focus()            { l.focused = true }
func (l *Flows) Blur()             { l.focused = false }
func (l *Flows) Keys() help.KeyMap { return l.keys }

// Title is the list's name and counts ("Flows 12 · 3 shown").
func (l *Flows) Title() string {
	s := fmt.Sprintf("Flows %d", len(l.all))
	if l.query.on() {
		s += fmt.Sprintf(" · %d shown", len(l.shown))
	}
	return s
}

// Selected is the flow under the cursor.
func (l *Flows) Selected() (proxy.Flow, bool) {
	if l.sel < 0 || l.sel >= len(l.shown) {
		return proxy.Flow{}, false
	}
	return l.all[l.shown[l.sel]], true
}

// Typing reports whether the filter is being typed (keys are text).
func (l *Flows) Typing() bool { return l.typed != nil }

// Filtering reports whether a filter is applied.
func (l *Flows) Filtering() bool { return l.query.on() }

// Add takes a batch of flows (new ones and the latest state of changed
// ones) from the proxy's subscription.
func (l *Flows) Add(fs []proxy.Flow) {
	grew := false
	for _, f := range fs {
		f.Body = nil // the list never shows it: 64 KiB a flow is not kept twice
		if i, ok := l.index[f.ID]; ok {
			l.all[i] = f
			continue
		}
		l.index[f.ID] = len(l.all)
		l.all = append(l.all, f)
		grew = true
	}
	if len(l.all) > l.max {
		l.forget(len(l.all) - l.max)
	}
	if grew || l.query.on() {
		l.refilter()
	}
}

// forget drops the n oldest finished flows (a running one stays listed).
func (l *Flows) forget(n int) {
	kept := l.all[:0]
	for _, f := range l.all {
		if n > 0 && f.Done {
			n--
			continue
		}
		kept = append(kept, f)
	}
	clear(l.all[len(kept):])
	l.all = kept
	clear(l.index)
	for i, f := range l.all {
		l.index[f.ID] = i
	}
}

// refilter rebuilds the shown rows, keeping the cursor on its flow (or on
// the newest one while it sticks there).
func (l *Flows) refilter() {
	var cur int64 = -1
	if f, ok := l.Selected(); ok {
		cur = f.ID
	}
	l.shown = l.shown[:0]
	for i := range l.all {
		if l.query.match(&l.all[i]) {
			l.shown = append(l.shown, i)
		}
	}
	l.sel = -1
	switch {
	case len(l.shown) == 0:
	case l.stick || cur < 0:
		l.sel = len(l.shown) - 1
	default:
		for k, i := range l.shown {
			if l.all[i].ID <= cur {
				l.sel = k
			}
		}
		l.sel = max(l.sel, 0)
	}
	l.scroll()
}

// move puts the cursor on shown row k (clamped); at the last row it
// sticks to the newest flow.
func (l *Flows) move(k int) {
	if len(l.shown) == 0 {
		return
	}
	l.sel = max(min(k, len(l.shown)-1), 0)
	l.stick = l.sel == len(l.shown)-1
	l.scroll()
}

// bodyH is the rows of flows on screen (a column header above them).
func (l *Flows) bodyH() int { return max(l.h-1, 1) }

func (l *Flows) scroll() {
	h := l.bodyH()
	if l.sel < l.top {
		l.top = max(l.sel, 0)
	}
	if l.sel >= l.top+h {
		l.top = l.sel - h + 1
	}
	l.top = max(min(l.top, len(l.shown)-h), 0)
}

func (l *Flows) Update(msg tea.Msg) (Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if l.typed != nil {
			l.typeFilter(msg)
			return l, nil
		}
		k := &l.keys
		switch {
		case key.Matches(msg, k.Up):
			l.move(l.sel - 1)
		case key.Matches(msg, k.Down):
			l.move(l.sel + 1)
		case key.Matches(msg, k.PageUp):
			l.move(l.sel - l.bodyH())
		case key.Matches(msg, k.PageDown):
			l.move(l.sel + l.bodyH())
		case key.Matches(msg, k.Top):
			l.move(0)
		case key.Matches(msg, k.Bottom):
			l.move(len(l.shown) - 1)
		case key.Matches(msg, k.Filter):
			s := l.query.text
			l.typed = &s
		case key.Matches(msg, k.Clear):
			l.setFilter("")
		}
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			l.move(l.sel - 3)
		} else {
			l.move(l.sel + 3)
		}
	case tea.MouseClickMsg:
		if row := msg.Y - 1; row >= 0 && l.top+row < len(l.shown) {
			l.move(l.top + row)
		}
	case tea.PasteMsg:
		if l.typed != nil && len(*l.typed) < 200 {
			*l.typed += strings.ReplaceAll(msg.Content, "\n", " ")
		}
	}
	return l, nil
}

// typeFilter edits the filter line: enter applies it, esc leaves it as
// it was.
func (l *Flows) typeFilter(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "enter":
		s := *l.typed
		l.typed = nil
		l.setFilter(s)
	case "esc":
		l.typed = nil
	case "backspace":
		if s := *l.typed; s != "" {
			r := []rune(s)
			*l.typed = string(r[:len(r)-1])
		}
	default:
		if t := msg.Text; t != "" && len(*l.typed) < 200 {
			*l.typed += t
		}
	}
}

func (l *Flows) setFilter(s string) {
	l.query = parseFlowQuery(s)
	l.refilter()
}

// FilterLine is the footer's line while the filter is typed ("" when not).
func (l *Flows) FilterLine() string {
	if l.typed == nil {
		return ""
	}
	return l.sty.Bold.Render("/") + decode.Sanitize(*l.typed) + l.sty.Bold.Render("█") +
		l.sty.Dim.Render("  enter: filter · esc: cancel · host:NAME dialect:NAME words")
}

// Column widths of the list; the URL takes what is left.
const (
	flowColID      = 5
	flowColMethod  = 7
	flowColStatus  = 4
	flowColDialect = 14
	flowColFrames  = 7
	flowColDur     = 7
	flowColAlarms  = 14
)

func (l *Flows) urlW() int {
	fixed := flowColID + flowColMethod + flowColStatus + flowColDialect + flowColFrames + flowColDur + flowColAlarms + 7
	return max(l.w-fixed, 10)
}

func (l *Flows) View() string {
	sty := l.sty
	lines := make([]string, 0, l.h)
	head := fmt.Sprintf("%*s %-*s %*s %-*s %-*s %*s %*s %s", flowColID, "#", flowColMethod, "METHOD", flowColStatus, "CODE",
		l.urlW(), "HOST/PATH", flowColDialect, "DIALECT", flowColFrames, "FRAMES", flowColDur, "TIME", "ALARMS E/W/I")
	lines = append(lines, sty.Label.Render(fit(head, l.w)))
	if len(l.shown) == 0 {
		msg := "no flow yet: point an app at the proxy (below)"
		if l.query.on() {
			msg = "no flow matches the filter (esc clears it)"
		}
		lines = append(lines, sty.Dim.Render(cut(msg, l.w)))
		return block(lines, l.w, l.h)
	}
	for k := l.top; k < len(l.shown) && k < l.top+l.bodyH(); k++ {
		line := l.row(&l.all[l.shown[k]])
		if k == l.sel {
			line = sty.Selected.Render(fit(ansi.Strip(line), l.w))
		}
		lines = append(lines, line)
	}
	return block(lines, l.w, l.h)
}

// row renders one flow (everything from the network sanitized).
func (l *Flows) row(f *proxy.Flow) string {
	sty := l.sty
	status := "…"
	stSty := sty.Dim
	switch {
	case f.Status != 0:
		status = fmt.Sprint(f.Status)
		stSty = sty.Base
		if f.Status >= 400 {
			stSty = sty.SevError
		}
	case f.Kind == proxy.KindTunnel || f.Kind == proxy.KindWebSocket:
		status = ""
	case f.Done:
		status = "---"
		stSty = sty.SevError
	}
	where := decode.Sanitize(f.Host) + flowPath(f.URL)
	if f.Err != "" && f.Kind != proxy.KindStream {
		where += "  (" + decode.Sanitize(f.Err) + ")"
	}
	dialect, frames := "", ""
	switch f.Kind {
	case proxy.KindStream:
		dialect = decode.Sanitize(f.Dialect)
		if dialect == "" {
			dialect = "detecting…"
		}
		frames = fmt.Sprint(f.Frames)
	case proxy.KindHTTP:
		dialect = sessions.FormatSize(f.Bytes)
	default:
		dialect = string(f.Kind)
	}
	dur := shortDuration(f.Duration)
	if !f.Done {
		dur = shortDuration(l.clock().Sub(f.Started))
	}
	alarms := ""
	if f.Kind == proxy.KindStream {
		c := f.Counts
		alarms = sty.SevError.Render(fmt.Sprintf("%3d", c.Error)) + " " + sty.SevWarn.Render(fmt.Sprintf("%3d", c.Warn)) + " " +
			sty.SevInfo.Render(fmt.Sprintf("%3d", c.Info))
		if !f.Done {
			alarms += " " + sty.TypeLifecycle.Render("●")
		} else if f.Err != "" {
			alarms += " " + sty.SevError.Render("✗")
		}
	}
	mark := " "
	return fmt.Sprintf("%*d%s%-*s %s %s %s %*s %*s %s", flowColID, f.ID, mark,
		flowColMethod, cut(decode.Sanitize(f.Method), flowColMethod),
		stSty.Render(fmt.Sprintf("%*s", flowColStatus, status)),
		fit(where, l.urlW()), fit(dialect, flowColDialect), flowColFrames, frames, flowColDur, dur, alarms)
}

// flowPath is the path and query of a flow's URL (already redacted by the
// proxy), sanitized; a CONNECT's URL has none.
func flowPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			return decode.Sanitize(u[j:])
		}
		return ""
	}
	return ""
}
