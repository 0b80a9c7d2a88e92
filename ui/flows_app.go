package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/proxy"
	"framescope/ui/store"
)

// FlowsApp is the program of `framescope proxy` on a terminal: the flow
// list, and over it the inspector of one flow (enter) until esc brings
// the list back. The proxy runs on throughout; the inspector of a flow is
// fed by the proxy's checker of that stream (store.FlowStream), live
// while it streams.
type FlowsApp struct {
	list    *Flows
	insp    *Model        // the inspector shown (nil: the list)
	exch    *FlowExchange // a flow's request and response shown (nil: none)
	open    int64         // the flow the inspector shows
	streams *store.FlowStreams
	opts    FlowsOptions
	cfg     Config

	sty       *Styles
	help      help.Model
	w, h      int
	darkKnown bool
	notice    string
	lastTick  time.Time // the last tickMsg handed to the inspector
	clock     func() time.Time
	// send delivers a message to the program (a stream's batches wait).
	send func(tea.Msg)
}

// FlowsOptions describe the proxy the screen shows.
type FlowsOptions struct {
	// Listen is the proxy's address (the footer's first words), Target
	// what it forwards to ("" for a forward proxy); Hint says how to
	// point an app at it.
	Listen, Target, Hint string
	// Streams are the proxy's streams by flow ID (fed by its OnStream).
	Streams *store.FlowStreams
	// Detail is a flow's request and response (proxy.Proxy.Detail; false:
	// no longer held). nil: the screen shows what the list knows.
	Detail func(id int64) (proxy.FlowDetail, bool)
	// MaxFlows bounds the flows listed, as the proxy bounds those it
	// remembers (--max-flows; 0: proxy.DefaultMaxFlows).
	MaxFlows int
}

// flowsMsg is a batch of flows from the proxy's subscription.
type flowsMsg []proxy.Flow

// flowBatchesMsg says the inspected stream has batches waiting.
type flowBatchesMsg struct{ id int64 }

// flowsTickMsg refreshes the running flows' durations.
type flowsTickMsg struct{}

const flowsTick = time.Second

// NewFlowsApp makes the screen (RunFlows runs it; tests drive it).
func NewFlowsApp(o FlowsOptions, cfg Config) *FlowsApp {
	dark := true
	if cfg.Dark != nil {
		dark = *cfg.Dark
	}
	clock := time.Now
	if cfg.Now != nil {
		clock = cfg.Now
	}
	if o.Streams == nil {
		o.Streams = store.NewFlowStreams(0, 0)
	}
	a := &FlowsApp{streams: o.Streams, opts: o, cfg: cfg, sty: NewStyles(dark, cfg.NoColor), help: help.New(),
		darkKnown: cfg.Dark != nil, clock: clock, send: func(tea.Msg) {}}
	a.help.Styles = a.sty.Help
	a.list = newFlows(a.sty, clock)
	if o.MaxFlows > 0 {
		a.list.max = o.MaxFlows
	}
	a.list.Focus()
	return a
}

// RunFlows runs the screen until the user quits, fed by sub (the flows)
// and o.Streams (their streams). interval spaces the flow batches (0:
// store.DefaultBatchInterval): flows change on every read of a body, the
// screen hears of them at most ~30 times a second.
func RunFlows(sub *proxy.Subscription, o FlowsOptions, ro RunOptions) error {
	ro.defaults()
	a := NewFlowsApp(o, ro.Config)
	p := tea.NewProgram(a, ro.ProgramOptions...)
	a.send = p.Send
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go feedFlows(ctx, sub, o.Streams, p.Send, ro.BatchInterval)
	_, err := p.Run()
	return err
}

