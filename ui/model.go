// Package ui is framescope's terminal inspector: a bubbletea program over
// the one pipeline of package sessions/pipeline. The data (package
// ui/store) is an append-only log of what the pipeline produced, fed in
// batches by a goroutine from a source (package ui/source: a capture, a
// live connection, a demo); the root model (model.go) lays out the panes, one file each
// (timeline.go, detail.go, alarms.go, tools.go, status.go, client.go,
// components.go), each a concrete type with its own key help. keys.go and
// styles.go are the key map and the colours; picker.go the session picker;
// the model's features (search, filter, playback, copy, write, restart)
// have a file each; run.go starts a program.
package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/pc3"
	"framescope/ui/store"
)

// Layout thresholds: below these the panes become tabs.
const (
	wideMinW = 110
	wideMinH = 30
)

// Model is the root model: it owns the store, the layout and the focus,
// routes keys, and applies the feeder's batches.
type Model struct {
	sh     shared
	keys   KeyMap
	help   help.Model
	source string

	w, h     int
	wide     bool
	panes    [numPanes]Pane
	timeline *Timeline
	detail   *Detail
	alarms   *Alarms
	client   *Client
	timing   *Timing // shown in the Client pane's place while timingOn
	timingOn bool
	focus    PaneID
	rects    [numPanes]rect
	grid     [2][]column // the wide layout: top and bottom rows
	gridH    [2]int

	showHelp bool
	zoomed   bool // z: one pane fills the body (tab layout) on a wide screen
	// Search: typing is the input line being edited; the query lives in
	// sh.query once confirmed.
	typing    bool
	input     string
	searchGen int
	pending   bool  // a search command is running
	matches   []int // rows, ascending
	scanned   int   // rows searched so far

	notice      string
	noticeSeq   int    // bumped by every timed notice (notice.go)
	flashed     string // the timed notice, which outlives keys until noticeUntil
	noticeUntil time.Time

	// Playback, the timeline filter's type index, and the one-line prompt
	// of the filter and write keys (playback.go, filter.go, write.go).
	play   playback
	types  store.TypeIndex
	prompt *prompt

	// Live sources.
	live      bool
	cancel    func()
	cancelled bool
	started   time.Time
	now       time.Time
	clock     func() time.Time
	rs        restartState  // restarts: the session generation, the scenario picker
	maxTime   time.Duration // --max-time: each live session is cancelled after it (maxtime.go)
	stopped   string        // why the session was stopped ("stopped: --max-time 30s"), else ""

	darkKnown bool // the styles follow a detected (or forced) background
	noColor   bool
}

type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// Config tunes the model.
type Config struct {
	// Dark forces a dark (true) or light (false) palette; nil asks the
	// terminal for its background (dark until it answers).
	Dark *bool
	// NoColor renders without colour (NO_COLOR).
	NoColor bool
	// Cancel is called by the cancel key on a live stream (nil: not live).
	Cancel func()
	// Restarter starts a new session on the reconnect and scenario keys
	// (nil: the source cannot restart).
	Restarter Restarter
	// Now is the clock (tests).
	Now func() time.Time
	// Registry is the status-event registry the session is checked
	// against (--registry): the Status pane shows its verdict per frame.
	Registry *pc3.Registry
	// MaxTime (connect --max-time) cancels each live session after this
	// long, as the cancel key does (0: no limit).
	MaxTime time.Duration
}

// NewModel returns the root model over an empty store.
func NewModel(source string, live bool, cfg Config) *Model {
	dark := true
	if cfg.Dark != nil {
		dark = *cfg.Dark
	}
	now := time.Now
	if cfg.Now != nil {
		now = cfg.Now
	}
	m := &Model{
		keys:      DefaultKeyMap(),
		help:      help.New(),
		source:    decode.Sanitize(source),
		live:      live,
		cancel:    cfg.Cancel,
		darkKnown: cfg.Dark != nil,
		noColor:   cfg.NoColor,
		started:   now(),
		maxTime:   cfg.MaxTime,
	}
	m.now = m.started
	m.sh = shared{st: store.NewStore(), sty: NewStyles(dark, cfg.NoColor), keys: &m.keys, sel: -1, follow: live, registry: cfg.Registry}
	m.help.Styles = m.sh.sty.Help
	m.clock = now
	m.sh.liveNow = func() (time.Duration, bool) {
		if !m.live || m.sh.st.Conn == store.ConnEnded {
			return 0, false
		}
		return m.now.Sub(m.started), true
	}
	if !live || cfg.Cancel == nil {
		m.keys.Cancel.SetEnabled(false)
	}
	m.rs = restartState{gen: 1}
	if live && cfg.Restarter != nil {
		m.rs.r = cfg.Restarter
	}
	m.keys.Reconnect.SetEnabled(m.rs.r != nil)
	m.keys.Scenario.SetEnabled(m.rs.r != nil && len(m.rs.r.Scenarios()) > 0)
	m.newPanes()
	return m
}

