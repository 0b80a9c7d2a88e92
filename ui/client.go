package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/machine"
	"framescope/ui/store"
)

// clientCompactH is the pane height below which the regions show only
// their current sub-states.
const clientCompactH = 24

// Client shows the reference client state machine as of the selected
// frame, for a dialect that ships one (store.Machine): where a correct
// client of the reference profile stands in its diagram, the row it just
// took and why, what it shows the user, and where the deployed profile's
// client, fed the same frames, reads them otherwise. Everything about the
// machine (profiles, states, regions, rows, clauses) comes from its
// machine.Run; the pane only lays it out. A dialect without a machine gets
// what any client of the stream shows (client_moves.go).
type Client struct {
	scrollPane

	// The machines as of the cursor, and their rendering, cached.
	snapKey  clientSnapKey
	snap     *clientSnap
	linesKey clientLinesKey
	lines    []string
	movesKey movesClientKey // the view of a dialect without a machine (client_moves.go)
}

func newClient(sh *shared) *Client { return &Client{scrollPane: scrollPane{sh: sh}} }

func (c *Client) Update(msg tea.Msg) (Pane, tea.Cmd) {
	c.sc.update(msg, c.sh.keys)
	return c, nil
}

func (c *Client) Title() string {
	m := c.sh.st.Machine()
	if m == nil {
		return c.movesTitle()
	}
	ref, dep := profiles(m)
	s := c.current()
	if s == nil {
		return "Client " + ref
	}
	if !s.ready {
		return "Client " + ref + " · reading…"
	}
	t := "Client " + ref + " · " + stateLabel(s.ref)
	if l := stateLabel(s.dep); l != stateLabel(s.ref) {
		t += " · " + dep + " " + l
	}
	if s.origin {
		t += " ◆"
	}
	return t
}

func (c *Client) View() string {
	if c.sh.st.Machine() == nil {
		return c.sc.view(c.movesLines(), c.w, c.h)
	}
	return c.sc.view(c.render(), c.w, c.h)
}

// profiles names the machine's reference profile and the deployed one.
func profiles(m machine.Machine) (ref, dep string) {
	ps := m.Profiles()
	return string(ps[0]), string(ps[1])
}

// --- the state as of the cursor -----------------------------------------------

// clientSnap is both machines as of the selected frame: the reference
// profile's run and the deployed one's.
type clientSnap struct {
	frame    int // -1: before the first frame
	ready    bool
	read     int // frames the track has read (while not ready)
	ref, dep machine.Run
	// refName, depName are their profiles.
	refName, depName string
	// The rows taken on the frame, then on the end of the stream.
	hasStep, hasEnd bool
	sRef, sDep      machine.Step
	eRef, eDep      machine.Step
	// The divergence that starts at this frame, and the ones so far.
	origin               bool
	div                  string
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
	m := st.Machine()
	s := &clientSnap{frame: frame, lastOrigin: -1, firstOrigin: -1, lastViol: -1}
	s.refName, s.depName = profiles(m)
	var p store.ClientPair
	if frame < 0 {
		// Before any frame: the request and what the store knows of the
		// response so far.
		p = store.StartClientPair(m, st.HTTPStatus, st.Frames > 0 || st.Conn == store.ConnOpen)
	} else {
		var ok bool
		if p, ok = st.ClientAt(frame + 1); !ok {
			s.read = st.ClientRead()
			return s
		}
		s.hasStep = true
		s.sRef, s.sDep = p.Ref.Last(), p.Dep.Last()
		if o := st.ClientOrigins(frame); len(o) > 0 {
			s.lastOrigin, s.firstOrigin, s.nOrigin = o[len(o)-1], o[0], len(o)
			if s.lastOrigin == frame {
				s.origin = true
				s.div, _ = m.Diverges(st.RowFrame(st.RowOfFrame(frame)))
			}
		}
		if v := st.ClientViolations(frame); len(v) > 0 {
			s.nViol, s.lastViol = len(v), v[len(v)-1]
		}
	}
	if withEnd {
		s.hasEnd = true
		s.eRef, s.eDep = p.Transport(machine.EndEvent(*st.End))
	}
	s.ready = true
	s.ref, s.dep = p.Ref, p.Dep
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
			parts = append(parts, fmt.Sprintf("%s violations so far: %d (last at frame %d)", s.refName, s.nViol, s.lastViol))
		}
		if s.nOrigin > 0 {
			parts = append(parts, fmt.Sprintf("%s divergences so far: %d (first at frame %d)", s.depName, s.nOrigin, s.firstOrigin))
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
		at = fmt.Sprintf("frame %d %s", s.frame, s.sRef.Input)
	default:
		at = "before the first frame"
	}
	if s.hasEnd {
		at += " · then " + string(s.eRef.Input)
	}
	line := sty.Bold.Render(at) + "  " + sty.ClientNow.Render(s.refName+" "+stateLabel(s.ref))
	if l := stateLabel(s.dep); l != stateLabel(s.ref) {
		line += " " + sty.ClientV04.Render(s.depName+" "+l)
	} else {
		line += sty.Dim.Render(" " + s.depName + " same")
	}
	return cut(line, w)
}

// stateLabel is a run's state, with the turn's outcome once the state no
// longer says it (closed after completed or failed look alike).
func stateLabel(r machine.Run) string {
	s := string(r.State())
	if o := r.Outcome(); o != machine.OutcomeNone && string(o) != s {
		s += " (" + string(o) + ")"
	}
	return s
}