// feedFlows hands the subscription's batches to the program, finishing
// the streams of the flows that ended (whether or not a screen shows
// them), at most one batch per interval.
func feedFlows(ctx context.Context, sub *proxy.Subscription, streams *store.FlowStreams, send func(tea.Msg), interval time.Duration) {
	if interval <= 0 {
		interval = store.DefaultBatchInterval
	}
	for {
		fs, err := sub.Next(ctx)
		if err != nil {
			return
		}
		for _, f := range fs {
			if f.Done && f.Kind == proxy.KindStream {
				streams.Ended(f.ID, f.Err, f.Duration)
			}
		}
		send(flowsMsg(fs))
		select {
		case <-time.After(interval):
		case <-ctx.Done():
			return
		}
	}
}

func (a *FlowsApp) Init() tea.Cmd {
	cmds := []tea.Cmd{a.tick()}
	if !a.darkKnown {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

func (a *FlowsApp) tick() tea.Cmd {
	return tea.Tick(flowsTick, func(time.Time) tea.Msg { return flowsTickMsg{} })
}

// Inspecting is the flow the inspector shows (false: the list is shown).
func (a *FlowsApp) Inspecting() (int64, bool) { return a.open, a.insp != nil }

// List is the flow list (tests).
func (a *FlowsApp) List() *Flows { return a.list }

// Inspector is the inspector shown (nil: the list).
func (a *FlowsApp) Inspector() *Model { return a.insp }

// listH is the list's height: the screen less the header line and the
// two footer lines.
func (a *FlowsApp) listH() int { return max(a.h-3, 1) }

func (a *FlowsApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.w, a.h = msg.Width, msg.Height
		a.list.SetSize(a.w, a.listH())
		if a.exch != nil {
			a.exch.SetSize(a.w, a.listH())
		}
		a.help.SetWidth(a.w)
		return a, a.toInspector(msg)
	case tea.BackgroundColorMsg:
		if !a.darkKnown {
			a.darkKnown = true
			a.sty = NewStyles(msg.IsDark(), a.cfg.NoColor)
			a.help.Styles = a.sty.Help
			a.list.sty = a.sty
			if a.exch != nil {
				a.openExchange(a.exch.d.Flow) // rebuilt in the new styles
			}
		}
		return a, a.toInspector(msg)
	case flowsMsg:
		a.list.Add(msg)
		return a, nil
	case flowBatchesMsg:
		if a.insp != nil && msg.id == a.open {
			if fs, ok := a.streams.Get(msg.id); ok {
				for _, b := range fs.Take() {
					a.insp.applyBatch(b)
				}
			}
		}
		return a, nil
	case flowsTickMsg:
		return a, a.tick()
	case tickMsg:
		// The inspector's clock: handed on at its own pace only, so that
		// the tick chains of an inspector closed and another opened meanwhile
		// die out instead of adding up.
		if a.insp == nil || time.Time(msg).Sub(a.lastTick) < spinnerStep/2 {
			return a, nil
		}
		a.lastTick = time.Time(msg)
		return a, a.toInspector(msg)
	case tea.KeyPressMsg:
		return a, a.key(msg)
	}
	if a.insp != nil {
		return a, a.toInspector(msg)
	}
	if a.exch != nil {
		if mm, ok := msg.(tea.MouseWheelMsg); ok {
			a.exch.Update(mm)
		}
		return a, nil
	}
	if _, ok := msg.(tea.MouseMsg); ok {
		if mm, ok := msg.(tea.MouseClickMsg); ok {
			mm.Y-- // the header line
			msg = mm
		}
		_, cmd := a.list.Update(msg)
		return a, cmd
	}
	if msg, ok := msg.(tea.PasteMsg); ok {
		_, cmd := a.list.Update(msg)
		return a, cmd
	}
	return a, nil
}

func (a *FlowsApp) toInspector(msg tea.Msg) tea.Cmd {
	if a.insp == nil {
		return nil
	}
	_, cmd := a.insp.Update(msg)
	return cmd
}

func (a *FlowsApp) key(msg tea.KeyPressMsg) tea.Cmd {
	k := &a.list.keys
	if key.Matches(msg, k.ForceQuit) {
		return tea.Quit
	}
	if a.insp != nil {
		if a.insp.atRest() && (msg.String() == "esc" || key.Matches(msg, a.insp.keys.Quit)) {
			a.closeInspector()
			return nil
		}
		return a.toInspector(msg)
	}
	if a.exch != nil {
		if key.Matches(msg, a.exch.keys.Back) {
			a.exch = nil
			return nil
		}
		_, cmd := a.exch.Update(msg)
		return cmd
	}
	a.notice = ""
	if a.list.Typing() {
		_, cmd := a.list.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Open):
		return a.openSelected()
	case key.Matches(msg, k.Exchange):
		if f, ok := a.list.Selected(); ok {
			a.openExchange(f)
		}
		return nil
	}
	_, cmd := a.list.Update(msg)
	return cmd
}