// newPanes builds the panes over the shared state, the timeline focused.
func (m *Model) newPanes() {
	m.timeline = newTimeline(&m.sh)
	m.detail = newDetail(&m.sh)
	m.alarms = newAlarms(&m.sh)
	m.client = newClient(&m.sh)
	m.timing = newTiming(&m.sh)
	m.timingOn = false
	m.panes = [numPanes]Pane{m.timeline, m.detail, m.alarms, newTools(&m.sh), newStatus(&m.sh), m.client, newComponents(&m.sh)}
	m.panes[PaneTimeline].Focus()
}

// Store returns the model's store (tests, the caller after the run).
func (m *Model) Store() *store.Store { return m.sh.st }

// Selected returns the selected row (-1 when none).
func (m *Model) Selected() int { return m.sh.sel }

// Focused returns the focused pane.
func (m *Model) Focused() PaneID { return m.focus }

// Pane returns one pane.
func (m *Model) Pane(id PaneID) Pane { return m.panes[id] }

// batchMsg carries a Batch to Update.
type batchMsg struct{ b *store.Batch }

type tickMsg time.Time

func (m *Model) tick() tea.Cmd {
	return tea.Tick(spinnerStep, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if !m.darkKnown {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.live {
		cmds = append(cmds, m.tick(), m.maxTimer())
	}
	return tea.Batch(cmds...)
}

func (m *Model) setStyles(s *Styles) {
	m.sh.sty = s
	m.help.Styles = s.Help
}

func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	// The Detail pane's body for what is selected now: a big frame is
	// rendered off the update loop (detail.go), so no frame holds up a key.
	return m, tea.Batch(cmd, m.detail.prepare())
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		if !m.darkKnown {
			m.darkKnown = true
			m.setStyles(NewStyles(msg.IsDark(), m.noColor))
		}
		return m, nil
	case tickMsg:
		m.now = m.clock()
		if m.sh.st.Conn == store.ConnEnded {
			return m, nil
		}
		return m, m.tick()
	case batchMsg:
		m.applyBatch(msg.b)
		return m, nil
	case genBatchMsg:
		m.applyGenBatch(msg)
		return m, nil
	case restartedMsg:
		m.restarted(msg)
		return m, nil
	case maxTimeMsg:
		m.maxTimeReached(msg)
		return m, nil
	case noticeExpiredMsg:
		if msg.seq == m.noticeSeq {
			m.notice = ""
		}
		return m, nil
	case jumpMsg:
		m.jump(msg.row)
		m.noteHidden(msg.row)
		m.setFocus(PaneTimeline)
		return m, nil
	case searchDoneMsg:
		m.searchDone(msg)
		return m, nil
	case detailRenderedMsg:
		m.detail.rendered(msg)
		return m, nil
	case playTickMsg:
		return m, m.playTick(msg)
	case writeDoneMsg:
		m.writeDone(msg)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if m.rs.pick != nil {
			m.rs.pick.paste(msg.Content)
			return m, nil
		}
		if m.typing && len(m.input) < 200 {
			m.input += strings.ReplaceAll(msg.Content, "\n", " ")
		}
		if p := m.prompt; p != nil && p.confirm == "" && !p.busy && len(p.input) < 400 {
			p.input += strings.ReplaceAll(msg.Content, "\n", " ")
		}
		return m, nil
	case tea.MouseWheelMsg:
		mo := msg.Mouse()
		if id, ok := m.paneAt(mo.X, mo.Y); ok {
			return m, m.updatePane(id, msg)
		}
	case tea.MouseClickMsg:
		mo := msg.Mouse()
		if !m.wide && mo.Y == headerH {
			// The tab bar: a click switches to that pane.
			if id, ok := m.tabAt(mo.X); ok {
				m.setFocus(id)
			}
			return m, nil
		}
		if id, ok := m.paneAt(mo.X, mo.Y); ok {
			m.setFocus(id)
			r := m.rects[id]
			if !r.contains(mo.X, mo.Y) {
				return m, nil // the title line: focus only
			}
			mo.X -= r.x
			mo.Y -= r.y
			return m, m.updatePane(id, tea.MouseClickMsg(mo))
		}
	}
	return m, nil
}

