package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"framescope/decode"
	"framescope/invariants"
)

// Client shows the reference client state machine as of the selected
// frame: where a correct v0.5 client stands in its diagram, the row it just
// took and why, what it shows the user, and where the deployed v0.4 client,
// fed the same frames, reads them otherwise. Everything about the machine
// (states, regions, rows, clauses) comes from invariants; the pane only
// lays it out.
type Client struct {
	sh      *shared
	w, h    int
	focused bool
	sc      scroller

	tr      clientTrack
	growing bool // a clientGrowMsg is on its way

	// The machines as of the cursor, and their rendering, cached.
	snapKey  clientSnapKey
	snap     *clientSnap
	linesKey clientLinesKey
	lines    []string
}

func newClient(sh *shared) *Client { return &Client{sh: sh} }

func (c *Client) SetSize(w, h int)  { c.w, c.h = w, h }
func (c *Client) Focus()            { c.focused = true }
func (c *Client) Blur()             { c.focused = false }
func (c *Client) Keys() help.KeyMap { return scrollKeys(c.sh.keys) }

func (c *Client) Update(msg tea.Msg) (Pane, tea.Cmd) {
	c.sc.update(msg, c.sh.keys)
	return c, nil
}

func (c *Client) Title() string {
	s := c.current()
	if s == nil {
		return "Client v0.5"
	}
	if !s.ready {
		return "Client v0.5 · reading…"
	}
	t := "Client v0.5 · " + stateLabel(s.v05)
	if l := stateLabel(s.v04); l != stateLabel(s.v05) {
		t += " · v0.4 " + l
	}
	if s.origin {
		t += " ◆"
	}
	return t
}

func (c *Client) View() string {
	lines := c.render()
	c.sc.h, c.sc.n = c.h, len(lines)
	c.sc.by(0)
	return block(lines[c.sc.top:], c.w, c.h)
}

// --- the machines over the store -------------------------------------------------

// clientEvery is the distance in frames between two checkpoints: showing
// any frame replays fewer than this many frames from the nearest one.
const clientEvery = 256

// clientGrowChunk is how many frames one clientGrowMsg reads into the
// checkpoints (a few milliseconds of Update).
const clientGrowChunk = 1024

// clientSyncMax is how far past the checkpoints the pane reads frames
// right away when the cursor gets there first; farther, it says it is
// still reading until the checkpoints catch up.
const clientSyncMax = 2 * clientGrowChunk

// clientCompactH is the pane height below which the regions show only
// their current sub-states.
const clientCompactH = 24

// clientPair is a v0.5 and a v0.4 run fed the same inputs.
type clientPair struct{ v05, v04 *invariants.ClientRun }

func newClientPair() clientPair {
	return clientPair{invariants.NewClientRun(invariants.ProfileV05), invariants.NewClientRun(invariants.ProfileV04)}
}

// fork copies both runs; checkpoints are only ever forked, never stepped.
func (p clientPair) fork() clientPair { return clientPair{p.v05.Fork(), p.v04.Fork()} }

func (p clientPair) transport(ev invariants.TransportEvent) (s05, s04 invariants.Step) {
	return p.v05.TransportShared(ev), p.v04.TransportShared(ev)
}

func (p clientPair) step(f *decode.Frame) (s05, s04 invariants.Step) {
	return p.v05.StepShared(f), p.v04.StepShared(f)
}

// clientFrame decodes frame row i for the machines, the way the store
// decodes a row's frame for every other as-of view.
func clientFrame(st *Store, i int) *decode.Frame { return st.RowFrame(i) }

// httpFailed reports a response status that is not 2xx.
func httpFailed(st *Store) bool {
	return st.HTTPStatus != 0 && (st.HTTPStatus < 200 || st.HTTPStatus > 299)
}

// startClients feeds the transport events that come before any frame: the
// request, then the response's status once it is known (bodyBegan: a 2xx
// response's body began).
func startClients(st *Store, bodyBegan bool) clientPair {
	p := newClientPair()
	p.transport(invariants.TransportEvent{Input: invariants.InConnect})
	switch {
	case httpFailed(st):
		p.transport(invariants.TransportEvent{Input: invariants.InHTTPError, Detail: fmt.Sprintf("HTTP %d", st.HTTPStatus)})
	case bodyBegan:
		p.transport(invariants.TransportEvent{Input: invariants.InFirstByte})
	}
	return p
}