// divergenceLines mark the frame where the deployed client diverges, or
// say where it did.
func (c *Client) divergenceLines(s *clientSnap, w int) []string {
	sty := c.sh.sty
	if !s.hasStep {
		return nil
	}
	var out []string
	switch {
	case s.origin:
		out = append(out, sty.Diverge.Render(cut("◆ the "+s.depName+" client diverges at this frame", w)))
		for _, l := range wrapPlain(s.div, w-2) {
			out = append(out, "  "+sty.Base.Render(l))
		}
	case machine.StepsDiffer(&s.sRef, &s.sDep) && s.lastOrigin >= 0:
		out = append(out, sty.ClientV04.Render(cut(fmt.Sprintf("≠ the %s client reads this frame otherwise (diverged at frame %d)", s.depName, s.lastOrigin), w)))
	case machine.StepsDiffer(&s.sRef, &s.sDep):
		out = append(out, sty.ClientV04.Render(cut("≠ the "+s.depName+" client reads this frame otherwise", w)))
	case s.dep.State() != s.ref.State() && s.lastOrigin >= 0:
		out = append(out, sty.ClientV04.Render(cut(fmt.Sprintf("≠ the %s client differs since frame %d", s.depName, s.lastOrigin), w)))
	}
	return out
}

// diagramLines draw the machine's top-level states along the turn's path,
// then each region's sub-states, the current ones highlighted: [x] the
// reference client, ‹x› the deployed client where it stands elsewhere.
func (c *Client) diagramLines(s *clientSnap, w int) []string {
	sty := c.sh.sty
	m := s.ref.Chart()
	mark := func(id, curRef, curDep machine.State) string {
		switch {
		case id == curRef:
			return sty.ClientNow.Render("[" + string(id) + "]")
		case id == curDep:
			return sty.ClientV04.Render("‹" + string(id) + "›")
		}
		return sty.Dim.Render(string(id))
	}
	curRef, curDep := s.ref.State(), s.dep.State()
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
		case machine.KindTerminal:
			terms = append(terms, mark(si.ID, curRef, curDep))
		case machine.KindFailure:
			fail = append(fail, mark(si.ID, curRef, curDep))
		default:
			flushTerms()
			path = append(path, mark(si.ID, curRef, curDep))
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
			subRef, subDep := s.ref.SubState(reg.Name), s.dep.SubState(reg.Name)
			item := sty.Label.Render(reg.Name+":") + " " + mark(subRef, subRef, subDep)
			if subDep != subRef {
				item += " " + mark(subDep, subRef, subDep)
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
			subRef, subDep := s.ref.SubState(reg.Name), s.dep.SubState(reg.Name)
			for _, si := range reg.States {
				items = append(items, mark(si.ID, subRef, subDep))
			}
		} else {
			items = append(items, c.keyedItems(s, reg.Name)...)
		}
		out = append(out, flowLines(items, " ", w)...)
	}
	return out
}

// keyedItems lists a keyed region's keys with the reference client's
// sub-state (the view's order: first seen first); the last few when there
// are many.
func (c *Client) keyedItems(s *clientSnap, region string) []string {
	sty := c.sh.sty
	keys := s.ref.Keys(region)
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
		sub := s.ref.KeyState(region, k)
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
		out = append(out, c.oneStep(s.refName, true, &s.sRef, w, true)...)
		if machine.StepsDiffer(&s.sRef, &s.sDep) {
			out = append(out, c.oneStep(s.depName, false, &s.sDep, w, false)...)
		}
	}
	if s.hasEnd {
		out = append(out, c.oneStep(s.refName, true, &s.eRef, w, !s.hasStep)...)
		if machine.StepsDiffer(&s.eRef, &s.eDep) {
			out = append(out, c.oneStep(s.depName, false, &s.eDep, w, false)...)
		}
	}
	if !s.hasStep && !s.hasEnd {
		last := s.ref.Last()
		out = append(out, c.oneStep(s.refName, true, &last, w, true)...)
	}
	return out
}

// oneStep explains one profile's step (ref: the reference profile's).
func (c *Client) oneStep(who string, ref bool, st *machine.Step, w int, full bool) []string {
	sty := c.sh.sty
	whoSty := sty.ClientNow
	if !ref {
		whoSty = sty.ClientV04
	}
	head := []string{whoSty.Render(who), sty.Bold.Render("on " + string(st.Input))}
	if t := st.Transition; t != nil && t.Guard != machine.GuardNone {
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

// viewLines are what each client shows the user (machine.Run.AppendView:
// the bubble's text tail, progress, tools, components, cards, outcome);
// the deployed client's only when it differs.
func (c *Client) viewLines(s *clientSnap, w int) []string {
	sty := c.sh.sty
	opts := machine.ViewTextOptions{Indent: "  ", MaxText: max(2*w, 40)}
	vRef := string(s.ref.AppendView(nil, opts))
	vDep := string(s.dep.AppendView(nil, opts))
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
	section("a "+s.refName+" client shows", sty.ClientNow, vRef)
	if vDep != strings.Replace(vRef, s.refName+" client", s.depName+" client", 1) {
		section("a "+s.depName+" client shows", sty.ClientV04, vDep)
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