// applyBatch appends a batch, keeps the cursor following the stream when
// asked, and extends an active search over the new rows.
func (m *Model) applyBatch(b *store.Batch) {
	st := m.sh.st
	m.now = m.clock()
	wasBottom := m.timeline.AtBottom()
	before := st.Len()
	hadResponse := st.Response != nil
	wasEnded := st.Conn == store.ConnEnded
	st.Apply(b)
	b.Recycle() // the store holds what it keeps: the feeder reuses the room
	if !wasEnded && st.Conn == store.ConnEnded && m.cancelled && m.notice == "cancelling the stream…" {
		m.notice = "stream cancelled by the client (the disconnect path of §5.6)"
	}
	if !hadResponse && st.Response != nil && st.Response.Failed() {
		// An error page instead of a stream: show it at once.
		m.detail.SetTab(TabHTTP)
	}
	m.types.Sync(st)
	if st.Len() > before {
		switch {
		case m.sh.follow && wasBottom:
			m.timeline.SetCursor(st.Len() - 1)
		case m.sh.sel < 0:
			m.timeline.SetCursor(0)
		default:
			m.timeline.scrollIntoView()
		}
		m.syncSelection()
	}
	if m.sh.query != "" && !m.pending {
		m.scanFrom(m.scanned)
	}
}

// syncSelection tells the other panes the cursor moved.
func (m *Model) syncSelection() {
	if m.focus != PaneAlarms {
		m.alarms.selectRow(m.sh.sel)
	}
}

func (m *Model) jump(row int) {
	m.timeline.SetCursor(row)
	m.syncSelection()
}

func (m *Model) setFocus(id PaneID) {
	if id == m.focus {
		return
	}
	m.panes[m.focus].Blur()
	m.focus = id
	m.panes[id].Focus()
}