// endEvent is the transport event of how the stream ended.
func endEvent(e *EndInfo) invariants.TransportEvent {
	switch e.Kind {
	case string(invariants.EndError):
		return invariants.TransportEvent{Input: invariants.InTransportError, Detail: e.Detail}
	case string(invariants.EndCancelled):
		return invariants.TransportEvent{Input: invariants.InUserCancel}
	}
	return invariants.TransportEvent{Input: invariants.InEOF}
}

// clientTrack runs both machines over the store's frames once, keeping a
// fork of both runs every clientEvery frames, plus the frames where the
// v0.4 client diverges and those the v0.5 client has no row for.
type clientTrack struct {
	st       *Store // the store the track belongs to (a restart replaces it)
	httpFail bool   // how the runs were started
	cps      []clientPair
	front    clientPair // the runs after frontN frames
	frontN   int
	frontRow int   // the next row to read
	origins  []int // frames where the v0.4 client diverges, ascending
	viols    []int // frames the v0.5 client has no transition for
}

// sync starts the track over when the store or the response status
// changed.
func (t *clientTrack) sync(st *Store) {
	if t.st == st && t.cps != nil && t.httpFail == httpFailed(st) {
		return
	}
	*t = clientTrack{st: st, httpFail: httpFailed(st)}
	t.front = startClients(st, true)
	t.cps = []clientPair{t.front.fork()}
}

// extend reads frames until frontN reaches upto or the store's end.
func (t *clientTrack) extend(upto int) {
	st := t.st
	for t.frontN < upto && t.frontRow < st.Len() {
		i := t.frontRow
		t.frontRow++
		if st.Row(i).Kind != RowFrame {
			continue
		}
		f := clientFrame(st, i)
		s05, s04 := t.front.step(f)
		if s05.Violation {
			t.viols = append(t.viols, t.frontN)
		}
		if _, ok := clientDiverges(f, &s05, &s04); ok {
			t.origins = append(t.origins, t.frontN)
		}
		t.frontN++
		if t.frontN%clientEvery == 0 {
			t.cps = append(t.cps, t.front.fork())
		}
	}
}

// at returns both runs after frames [0, want), replaying from the nearest
// checkpoint; ok is false when the track has not read that far.
func (t *clientTrack) at(want int) (clientPair, bool) {
	if want > t.frontN {
		return clientPair{}, false
	}
	k := want / clientEvery
	p := t.cps[k].fork()
	for n := k * clientEvery; n < want; n++ {
		p.step(clientFrame(t.st, t.st.RowOfFrame(n)))
	}
	return p, true
}

// clientDiverges reports a frame the two clients read differently where
// the difference starts: the profiles' rows for it differ
// (invariants.ClientDivergence) and so did the rows they really took.
func clientDiverges(f *decode.Frame, s05, s04 *invariants.Step) (invariants.Divergence, bool) {
	if !stepsDiffer(s05, s04) {
		return invariants.Divergence{}, false
	}
	return invariants.ClientDivergence(f)
}

func stepsDiffer(a, b *invariants.Step) bool {
	if a.To != b.To || a.Violation != b.Violation {
		return true
	}
	x, y := a.Actions(), b.Actions()
	if len(x) != len(y) {
		return true
	}
	for i := range x {
		if x[i] != y[i] {
			return true
		}
	}
	return false
}

// grow asks for the next chunk of frames to be read into the checkpoints
// (after a batch arrived, and after each chunk until the track caught up).
func (c *Client) grow() tea.Cmd {
	c.tr.sync(c.sh.st)
	if c.growing || c.tr.frontN >= c.sh.st.Frames {
		return nil
	}
	c.growing = true
	return func() tea.Msg { return clientGrowMsg{} }
}

// clientGrowMsg reads one more chunk of frames into the client track.
type clientGrowMsg struct{}