// atRest reports whether the inspector has nothing of its own for esc or
// q to close (a search, a filter, a prompt, the help, the Detail pane):
// then they go back to the flow list.
func (m *Model) atRest() bool {
	return !m.typing && m.prompt == nil && m.rs.pick == nil && !m.showHelp && m.focus != PaneDetail &&
		m.sh.query == "" && !m.timeline.filter.On()
}

// openSelected opens the inspector on the flow under the cursor, or says
// why it cannot.
func (a *FlowsApp) openSelected() tea.Cmd {
	f, ok := a.list.Selected()
	if !ok {
		return nil
	}
	if f.Kind != proxy.KindStream {
		a.openExchange(f)
		return nil
	}
	fs, ok := a.streams.Get(f.ID)
	if !ok {
		// Its items are gone (the last store.KeepEnded ended streams are
		// kept); its request, response and check are not.
		a.openExchange(f)
		a.notice = fmt.Sprintf("flow %d's frames are no longer kept in memory (the last %d ended streams' are)", f.ID, store.KeepEnded)
		if f.SessionID != "" {
			a.notice += ": framescope open @" + f.SessionID
		}
		return nil
	}
	cfg := a.cfg
	cfg.Cancel, cfg.Restarter, cfg.MaxTime = nil, nil, 0
	dark := a.sty.Dark
	cfg.Dark = &dark
	title := fmt.Sprintf("flow %d %s %s%s", f.ID, f.Method, f.Host, flowPath(f.URL))
	m := NewModel(title, true, cfg)
	m.keys.Quit.SetHelp("q", "back to flows")
	m.started = f.Started
	m.now = a.clock()
	id := f.ID
	send := a.send
	m.sh.st = fs.Attach(func() { send(flowBatchesMsg{id}) })
	a.streams.Pin(id)
	m.adopt()
	a.insp, a.open = m, id
	var cmds []tea.Cmd
	if a.w > 0 {
		cmds = append(cmds, a.toInspector(tea.WindowSizeMsg{Width: a.w, Height: a.h}))
	}
	// Batches that queued between the attach and now.
	for _, b := range fs.Take() {
		m.applyBatch(b)
	}
	a.lastTick = time.Time{}
	cmds = append(cmds, m.Init())
	return tea.Batch(cmds...)
}

// openExchange shows flow f's request and response: the proxy's detail
// of it (an in-memory copy), or what the list knows when the proxy no
// longer holds it.
func (a *FlowsApp) openExchange(f proxy.Flow) {
	d, known := proxy.FlowDetail{Flow: f}, false
	if a.opts.Detail != nil {
		if got, ok := a.opts.Detail(f.ID); ok {
			d, known = got, true
		}
	}
	a.exch = newFlowExchange(a.sty, d, known)
	a.exch.SetSize(a.w, a.listH())
	a.exch.Focus()
}

// Exchange is the flow whose request and response are shown (nil: none).
func (a *FlowsApp) Exchange() *FlowExchange { return a.exch }