func (m *Model) updatePane(id PaneID, msg tea.Msg) tea.Cmd {
	sel := m.sh.sel
	p, cmd := m.panes[id].Update(msg)
	m.panes[id] = p
	if m.sh.sel != sel {
		m.syncSelection()
	}
	return cmd
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if key.Matches(msg, k.ForceQuit) {
		return tea.Quit // whatever is open
	}
	if m.flashed == "" || m.notice != m.flashed || !m.clock().Before(m.noticeUntil) {
		m.notice, m.flashed = "", "" // a timed notice stays its few seconds
	}
	if m.typing {
		return m.typeSearch(msg)
	}
	if m.prompt != nil {
		return m.typePrompt(msg)
	}
	if m.rs.pick != nil {
		return m.pickKey(msg)
	}
	if m.showHelp {
		if key.Matches(msg, k.CloseHelp) {
			m.showHelp = false
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		m.help.ShowAll = true
	case key.Matches(msg, k.NextPane):
		m.setFocus((m.focus + 1) % numPanes)
	case key.Matches(msg, k.PrevPane):
		m.setFocus((m.focus + numPanes - 1) % numPanes)
	case key.Matches(msg, k.NextAlarm):
		m.next(1)
	case key.Matches(msg, k.PrevAlarm):
		m.next(-1)
	case key.Matches(msg, k.Zoom):
		m.zoomed = !m.zoomed
		m.layout()
		if m.zoomed {
			m.notice = "zoomed: " + m.focus.String() + " (tab switches pane, z back to the grid)"
		}
	case key.Matches(msg, k.Timing):
		m.toggleTiming()
	case key.Matches(msg, k.Follow):
		m.sh.follow = !m.sh.follow
		if m.sh.follow {
			m.jump(m.sh.st.Len() - 1)
			m.notice = "follow on"
		} else {
			m.notice = "follow off"
		}
	case key.Matches(msg, k.Search):
		m.typing = true
		m.input = ""
	case key.Matches(msg, k.NextTab):
		m.stepDetailTab(1)
	case key.Matches(msg, k.PrevTab):
		m.stepDetailTab(-1)
	case key.Matches(msg, k.OpenDetail) && m.focus == PaneTimeline:
		m.openDetail()
	case key.Matches(msg, k.Back) && m.focus == PaneDetail:
		m.setFocus(PaneTimeline)
	case key.Matches(msg, k.ClearSearch) && m.sh.query != "":
		m.clearSearch()
	case key.Matches(msg, k.ClearFilter) && m.timeline.filter.On():
		m.setFilter(nil, false)
	case key.Matches(msg, k.Play):
		return m.togglePlay()
	case key.Matches(msg, k.Faster):
		return m.changeSpeed(1)
	case key.Matches(msg, k.Slower):
		return m.changeSpeed(-1)
	case key.Matches(msg, k.StepBack):
		m.stepFrame(-1)
	case key.Matches(msg, k.StepForward):
		m.stepFrame(1)
	case key.Matches(msg, k.Filter):
		m.openFilterPrompt()
	case key.Matches(msg, k.AlarmsOnly):
		m.toggleAlarmsOnly()
	case key.Matches(msg, k.WriteTurn):
		m.openWritePrompt(false)
	case key.Matches(msg, k.WriteSession):
		m.openWritePrompt(true)
	case key.Matches(msg, k.Copy):
		return m.copySelected(false)
	case key.Matches(msg, k.CopyRaw):
		return m.copySelected(true)
	case pressed(msg, k.Reconnect):
		if why := m.cannotReconnect(); why != "" {
			return m.flash(why)
		}
		return m.reconnect()
	case pressed(msg, k.Scenario):
		if why := m.cannotSwitch(); why != "" {
			return m.flash(why)
		}
		m.openScenarioPicker()
	case pressed(msg, k.Cancel):
		if why := m.cannotCancel(); why != "" {
			return m.flash(why)
		}
		m.cancelStream("cancelling the stream…")
	default:
		return m.updatePane(m.focus, msg)
	}
	return nil
}

// next moves to the next (dir 1) or previous (dir -1) search hit while a
// search is active, else to the next or previous row with an alarm.
func (m *Model) next(dir int) {
	st := m.sh.st
	sel := max(m.sh.sel, -1)
	if m.sh.query != "" {
		if len(m.matches) == 0 {
			m.notice = "no match for " + decode.Sanitize(m.sh.query)
			return
		}
		m.nextHit(sel, dir) // over the rows the filter lists (filter.go)
		return
	}
	row, ok := m.nextListedAlarm(sel, dir)
	if !ok && st.AlarmRowCount() > 0 {
		// Wrap around, as search hits do: n from the last alarm goes back
		// to the first one.
		from := -1
		if dir < 0 {
			from = st.Len()
		}
		if row, ok = m.nextListedAlarm(from, dir); ok {
			if dir > 0 {
				m.notice = "alarms wrapped to the top"
			} else {
				m.notice = "alarms wrapped to the bottom"
			}
		}
	}
	if !ok {
		if st.AlarmRowCount() == 0 {
			m.notice = "no alarms"
		} else {
			m.notice = "no alarm among the listed rows"
		}
		return
	}
	m.jump(row)
	m.alarms.selectRow(row)
}

// --- layout ---------------------------------------------------------------------

const headerH = 2

func (m *Model) layout() {
	w, h := m.w, m.h
	// Zoomed: the tab layout, whatever the size — the focused pane gets the
	// whole body (the wide grid gives the Client and Detail panes a dozen rows).
	m.wide = w >= wideMinW && h >= wideMinH && !m.zoomed
	m.help.SetWidth(w)
	bodyH := max(h-headerH-1, 1)
	if m.rs.pick != nil {
		m.rs.pick.SetSize(w, bodyH)
	}
	if !m.wide {
		// Tabs: one pane at a time under a tab bar.
		for id := range m.panes {
			m.panes[id].SetSize(w, max(bodyH-1, 1))
			m.rects[id] = rect{0, headerH + 1, w, max(bodyH-1, 1)}
		}
		return
	}
	topH := bodyH * 62 / 100
	botH := bodyH - topH
	leftW := max(w*55/100, 60)
	m.grid = [2][]column{
		{{ids: []PaneID{PaneTimeline}, w: leftW}, {ids: []PaneID{PaneDetail, PaneClient}, w: w - leftW - 1}},
	}
	if w >= 180 {
		// Wide enough for the client pane's own column beside the detail.
		m.grid[0] = splitColumns(w, []int{45, 27, 28}, []PaneID{PaneTimeline}, []PaneID{PaneDetail}, []PaneID{PaneClient})
	}
	// The small panes share the bottom row; below 180 columns status and
	// components stack in one column so that every pane keeps some width.
	if w >= 180 {
		m.grid[1] = splitColumns(w, []int{34, 26, 20, 20},
			[]PaneID{PaneAlarms}, []PaneID{PaneTools}, []PaneID{PaneStatus}, []PaneID{PaneComponents})
	} else {
		m.grid[1] = splitColumns(w, []int{38, 32, 30},
			[]PaneID{PaneAlarms}, []PaneID{PaneTools}, []PaneID{PaneStatus, PaneComponents})
	}
	m.gridH = [2]int{topH, botH}
	y := headerH
	for r, cols := range m.grid {
		x := 0
		for _, c := range cols {
			// Each pane: a title line, then its content.
			py := y
			for k, id := range c.ids {
				ph := m.gridH[r] / len(c.ids)
				if k == len(c.ids)-1 {
					ph = y + m.gridH[r] - py
				}
				m.setRect(id, rect{x, py + 1, c.w, ph - 1})
				py += ph
			}
			x += c.w + 1
		}
		y += m.gridH[r]
	}
}

// column is one column of a row of the wide layout: panes stacked.
type column struct {
	ids []PaneID
	w   int
}

// splitColumns shares w (minus separators) between columns by weight.
func splitColumns(w int, weights []int, ids ...[]PaneID) []column {
	avail := w - (len(ids) - 1)
	cols := make([]column, len(ids))
	x := 0
	for i := range ids {
		cw := avail * weights[i] / 100
		if i == len(ids)-1 {
			cw = w - x
		}
		cols[i] = column{ids: ids[i], w: cw}
		x += cw + 1
	}
	return cols
}

func (m *Model) setRect(id PaneID, r rect) {
	r.w, r.h = max(r.w, 1), max(r.h, 1)
	m.rects[id] = r
	m.panes[id].SetSize(r.w, r.h)
}

func (m *Model) paneAt(x, y int) (PaneID, bool) {
	if !m.wide {
		if m.rects[m.focus].contains(x, y) {
			return m.focus, true
		}
		return 0, false
	}
	for id := range m.panes {
		r := m.rects[id]
		// The pane and its title line above it.
		if r.contains(x, y) || y == r.y-1 && x >= r.x && x < r.x+r.w {
			return PaneID(id), true
		}
	}
	return 0, false
}

// --- view -----------------------------------------------------------------------

func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "framescope"
	return v
}