func (c *Client) onGrow() tea.Cmd {
	c.growing = false
	c.tr.sync(c.sh.st)
	c.tr.extend(c.tr.frontN + clientGrowChunk)
	return c.grow()
}

// --- the state as of the cursor -----------------------------------------------

// clientSnap is both machines as of the selected frame.
type clientSnap struct {
	frame    int // -1: before the first frame
	ready    bool
	read     int // frames the track has read (while not ready)
	v05, v04 *invariants.ClientRun
	// The rows taken on the frame, then on the end of the stream.
	hasStep, hasEnd bool
	s05, s04        invariants.Step
	e05, e04        invariants.Step
	// The divergence that starts at this frame, and the ones so far.
	origin               bool
	div                  invariants.Divergence
	firstOrigin, nOrigin int
	lastOrigin           int
	nViol, lastViol      int
}

type clientSnapKey struct {
	st         *Store
	frame      int
	end        bool
	endKind    string
	conn       Conn
	httpStatus int
	frames     int // before frame 0 only: whether the body began
}

// current returns the machines as of the cursor (cached).
func (c *Client) current() *clientSnap {
	st := c.sh.st
	c.tr.sync(st)
	sel := c.sh.sel
	frame := st.AsOfFrame(sel)
	if sel < 0 {
		frame = -1
	}
	k := clientSnapKey{st: st, frame: frame, conn: st.Conn, httpStatus: st.HTTPStatus}
	// The stream's end belongs to the last row.
	if st.End != nil && (sel == st.Len()-1 || st.Len() == 0) {
		k.end, k.endKind = true, st.End.Kind
	}
	if frame < 0 {
		k.frames = st.Frames
	}
	if c.snap != nil && k == c.snapKey && c.snap.ready {
		return c.snap
	}
	c.snapKey = k
	c.snap = c.compute(frame, k.end)
	return c.snap
}

func (c *Client) compute(frame int, withEnd bool) *clientSnap {
	st := c.sh.st
	tr := &c.tr
	s := &clientSnap{frame: frame, lastOrigin: -1, firstOrigin: -1, lastViol: -1}
	var p clientPair
	if frame < 0 {
		// Before any frame: the request and what the store knows of the
		// response so far.
		p = startClients(st, st.Frames > 0 || st.Conn == ConnOpen)
	} else {
		// A little past the checkpoints, read on now; farther, the grow
		// messages get there (without one on its way, read on now too).
		if want := frame + 1; want > tr.frontN && want-tr.frontN <= clientSyncMax || !c.growing {
			tr.extend(want)
		}
		var ok bool
		if p, ok = tr.at(frame + 1); !ok {
			s.read = tr.frontN
			return s
		}
		s.hasStep = true
		s.s05, s.s04 = p.v05.Last(), p.v04.Last()
		if k := sort.SearchInts(tr.origins, frame+1); k > 0 {
			s.lastOrigin, s.firstOrigin, s.nOrigin = tr.origins[k-1], tr.origins[0], k
			if s.lastOrigin == frame {
				s.origin = true
				s.div, _ = invariants.ClientDivergence(clientFrame(st, st.RowOfFrame(frame)))
			}
		}
		if k := sort.SearchInts(tr.viols, frame+1); k > 0 {
			s.nViol, s.lastViol = k, tr.viols[k-1]
		}
	}
	if withEnd {
		s.hasEnd = true
		s.e05, s.e04 = p.transport(endEvent(st.End))
	}
	s.ready = true
	s.v05, s.v04 = p.v05, p.v04
	return s
}

// --- rendering --------------------------------------------------------------------

type clientLinesKey struct {
	snap *clientSnap
	w    int
	sty  *Styles
}

// render returns every line of the pane (cached; the view scrolls them).
func (c *Client) render() []string {
	s := c.current()
	k := clientLinesKey{s, c.w, c.sh.sty}
	if k == c.linesKey && c.lines != nil {
		return c.lines
	}
	c.linesKey = k
	c.lines = c.build(s)
	return c.lines
}

