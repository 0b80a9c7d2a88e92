package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/pc3"
	"framescope/ui/store"
)

// clientCompactH is the pane height below which the regions show only
// their current sub-states.
const clientCompactH = 24

// Client shows the reference client state machine as of the selected
// frame: where a correct v0.5 client stands in its diagram, the row it just
// took and why, what it shows the user, and where the deployed v0.4 client,
// fed the same frames, reads them otherwise. Everything about the machine
// (states, regions, rows, clauses) comes from invariants; the pane only
// lays it out.
type Client struct {
	scrollPane

	// The machines as of the cursor, and their rendering, cached.
	snapKey  clientSnapKey
	snap     *clientSnap
	linesKey clientLinesKey
	lines    []string
	movesKey movesClientKey // the view of a dialect other than PC3 (client_moves.go)
}

func newClient(sh *shared) *Client { return &Client{scrollPane: scrollPane{sh: sh}} }

func (c *Client) Update(msg tea.Msg) (Pane, tea.Cmd) {
	c.sc.update(msg, c.sh.keys)
	return c, nil
}

func (c *Client) Title() string {
	if c.sh.st.Generic() {
		return c.movesTitle()
	}
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
	if c.sh.st.Generic() {
		return c.sc.view(c.movesLines(), c.w, c.h)
	}
	return c.sc.view(c.render(), c.w, c.h)
}

// --- the state as of the cursor -----------------------------------------------

// clientSnap is both machines as of the selected frame.
type clientSnap struct {
	frame    int // -1: before the first frame
	ready    bool
	read     int // frames the track has read (while not ready)
	v05, v04 *pc3.ClientRun
	// The rows taken on the frame, then on the end of the stream.
	hasStep, hasEnd bool
	s05, s04        pc3.Step
	e05, e04        pc3.Step
	// The divergence that starts at this frame, and the ones so far.
	origin               bool
	div                  pc3.Divergence
	firstOrigin, nOrigin int
	lastOrigin           int
	nViol, lastViol      int
}

type clientSnapKey struct {
	st         *store.Store
	frame      int
	end        bool
	endKind    string
	conn       store.Conn
	httpStatus int
	frames     int // before frame 0 only: whether the body began
	// indexed is how far the machines' index reaches up to this frame: the
	// divergence and violation marks come from it.
	indexed int
}

// current returns the machines as of the cursor (cached).
func (c *Client) current() *clientSnap {
	st := c.sh.st
	sel := c.sh.sel
	frame := st.AsOfFrame(sel)
	if sel < 0 {
		frame = -1
	}
	k := clientSnapKey{st: st, frame: frame, conn: st.Conn, httpStatus: st.HTTPStatus,
		indexed: min(st.ClientRead(), frame+1)}
	// The stream's end belongs to the last row.
	if st.End != nil && (sel == st.Len()-1 || st.Len() == 0) {
		k.end, k.endKind = true, string(st.End.Kind)
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
	s := &clientSnap{frame: frame, lastOrigin: -1, firstOrigin: -1, lastViol: -1}
	var p store.ClientPair
	if frame < 0 {
		// Before any frame: the request and what the store knows of the
		// response so far.
		p = store.StartClientPair(st.HTTPStatus, st.Frames > 0 || st.Conn == store.ConnOpen)
	} else {
		var ok bool
		if p, ok = st.ClientAt(frame + 1); !ok {
			s.read = st.ClientRead()
			return s
		}
		s.hasStep = true
		s.s05, s.s04 = p.V05.Last(), p.V04.Last()
		if o := st.ClientOrigins(frame); len(o) > 0 {
			s.lastOrigin, s.firstOrigin, s.nOrigin = o[len(o)-1], o[0], len(o)
			if s.lastOrigin == frame {
				s.origin = true
				s.div, _ = pc3.ClientDivergence(st.RowFrame(st.RowOfFrame(frame)))
			}
		}
		if v := st.ClientViolations(frame); len(v) > 0 {
			s.nViol, s.lastViol = len(v), v[len(v)-1]
		}
	}
	if withEnd {
		s.hasEnd = true
		s.e05, s.e04 = p.Transport(pc3.EndEvent(*st.End))
	}
	s.ready = true
	s.v05, s.v04 = p.V05, p.V04
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
	c.movesKey = movesClientKey{}
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
		add(sty.Dim.Render(cut(fmt.Sprintf("reading the stream into the client machines: %d of %s…", s.read, invariants.Plural(c.sh.st.Frames, "frame")), w)))
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
func stateLabel(r *pc3.ClientRun) string {
	s := string(r.State())
	if o := r.Outcome(); o != pc3.OutcomeNone && string(o) != s {
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
	case store.StepsDiffer(&s.s05, &s.s04) && s.lastOrigin >= 0:
		out = append(out, sty.ClientV04.Render(cut(fmt.Sprintf("≠ the v0.4 client reads this frame otherwise (diverged at frame %d)", s.lastOrigin), w)))
	case store.StepsDiffer(&s.s05, &s.s04):
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
	mark := func(id, cur05, cur04 pc3.State) string {
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
		case pc3.KindTerminal:
			terms = append(terms, mark(si.ID, cur05, cur04))
		case pc3.KindFailure:
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
		if store.StepsDiffer(&s.s05, &s.s04) {
			out = append(out, c.oneStep("v0.4", &s.s04, w, false)...)
		}
	}
	if s.hasEnd {
		out = append(out, c.oneStep("v0.5", &s.e05, w, !s.hasStep)...)
		if store.StepsDiffer(&s.e05, &s.e04) {
			out = append(out, c.oneStep("v0.4", &s.e04, w, false)...)
		}
	}
	if !s.hasStep && !s.hasEnd {
		last := s.v05.Last()
		out = append(out, c.oneStep("v0.5", &last, w, true)...)
	}
	return out
}

func (c *Client) oneStep(who string, st *pc3.Step, w int, full bool) []string {
	sty := c.sh.sty
	whoSty := sty.ClientNow
	if who != "v0.5" {
		whoSty = sty.ClientV04
	}
	head := []string{whoSty.Render(who), sty.Bold.Render("on " + string(st.Input))}
	if t := st.Transition; t != nil && t.Guard != pc3.GuardNone {
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
	opts := pc3.ViewTextOptions{Indent: "  ", MaxText: max(2*w, 40)}
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