// Render returns the whole screen as a string (the View's content).
func (m *Model) Render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	var out []string
	out = append(out, m.header()...)
	bodyH := max(m.h-headerH-1, 1)
	switch {
	case m.rs.pick != nil:
		out = append(out, strings.Split(m.rs.pick.View(), "\n")...)
	case m.showHelp:
		m.help.ShowAll = true
		out = append(out, strings.Split(block(m.fullHelpLines(), m.w, bodyH), "\n")...)
	case !m.wide:
		out = append(out, m.tabBar())
		out = append(out, strings.Split(m.panes[m.focus].View(), "\n")...)
	default:
		out = append(out, m.gridRow(0)...)
		out = append(out, m.gridRow(1)...)
	}
	out = append(out, m.footer())
	for len(out) < m.h {
		out = append(out, "")
	}
	out = out[:m.h]
	for i := range out {
		out[i] = fit(out[i], m.w)
	}
	return strings.Join(out, "\n")
}

// gridRow renders one row of the wide layout: columns side by side, each
// pane under its title line.
func (m *Model) gridRow(r int) []string {
	sty := m.sh.sty
	h := m.gridH[r]
	cols := m.grid[r]
	colLines := make([][]string, len(cols))
	for i, c := range cols {
		var lines []string
		for _, id := range c.ids {
			ts := sty.Title
			if id == m.focus {
				ts = sty.TitleFocused
			}
			lines = append(lines, ts.Render(fit(" "+m.panes[id].Title(), c.w)))
			view := strings.Split(m.panes[id].View(), "\n")
			for y := 0; y < m.rects[id].h; y++ {
				if y < len(view) {
					lines = append(lines, fit(view[y], c.w))
				} else {
					lines = append(lines, strings.Repeat(" ", c.w))
				}
			}
		}
		colLines[i] = lines
	}
	sep := sty.Sep.Render("│")
	out := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		for i, c := range cols {
			if i > 0 {
				b.WriteString(sep)
			}
			if y < len(colLines[i]) {
				b.WriteString(colLines[i][y])
			} else {
				b.WriteString(strings.Repeat(" ", c.w))
			}
		}
		out[y] = b.String()
	}
	return out
}