func (c *Client) build(s *clientSnap) []string {
	sty := c.sh.sty
	w := max(c.w, 1)
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	if !s.ready {
		add(sty.Dim.Render(cut(fmt.Sprintf("reading the stream into the client machines: %d of %d frames…", s.read, c.sh.st.Frames), w)))
		return out
	}
	add(c.headLine(s, w))
	add(c.divergenceLines(s, w)...)
	add(c.diagramLines(s, w)...)
	add("")
	add(c.stepLines(s, w)...)
	add("")
	add(c.viewLines(s, w)...)
	if s.nViol > 0 || s.nOrigin > 0 {
		add("")
		var parts []string
		if s.nViol > 0 {
			parts = append(parts, fmt.Sprintf("v0.5 violations so far: %d (last at frame %d)", s.nViol, s.lastViol))
		}
		if s.nOrigin > 0 {
			parts = append(parts, fmt.Sprintf("v0.4 divergences so far: %d (first at frame %d)", s.nOrigin, s.firstOrigin))
		}
		for _, l := range wrapPlain(strings.Join(parts, " · "), w) {
			add(sty.Dim.Render(l))
		}
	}
	return out
}

// headLine: which input the machines stand after, and both states.
func (c *Client) headLine(s *clientSnap, w int) string {
	sty := c.sh.sty
	var at string
	switch {
	case s.hasStep:
		at = fmt.Sprintf("frame %d %s", s.frame, s.s05.Input)
	default:
		at = "before the first frame"
	}
	if s.hasEnd {
		at += " · then " + string(s.e05.Input)
	}
	line := sty.Bold.Render(at) + "  " + sty.ClientNow.Render("v0.5 "+stateLabel(s.v05))
	if l := stateLabel(s.v04); l != stateLabel(s.v05) {
		line += " " + sty.ClientV04.Render("v0.4 "+l)
	} else {
		line += sty.Dim.Render(" v0.4 same")
	}
	return cut(line, w)
}

// stateLabel is a run's state, with the turn's outcome once the state no
// longer says it (closed after completed or failed look alike).
func stateLabel(r *invariants.ClientRun) string {
	s := string(r.State())
	if o := r.Outcome(); o != invariants.OutcomeNone && string(o) != s {
		s += " (" + string(o) + ")"
	}
	return s
}

// divergenceLines mark the frame where the v0.4 client diverges, or say
// where it did.
func (c *Client) divergenceLines(s *clientSnap, w int) []string {
	sty := c.sh.sty
	if !s.hasStep {
		return nil
	}
	var out []string
	switch {
	case s.origin:
		out = append(out, sty.Diverge.Render(cut("◆ the v0.4 client diverges at this frame", w)))
		for _, l := range wrapPlain(s.div.Message(), w-2) {
			out = append(out, "  "+sty.Base.Render(l))
		}
	case stepsDiffer(&s.s05, &s.s04) && s.lastOrigin >= 0:
		out = append(out, sty.ClientV04.Render(cut(fmt.Sprintf("≠ the v0.4 client reads this frame otherwise (diverged at frame %d)", s.lastOrigin), w)))
	case stepsDiffer(&s.s05, &s.s04):
		out = append(out, sty.ClientV04.Render(cut("≠ the v0.4 client reads this frame otherwise", w)))
	case s.v04.State() != s.v05.State() && s.lastOrigin >= 0:
		out = append(out, sty.ClientV04.Render(cut(fmt.Sprintf("≠ the v0.4 client differs since frame %d", s.lastOrigin), w)))
	}
	return out
}