// adopt takes in a store filled before the model was made (a flow opened
// late): the type index, and the cursor on the newest row, following.
func (m *Model) adopt() {
	st := m.sh.st
	m.types.Sync(st)
	if st.Len() > 0 {
		m.timeline.SetCursor(st.Len() - 1)
		m.syncSelection()
	}
}

// closeInspector gives the flow's store back to its feeder and shows the
// list.
func (a *FlowsApp) closeInspector() {
	if fs, ok := a.streams.Get(a.open); ok {
		fs.Detach()
	}
	a.streams.Pin(0)
	a.insp, a.open = nil, 0
}

func (a *FlowsApp) View() tea.View {
	v := tea.NewView(a.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "framescope proxy"
	return v
}

// Render is the whole screen: the inspector's, or the list's.
func (a *FlowsApp) Render() string {
	if a.insp != nil {
		return a.insp.Render()
	}
	if a.w <= 0 || a.h <= 0 {
		return ""
	}
	out := []string{a.header()}
	if a.exch != nil {
		out = append(out, strings.Split(a.exch.View(), "\n")...)
	} else {
		out = append(out, strings.Split(a.list.View(), "\n")...)
	}
	out = append(out, a.where(), a.footer())
	for len(out) < a.h {
		out = append(out, "")
	}
	out = out[:a.h]
	for i := range out {
		out[i] = fit(out[i], a.w)
	}
	return strings.Join(out, "\n")
}

// header: the program, the list's counts, the streams open and the
// alarms of every listed stream.
func (a *FlowsApp) header() string {
	sty := a.sty
	sep := sty.Dim.Render(" │ ")
	open, streams := 0, 0
	var c [3]int
	for i := range a.list.all {
		f := &a.list.all[i]
		if f.Kind != proxy.KindStream {
			continue
		}
		streams++
		if !f.Done {
			open++
		}
		c[0] += f.Counts.Error
		c[1] += f.Counts.Warn
		c[2] += f.Counts.Info
	}
	s := sty.HeaderHi.Render("framescope proxy") + sep + sty.Header.Render(a.list.Title()) + sep +
		fmt.Sprintf("%s, %d open", invariants.Plural(streams, "stream"), open) + sep +
		sty.SevError.Render(fmt.Sprintf("%s %d", sevMark("error"), c[0])) + " " +
		sty.SevWarn.Render(fmt.Sprintf("%s %d", sevMark("warn"), c[1])) + " " +
		sty.SevInfo.Render(fmt.Sprintf("%s %d", sevMark("info"), c[2]))
	return cut(s, a.w)
}

// where is the footer's first line: the listen address and how to point
// an app at it.
func (a *FlowsApp) where() string {
	o := a.opts
	s := a.sty.Bold.Render("http://"+decode.Sanitize(o.Listen)) + " "
	if o.Target != "" {
		s += "→ " + decode.Sanitize(o.Target) + " "
	}
	return cut(s+a.sty.Dim.Render(decode.Sanitize(o.Hint)), a.w)
}

// footer is the filter being typed, else a notice and the keys.
func (a *FlowsApp) footer() string {
	if a.exch != nil {
		left := a.sty.Bold.Render(a.exch.Title()) + "  "
		if n := a.exch.Notice(); n != "" {
			left += a.sty.Bold.Render(decode.Sanitize(n)) + "  "
		} else if a.notice != "" {
			left += a.sty.Bold.Render(decode.Sanitize(a.notice)) + "  "
		}
		return left + a.help.ShortHelpView(a.exch.keys.ShortHelp())
	}
	if l := a.list.FilterLine(); l != "" {
		return l
	}
	left := ""
	if a.notice != "" {
		left = a.sty.Bold.Render(decode.Sanitize(a.notice)) + "  "
	} else if a.list.Filtering() {
		left = a.sty.MatchMark.Render("/"+decode.Sanitize(a.list.query.text)) + "  "
	}
	return left + a.help.ShortHelpView(a.list.keys.ShortHelp())
}