// tabNames are the tab bar's labels, one per pane.
func (m *Model) tabNames() [numPanes]string {
	names := paneNames
	if n := m.sh.st.AlarmTotal(); n > 0 {
		names[PaneAlarms] = fmt.Sprintf("%s %d", names[PaneAlarms], n)
	}
	if m.w < 90 {
		names[PaneComponents] = "Comps"
	}
	if m.timingOn {
		names[PaneClient] = "Timing"
	}
	return names
}

// tabAt is the tab under column x of the tab bar (each label is padded by
// one space on either side).
func (m *Model) tabAt(x int) (PaneID, bool) {
	left := 0
	for id, name := range m.tabNames() {
		w := ansiWidth(name) + 2
		if x >= left && x < left+w {
			return PaneID(id), true
		}
		left += w
	}
	return 0, false
}

func (m *Model) tabBar() string {
	sty := m.sh.sty
	var b strings.Builder
	for id, name := range m.tabNames() {
		if PaneID(id) == m.focus {
			b.WriteString(sty.TabActive.Render(" " + name + " "))
		} else {
			b.WriteString(sty.TabInactive.Render(" " + name + " "))
		}
	}
	rest := m.panes[m.focus].Title()
	if PaneID(m.focus) != PaneTimeline {
		rest = m.timeline.Title()
	}
	line := b.String()
	if room := m.w - ansiWidth(line) - 2; room > 8 {
		line += "  " + sty.Dim.Render(cut(rest, room))
	}
	return line
}

func (m *Model) footer() string {
	sty := m.sh.sty
	if m.rs.pick != nil {
		return "" // the picker shows its own keys
	}
	if m.typing {
		return sty.Bold.Render("/") + decode.Sanitize(m.input) + sty.Bold.Render("█") +
			sty.Dim.Render("  enter: search · esc: cancel · re:PATTERN for a regular expression")
	}
	if m.prompt != nil {
		return m.promptLine()
	}
	var left string
	if m.sh.query != "" {
		s := fmt.Sprintf("/%s: %d rows match", decode.Sanitize(m.sh.query), len(m.matches))
		if m.pending {
			s = fmt.Sprintf("/%s: searching…", decode.Sanitize(m.sh.query))
		}
		left = sty.MatchMark.Render(s) + sty.Dim.Render(" (n/N, esc)") + "  "
	}
	if m.notice != "" {
		left = sty.Bold.Render(decode.Sanitize(m.notice)) + "  " + left // sanitized again: idempotent, and a notice may quote input
	}
	// "? help" and "q quit" always show; the rest is cut to fit before them.
	right := m.helpItems([]key.Binding{m.keys.Help, m.keys.Quit}, m.w)
	mid := ""
	if m.showHelp {
		right = m.helpItems([]key.Binding{m.keys.CloseHelp, m.keys.ForceQuit}, m.w)
	} else {
		mid = m.helpItems(m.shortHelp(), m.w-ansiWidth(left)-ansiWidth(right)-3)
	}
	if mid == "" {
		return left + right
	}
	return left + mid + m.help.Styles.ShortSeparator.Render(" • ") + right
}