// diagramLines draw the machine's top-level states along the turn's path,
// then each region's sub-states, the current ones highlighted: [x] the
// v0.5 client, ‹x› the v0.4 client where it stands elsewhere.
func (c *Client) diagramLines(s *clientSnap, w int) []string {
	sty := c.sh.sty
	m := s.v05.Machine()
	mark := func(id, cur05, cur04 invariants.State) string {
		switch {
		case id == cur05:
			return sty.ClientNow.Render("[" + string(id) + "]")
		case id == cur04:
			return sty.ClientV04.Render("‹" + string(id) + "›")
		}
		return sty.Dim.Render(string(id))
	}
	cur05, cur04 := s.v05.State(), s.v04.State()
	// The path: the states in the machine's order, the terminal ones as
	// alternatives; the failure states branch off it.
	var path, fail []string
	var terms []string
	flushTerms := func() {
		if len(terms) > 0 {
			path = append(path, strings.Join(terms, sty.Dim.Render(" | ")))
			terms = nil
		}
	}
	for _, si := range m.States {
		switch si.Kind {
		case invariants.KindTerminal:
			terms = append(terms, mark(si.ID, cur05, cur04))
		case invariants.KindFailure:
			fail = append(fail, mark(si.ID, cur05, cur04))
		default:
			flushTerms()
			path = append(path, mark(si.ID, cur05, cur04))
		}
	}
	flushTerms()
	out := flowLines(path, sty.Dim.Render(" → "), w)
	if len(fail) > 0 {
		out = append(out, flowLines(append([]string{sty.Dim.Render("or")}, fail...), " ", w)...)
	}
	// The streaming regions: every sub-state, or in a short pane only the
	// current ones, all on one flow.
	if c.h < clientCompactH {
		var items []string
		for _, reg := range m.Regions {
			if reg.Key != "" {
				items = append(items, sty.Label.Render(reg.Name+":"))
				items = append(items, c.keyedItems(s, reg.Name)...)
				continue
			}
			sub05, sub04 := s.v05.SubState(reg.Name), s.v04.SubState(reg.Name)
			item := sty.Label.Render(reg.Name+":") + " " + mark(sub05, sub05, sub04)
			if sub04 != sub05 {
				item += " " + mark(sub04, sub05, sub04)
			}
			items = append(items, item)
		}
		return append(out, flowLines(items, " ", w)...)
	}
	for _, reg := range m.Regions {
		label := reg.Name
		if reg.Key != "" {
			label += "[" + reg.Key + "]"
		}
		items := []string{sty.Label.Render(label + ":")}
		if reg.Key == "" {
			sub05, sub04 := s.v05.SubState(reg.Name), s.v04.SubState(reg.Name)
			for _, si := range reg.States {
				items = append(items, mark(si.ID, sub05, sub04))
			}
		} else {
			items = append(items, c.keyedItems(s, reg.Name)...)
		}
		out = append(out, flowLines(items, " ", w)...)
	}
	return out
}

// keyedItems lists a keyed region's keys with the v0.5 client's sub-state
// (the view's order: first seen first); the last few when there are many.
func (c *Client) keyedItems(s *clientSnap, region string) []string {
	sty := c.sh.sty
	v := s.v05.View()
	var keys []string
	switch region {
	case "tools":
		for _, t := range v.Tools {
			keys = append(keys, t.ID)
		}
	case "components":
		for _, cv := range v.Components {
			keys = append(keys, cv.ID)
		}
	}
	if len(keys) == 0 {
		return []string{sty.Dim.Render("none")}
	}
	const most = 4
	var items []string
	if len(keys) > most {
		items = append(items, sty.Dim.Render(fmt.Sprintf("… %d more", len(keys)-most)))
		keys = keys[len(keys)-most:]
	}
	for _, k := range keys {
		sub := s.v05.KeyState(region, k)
		items = append(items, sty.Base.Render(decode.Sanitize(clipRunes(k, 32)))+"="+sty.ClientNow.Render(string(sub)))
	}
	return items
}

// flowLines lays styled items out on lines of at most w cells, separated
// by sep; continuation lines are indented.
func flowLines(items []string, sep string, w int) []string {
	var out []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case ansiWidth(line)+ansiWidth(sep)+ansiWidth(it) <= w:
			line += sep + it
		default:
			out = append(out, cut(line, w))
			line = "  " + it
		}
	}
	if line != "" {
		out = append(out, cut(line, w))
	}
	return out
}

// stepLines explain the row each client took on the frame (and on the end
// of the stream): from → to, input, guard, actions, why and clause; a
// violation shows as such.
func (c *Client) stepLines(s *clientSnap, w int) []string {
	var out []string
	if s.hasStep {
		out = append(out, c.oneStep("v0.5", &s.s05, w, true)...)
		if stepsDiffer(&s.s05, &s.s04) {
			out = append(out, c.oneStep("v0.4", &s.s04, w, false)...)
		}
	}
	if s.hasEnd {
		out = append(out, c.oneStep("v0.5", &s.e05, w, !s.hasStep)...)
		if stepsDiffer(&s.e05, &s.e04) {
			out = append(out, c.oneStep("v0.4", &s.e04, w, false)...)
		}
	}
	if !s.hasStep && !s.hasEnd {
		last := s.v05.Last()
		out = append(out, c.oneStep("v0.5", &last, w, true)...)
	}
	return out
}