// helpItems renders "key desc • key desc" with as many bindings as fit in
// w cells ("…" when some were left out).
func (m *Model) helpItems(bs []key.Binding, w int) string {
	st := m.help.Styles
	sep := " • "
	var b strings.Builder
	used := 0
	for i, k := range bs {
		if !k.Enabled() {
			continue
		}
		h := k.Help()
		n := ansiWidth(h.Key) + 1 + ansiWidth(h.Desc)
		if used > 0 {
			n += ansiWidth(sep)
		}
		// Leave room for the ellipsis unless this is the last binding.
		room := w
		if i < len(bs)-1 {
			room -= 2
		}
		if used+n > room {
			if used+2 <= w {
				b.WriteString(st.Ellipsis.Render(" …"))
			}
			break
		}
		if used > 0 {
			b.WriteString(st.ShortSeparator.Render(sep))
		}
		b.WriteString(st.ShortKey.Render(h.Key) + " " + st.ShortDesc.Render(h.Desc))
		used += n
	}
	return b.String()
}

func (m *Model) shortHelp() []key.Binding {
	k := &m.keys
	bs := append([]key.Binding{}, m.panes[m.focus].Keys().ShortHelp()...)
	if k.Cancel.Enabled() && m.sh.st.Conn != store.ConnEnded {
		bs = append(bs, k.Cancel)
	}
	if k.Reconnect.Enabled() {
		bs = append(bs, k.Reconnect, k.Scenario)
	}
	return append(bs, k.NextPane, k.NextAlarm, k.Search, k.Follow)
}

// fullHelpLines lays the help groups out side by side, starting a new band
// of groups when the next one would not fit the width (the help model
// alone would cut them off with an ellipsis on a narrow terminal).
func (m *Model) fullHelpLines() []string {
	const gap = "   "
	var lines, band []string
	bandW := 0
	flush := func() {
		if len(band) > 0 {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, band...)
		}
		band, bandW = nil, 0
	}
	for _, g := range m.fullHelp() {
		col := strings.Split(m.help.FullHelpView([][]key.Binding{g}), "\n")
		w := 0
		for _, l := range col {
			w = max(w, ansiWidth(l))
		}
		if bandW > 0 && bandW+len(gap)+w > m.w {
			flush()
		}
		for len(band) < len(col) {
			band = append(band, strings.Repeat(" ", bandW))
		}
		for i := range band {
			l := ""
			if i < len(col) {
				l = col[i]
			}
			sep := ""
			if bandW > 0 {
				sep = gap
			}
			band[i] = fit(band[i], bandW) + sep + fit(l, w)
		}
		bandW += w
		if bandW > w {
			bandW += len(gap)
		}
	}
	flush()
	return lines
}

func (m *Model) fullHelp() [][]key.Binding {
	k := &m.keys
	groups := [][]key.Binding{
		k.navigation(),
		{k.NextPane, k.PrevPane, k.Zoom, k.Timing, k.OpenDetail, k.Back, k.Expand, k.Enter, k.NextTab, k.PrevTab},
		{k.NextAlarm, k.PrevAlarm, k.Search, k.ClearSearch, k.Follow, k.Cancel, k.Copy, k.CopyRaw},
		{k.Play, k.Faster, k.Slower, k.StepBack, k.StepForward},
		{k.Filter, k.AlarmsOnly, k.ClearFilter, k.WriteTurn, k.WriteSession},
		{k.Reconnect, k.Scenario, k.Help, k.CloseHelp, k.Quit, k.ForceQuit},
	}
	return groups
}

// header is the two status lines: source and connection, turn; counts,
// timing and alarm badges.
func (m *Model) header() []string {
	st := m.sh.st
	sty := m.sh.sty
	sep := sty.Dim.Render(" │ ")

	// Line 1: source, state, turn.
	l1 := sty.HeaderHi.Render("framescope") + " " + sty.Header.Render(m.source) + m.sessionMark() + sep + m.connText()
	if turn, _ := m.sh.asOf(); turn >= 0 {
		l1 += sep + m.turnText(turn)
	} else if n := len(st.Turns); n > 0 {
		l1 += sep + m.turnText(n-1)
	}

	// Line 2: frames, bytes, elapsed, TTFE, alarm badges, follow.
	l2 := sty.Label.Render("frames ") + fmt.Sprint(st.Frames) +
		sty.Label.Render("  bytes ") + fmtBytes(st.Bytes) +
		sty.Label.Render("  elapsed ") + m.elapsed()
	if st.HasFirstArrival {
		l2 += sty.Label.Render("  TTFE ") + fmtDur(st.FirstArrival)
	}
	if t := len(st.Turns) - 1; m.live && st.Conn != store.ConnEnded && t >= 0 {
		// While a live turn streams: its time to first content (docs/timing.md).
		if d, ok := st.FirstContent(t); ok {
			l2 += sty.Label.Render("  1st content ") + fmtDur(d)
		} else if st.Timed(t) {
			l2 += sty.Label.Render("  1st content ") + sty.Dim.Render("waiting")
		}
	}
	if st.Dialect != "" {
		l2 += sty.Label.Render("  dialect ") + st.Dialect
		if st.Flavor != "" {
			l2 += " (" + decode.Sanitize(st.Flavor) + ")"
		}
	}
	c := st.Counts
	l2 += sep + sty.SevError.Render(fmt.Sprintf("%s %d", sevMark("error"), c.Error)) + " " +
		sty.SevWarn.Render(fmt.Sprintf("%s %d", sevMark("warn"), c.Warn)) + " " +
		sty.SevInfo.Render(fmt.Sprintf("%s %d", sevMark("info"), c.Info))
	if s := m.playIndicator(); s != "" {
		l2 += sep + s
	}
	if m.sh.follow {
		if m.timeline.AtBottom() {
			l2 += sep + sty.Bold.Render("FOLLOW")
		} else {
			l2 += sep + sty.Dim.Render("follow (paused: G)")
		}
	}
	return []string{cut(l1, m.w), cut(l2, m.w)}
}

func (m *Model) connText() string {
	st := m.sh.st
	sty := m.sh.sty
	http := ""
	if st.HTTPStatus != 0 {
		http = fmt.Sprintf(" HTTP %d", st.HTTPStatus)
	}
	switch st.Conn {
	case store.ConnConnecting:
		if m.live {
			return sty.SevWarn.Render("connecting…")
		}
		return sty.Dim.Render("reading…")
	case store.ConnOpen:
		s := "open"
		if !m.live {
			s = "reading"
		}
		if m.cancelled {
			s = "cancelling…"
		}
		return sty.TypeLifecycle.Render("● "+s) + http
	}
	e := st.End
	kind, detail := "eof", ""
	if e != nil {
		kind, detail = string(e.Kind), e.Detail
	}
	s := "ended: " + kind
	if detail != "" {
		s += ": " + detail
	}
	if m.stopped != "" && kind == "cancelled" {
		s = m.stopped + " (cancelled)" // --max-time, not the user
	}
	es := sty.Dim
	if kind == "error" || st.HTTPStatus != 0 && (st.HTTPStatus < 200 || st.HTTPStatus > 299) {
		es = sty.SevError
	}
	return es.Render(s) + http
}

func (m *Model) turnText(t int) string {
	st := m.sh.st
	sty := m.sh.sty
	tr := &st.Turns[t]
	s := fmt.Sprintf("turn %d/%d", t+1, len(st.Turns))
	if tr.HasRID {
		s += " " + decode.Sanitize(tr.RID)
	}
	term := "open"
	tsty := sty.SevWarn
	switch {
	case tr.Terminal != invariants.NotTerminal:
		term = tr.Terminal.String()
		if tr.Outcome != "" && tr.TerminalEvent != "" && !st.Wording().BareTerminal {
			term = tr.Outcome + " (" + decode.Sanitize(tr.TerminalEvent) + ")"
		}
		tsty = sty.TypeLifecycle
		if tr.Terminal != invariants.TerminalCompleted {
			tsty = sty.TypeError
		}
		if tr.Done {
			term += " + [DONE]"
		}
	case tr.Done:
		term = "[DONE] without terminal"
		tsty = sty.SevError
	case st.Conn == store.ConnEnded:
		term = "no terminal"
		tsty = sty.SevError
	}
	return sty.Header.Render(s) + " " + tsty.Render(term)
}

func (m *Model) elapsed() string {
	st := m.sh.st
	switch {
	case st.End != nil && st.End.HasTime:
		return fmtOffset(st.End.At)[1:]
	case m.live && st.Conn != store.ConnEnded:
		return fmtOffset(m.now.Sub(m.started))[1:]
	}
	if at, ok := st.LastAt(); ok {
		return fmtOffset(at)[1:]
	}
	return "-"
}