func (c *Client) oneStep(who string, st *invariants.Step, w int, full bool) []string {
	sty := c.sh.sty
	whoSty := sty.ClientNow
	if who != "v0.5" {
		whoSty = sty.ClientV04
	}
	head := []string{whoSty.Render(who), sty.Bold.Render("on " + string(st.Input))}
	if t := st.Transition; t != nil && t.Guard != invariants.GuardNone {
		head = append(head, sty.Base.Render("["+string(t.Guard)+"]"))
	}
	path := string(st.From) + " → "
	if st.Via != nil {
		path += string(st.Via.To) + " (" + string(st.Via.Action) + ") → "
	}
	path += string(st.To)
	head = append(head, sty.Base.Render(path))
	if t := st.Transition; t != nil && !st.Violation {
		head = append(head, sty.Bold.Render(string(t.Action)))
	}
	out := flowLines(head, " ", w)
	if st.Violation {
		out = append(out, sty.SevError.Render(cut("  ✖ no transition: the client ignores this input", w)))
		for _, l := range wrapPlain(decode.Sanitize(st.Note), w-4) {
			out = append(out, "    "+sty.SevError.Render(l))
		}
		if len(st.Rules) > 0 {
			out = append(out, sty.Dim.Render(cut("    check: "+strings.Join(st.Rules, ", "), w)))
		}
		return out
	}
	t := st.Transition
	if t == nil {
		return out
	}
	for _, rs := range st.Regions {
		rt := rs.Transition
		l := "  " + rs.Region
		if rs.Key != "" {
			l += "[" + decode.Sanitize(clipRunes(rs.Key, 32)) + "]"
		}
		l += ": " + string(rt.From) + " → " + string(rt.To) + "  " + string(rt.Action)
		out = append(out, sty.Base.Render(cut(l, w)))
	}
	if full {
		for _, l := range wrapPlain("why: "+t.Why, w-2) {
			out = append(out, "  "+sty.Dim.Render(l))
		}
	}
	cl := "clause " + st.Clause()
	if len(st.Rules) > 0 {
		cl += " · check: " + strings.Join(st.Rules, ", ")
	}
	for _, l := range wrapPlain(cl, w-2) {
		out = append(out, "  "+sty.Dim.Render(l))
	}
	return out
}

// viewLines are what each client shows the user (ClientView.AppendText:
// the bubble's text tail, progress, tools, components, cards, outcome);
// the v0.4 client's only when it differs.
func (c *Client) viewLines(s *clientSnap, w int) []string {
	sty := c.sh.sty
	opts := invariants.ViewTextOptions{Indent: "  ", MaxText: max(2*w, 40)}
	v05 := string(s.v05.View().AppendText(nil, opts))
	v04 := string(s.v04.View().AppendText(nil, opts))
	var out []string
	section := func(title string, tsty lipgloss.Style, text string) {
		out = append(out, tsty.Render(cut(title, w)))
		// Wrapped values keep to their column: "  label:     value".
		hang := min(2+12, w/3)
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			ls := wrapPlain(l, w)
			if len(ls) == 0 {
				continue
			}
			out = append(out, sty.Base.Render(ls[0]))
			if len(ls) > 1 {
				rest := strings.TrimLeft(strings.Join(ls[1:], " "), " ")
				for _, cl := range wrapPlain(rest, w-hang) {
					out = append(out, strings.Repeat(" ", hang)+sty.Base.Render(cl))
				}
			}
		}
	}
	section("a v0.5 client shows", sty.ClientNow, v05)
	if v04 != strings.Replace(v05, "v0.5 client", "v0.4 client", 1) {
		section("a v0.4 client shows", sty.ClientV04, v04)
	}
	return out
}

// clipRunes cuts s to n runes ("…" when cut).
func clipRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}
