package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions/library"
	"framescope/sessions/replay"
)

// PickKind is what a picker entry starts.
type PickKind int

const (
	PickNone     PickKind = iota // nothing was chosen (the user quit)
	PickSession                  // Value: a session ID of the library
	PickScenario                 // Value: a built-in scenario name
	PickURL                      // Value: a URL to connect to
	PickPath                     // Value: a capture path (or @ref)
)

var pickHeadings = map[PickKind]string{
	PickSession:  "Recent sessions",
	PickScenario: "Scenarios",
	PickURL:      "Connect",
	PickPath:     "Open",
}

// PickItem is one entry of a picker.
type PickItem struct {
	Kind  PickKind
	Value string // what is run (raw: never rendered)
	Title string // sanitized
	Desc  string // sanitized
}

// pickResult is what a key did to a picker.
type pickResult struct {
	chosen *PickItem
	back   bool // esc on an empty filter
	quit   bool
}

// maxPickInput bounds the filter / URL / path line.
const maxPickInput = 1000

// picker is a list of entries with filter-as-you-type, grouped under a
// heading per kind. With prompt set, what is typed is also offered as a
// URL to connect to or a file to open.
type picker struct {
	sty    *Styles
	keys   *KeyMap
	help   help.Model
	items  []PickItem
	prompt bool
	title  string
	// empty is the line shown under "Recent sessions" when the library
	// has none (the session picker).
	empty  string
	input  string
	shown  []PickItem // the entries the filter lets through, in order
	cur    int
	top    int // first list line shown
	w, h   int
	notice string
}

func newPicker(sty *Styles, keys *KeyMap, items []PickItem, prompt bool) *picker {
	p := &picker{sty: sty, keys: keys, help: help.New(), items: items, prompt: prompt}
	p.help.Styles = sty.Help
	p.refilter()
	return p
}

func (p *picker) SetSize(w, h int) {
	p.w, p.h = w, h
	p.help.SetWidth(w)
}

// Selected returns the entry under the cursor (ok false: none).
func (p *picker) Selected() (PickItem, bool) {
	if p.cur < 0 || p.cur >= len(p.shown) {
		return PickItem{}, false
	}
	return p.shown[p.cur], true
}

func (p *picker) setItems(items []PickItem) {
	p.items = items
	p.refilter()
}

// key applies one key press.
func (p *picker) key(msg tea.KeyPressMsg) pickResult {
	k := p.keys
	p.notice = ""
	switch {
	case key.Matches(msg, k.PickQuit):
		return pickResult{quit: true}
	case key.Matches(msg, k.PickBack):
		if p.input == "" {
			return pickResult{back: true}
		}
		p.input = ""
		p.refilter()
	case key.Matches(msg, k.PickChoose):
		it, ok := p.Selected()
		if !ok {
			p.notice = "nothing matches"
			return pickResult{}
		}
		return pickResult{chosen: &it}
	case key.Matches(msg, k.PickUp):
		p.move(-1)
	case key.Matches(msg, k.PickDown):
		p.move(1)
	case key.Matches(msg, k.PickPageUp):
		p.move(-max(p.listH()-1, 1))
	case key.Matches(msg, k.PickPageDown):
		p.move(max(p.listH()-1, 1))
	case msg.Code == tea.KeyBackspace:
		if p.input != "" {
			_, n := utf8.DecodeLastRuneInString(p.input)
			p.input = p.input[:len(p.input)-n]
			p.refilter()
		}
	case msg.Text != "":
		p.paste(msg.Text)
	}
	return pickResult{}
}

// paste types text into the filter line (one line: breaks become spaces).
func (p *picker) paste(s string) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r", ""), "\n", " ")
	if len(p.input)+len(s) > maxPickInput {
		return
	}
	p.input += s
	p.refilter()
}

func (p *picker) move(d int) {
	p.cur = min(max(p.cur+d, 0), max(len(p.shown)-1, 0))
}

// refilter recomputes the shown entries: those whose text holds every
// word typed (smart case), and what was typed as a URL or a path. The
// cursor goes back to the first entry.
func (p *picker) refilter() {
	p.shown = p.shown[:0]
	in := strings.TrimSpace(p.input)
	typed, ok := p.typedItem(in)
	if ok && typed.Kind == PickURL || ok && looksLikePath(in) {
		p.shown = append(p.shown, typed)
		ok = false
	}
	words := strings.Fields(in)
	for _, it := range p.items {
		if matchesWords(it.Title+" "+it.Desc, words) {
			p.shown = append(p.shown, it)
		}
	}
	if ok && len(p.shown) == 0 {
		p.shown = append(p.shown, typed) // nothing else: perhaps a file here
	}
	p.cur, p.top = 0, 0
}

// typedItem is the entry for what was typed: a URL or a path.
func (p *picker) typedItem(in string) (PickItem, bool) {
	if !p.prompt || in == "" {
		return PickItem{}, false
	}
	if strings.HasPrefix(in, "http://") || strings.HasPrefix(in, "https://") {
		return PickItem{Kind: PickURL, Value: in, Title: decode.Sanitize(in), Desc: "connect (GET)"}, true
	}
	path := in
	if rest, ok := strings.CutPrefix(in, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest) // the shell would have expanded it
		}
	}
	return PickItem{Kind: PickPath, Value: path, Title: decode.Sanitize(in), Desc: "open the capture"}, true
}

// looksLikePath says whether typed text is meant as a file (or a session
// reference) rather than as a filter.
func looksLikePath(s string) bool {
	if strings.ContainsAny(s, `/\`) || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, "@") {
		return true
	}
	switch strings.ToLower(filepath.Ext(s)) {
	case ".jsonl", ".sse", ".har", ".ndjson", ".txt", ".json":
		return true
	}
	return false
}

func matchesWords(s string, words []string) bool {
	for _, w := range words {
		if indexFold(s, w) < 0 {
			return false
		}
	}
	return true
}

// listH is the number of lines the list has: the title, the input line
// and a blank line above it, the help line below.
func (p *picker) listH() int { return max(p.h-4, 1) }

// pickLine is one line of the list: a heading, an entry or the empty
// library's line.
type pickLine struct {
	heading string
	item    int // index in shown (-1: none)
	note    string
}

// lines lays the shown entries out under their headings.
func (p *picker) lines() []pickLine {
	var out []pickLine
	var last PickKind = -1
	sessionsShown := false
	for i, it := range p.shown {
		if it.Kind != last {
			if it.Kind == PickScenario && !sessionsShown && p.input == "" && p.empty != "" {
				out = append(out, pickLine{heading: pickHeadings[PickSession], item: -1},
					pickLine{item: -1, note: p.empty}, pickLine{item: -1})
			}
			if last != -1 {
				out = append(out, pickLine{item: -1})
			}
			out = append(out, pickLine{heading: pickHeadings[it.Kind], item: -1})
			last = it.Kind
		}
		if it.Kind == PickSession {
			sessionsShown = true
		}
		out = append(out, pickLine{item: i})
	}
	return out
}

// View renders the picker in exactly h lines of w cells; only the list
// lines in the window are styled.
func (p *picker) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	sty := p.sty
	out := []string{sty.Bold.Render(p.title)}
	if p.input == "" {
		hint := "type to filter"
		if p.prompt {
			hint = "type to filter, or a URL or a capture path"
		}
		out = append(out, sty.Bold.Render("› ")+sty.Dim.Render(hint))
	} else {
		out = append(out, sty.Bold.Render("› ")+decode.Sanitize(p.input)+sty.Bold.Render("█"))
	}
	out = append(out, "")
	lines := p.lines()
	h := p.listH()
	curLine := 0
	for i, l := range lines {
		if l.item == p.cur {
			curLine = i
		}
	}
	// Keep the cursor in the window (and a heading above the first entry).
	if curLine < p.top {
		p.top = curLine
		if p.top > 0 && lines[p.top-1].heading != "" {
			p.top--
		}
	}
	if curLine >= p.top+h {
		p.top = curLine - h + 1
	}
	p.top = min(p.top, max(len(lines)-h, 0))
	if p.cur == 0 && curLine < h {
		p.top = 0 // the first entry: show what is above it too
	}
	for i := p.top; i < len(lines) && i < p.top+h; i++ {
		out = append(out, p.renderLine(lines[i]))
	}
	if len(lines) == 0 {
		out = append(out, sty.Dim.Render("  nothing matches "+strconv.Quote(decode.Sanitize(p.input))))
	}
	for len(out) < p.h-1 {
		out = append(out, "")
	}
	foot := p.help.ShortHelpView([]key.Binding{p.keys.PickUp, p.keys.PickDown, p.keys.PickChoose, p.keys.PickBack, p.keys.PickQuit})
	if p.notice != "" {
		foot = sty.SevError.Render(p.notice) + "  " + foot
	}
	out = append(out[:p.h-1], foot)
	return block(out, p.w, p.h)
}

func (p *picker) renderLine(l pickLine) string {
	sty := p.sty
	switch {
	case l.heading != "":
		return sty.Label.Render(l.heading)
	case l.item < 0:
		return sty.Dim.Render("  " + l.note)
	}
	it := p.shown[l.item]
	if l.item == p.cur {
		return sty.Selected.Render(fit("▸ "+it.Title+"  "+it.Desc, p.w))
	}
	return cut("  "+sty.Bold.Render(it.Title)+"  "+sty.Dim.Render(it.Desc), p.w)
}

// --- entries --------------------------------------------------------------------

// maxPickSessions is how many of the newest sessions the picker lists.
const maxPickSessions = 100

// sessionItems lists the newest sessions with aligned columns, what tells
// them apart first: ID, the URL or the demo's scenario, the dialect (and
// flavor), alarms E/W/I, the turns' terminals, frames, turns, duration,
// started (the ID already says when, in UTC: the local time goes last). A
// line too wide for the screen loses its tail, so the URL column is held
// to maxPickURL cells (cut in the middle: host and path end both stay).
// Every string is sanitized.
func sessionItems(list []library.SessionMeta) []PickItem {
	if len(list) > maxPickSessions {
		list = list[:maxPickSessions]
	}
	cols := make([][]string, len(list))
	var widths []int
	for i, m := range list {
		known := m.End != library.EndUnfinished && !strings.HasPrefix(m.End, "metadata unreadable")
		frames, turns, alarms, dur := "-", "-", "-", "-"
		if known {
			frames = invariants.Plural(m.Frames, "frame")
			turns = invariants.Plural(len(m.Turns), "turn")
			if len(m.Turns) == 1 {
				turns = "1 turn"
			}
			alarms = fmt.Sprintf("E/W/I %d/%d/%d", m.Counts.Error, m.Counts.Warn, m.Counts.Info)
			if m.Duration > 0 {
				dur = shortDuration(m.Duration)
			}
		}
		started := "-"
		if !m.StartedAt.IsZero() {
			started = m.StartedAt.Local().Format("2006-01-02 15:04:05")
		}
		url := cutMiddle(decode.Sanitize(m.Label()), maxPickURL) // a demo by its scenario, not its loopback URL
		term := cutMiddle(decode.Sanitize(sessionTerminals(m)), maxPickTerminal)
		cols[i] = []string{url, decode.Sanitize(sessionDialect(m)), alarms, term, frames, turns, dur, started}
		for c, s := range cols[i] {
			if c >= len(widths) {
				widths = append(widths, 0)
			}
			widths[c] = max(widths[c], ansiWidth(s))
		}
	}
	items := make([]PickItem, len(list))
	idW := 0
	for _, m := range list {
		idW = max(idW, ansiWidth(decode.Sanitize(m.ID)))
	}
	for i, m := range list {
		var b strings.Builder
		for c, s := range cols[i] {
			if c > 0 {
				b.WriteString("  ")
			}
			switch {
			case c == len(cols[i])-1:
				b.WriteString(s)
			case c == 4 || c == 5 || c == 6:
				b.WriteString(padLeft(s, widths[c]))
			default:
				b.WriteString(s + strings.Repeat(" ", widths[c]-ansiWidth(s)))
			}
		}
		id := decode.Sanitize(m.ID)
		items[i] = PickItem{Kind: PickSession, Value: m.ID, Title: id + strings.Repeat(" ", idW-ansiWidth(id)), Desc: b.String()}
	}
	return items
}

// maxPickURL and maxPickTerminal are the widest the session picker's URL
// and terminal columns grow (cells).
const (
	maxPickURL      = 40
	maxPickTerminal = 24
)

// sessionDialect is the session's dialect and flavor ("openai-chat
// (openrouter)"); older sessions recorded none and were of the default
// dialect (the one a stream is read as before its dialect is known).
func sessionDialect(m library.SessionMeta) string {
	d := m.Dialect
	if d == "" {
		d = dialects.Default().Name()
	}
	if m.Flavor != "" {
		d += " (" + m.Flavor + ")"
	}
	return d
}

// cutMiddle fits s to w cells by dropping its middle: a URL keeps its
// host and the end of its path.
func cutMiddle(s string, w int) string {
	sw := ansiWidth(s)
	if sw <= w || w < 5 {
		return s
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, sw-tail, "")
}

// sessionTerminals is the turns' terminals ("completed", "error",
// "completed×2"), and how the stream ended unless at EOF.
func sessionTerminals(m library.SessionMeta) string {
	if m.End == library.EndUnfinished {
		return "(unfinished)"
	}
	var parts []string
	for i := 0; i < len(m.Turns); {
		name := func(t *string) string {
			if t == nil || *t == "" {
				return "none"
			}
			return *t
		}
		j := i + 1
		for j < len(m.Turns) && name(m.Turns[j].Terminal) == name(m.Turns[i].Terminal) {
			j++
		}
		s := name(m.Turns[i].Terminal)
		if j-i > 1 {
			s += "×" + strconv.Itoa(j-i)
		}
		parts = append(parts, s)
		i = j
	}
	if len(parts) > 3 {
		parts = append(parts[:3], "…")
	}
	s := strings.Join(parts, ",")
	if m.End != "" && m.End != "eof" {
		end := m.End
		if r := []rune(end); len(r) > 30 {
			end = string(r[:29]) + "…"
		}
		s = strings.TrimSpace(s + " (" + end + ")")
	}
	if s == "" {
		return "-"
	}
	return s
}

// scenarioItems lists scenarios, their names padded to one width.
func scenarioItems(scs []replay.Scenario) []PickItem {
	w := 0
	for _, sc := range scs {
		w = max(w, ansiWidth(decode.Sanitize(sc.Name)))
	}
	items := make([]PickItem, len(scs))
	for i, sc := range scs {
		name := decode.Sanitize(sc.Name)
		items[i] = PickItem{Kind: PickScenario, Value: sc.Name, Title: name + strings.Repeat(" ", w-ansiWidth(name)),
			Desc: decode.Sanitize(sc.Summary)}
	}
	return items
}

// --- the session picker program ----------------------------------------------------

// SessionPicker is the program `framescope` runs with no argument: recent
// sessions, the built-in scenarios and a line for a URL or a path.
type SessionPicker struct {
	p         *picker
	sty       *Styles
	keys      KeyMap
	lib       *library.Library
	w, h      int
	loaded    bool
	choice    PickItem
	checking  bool // a path is being checked
	darkKnown bool
	noColor   bool
	// checkPath says whether a path can be opened (tests replace it).
	checkPath func(string) error
}

// libraryMsg carries the library's sessions (read off the update loop).
type libraryMsg struct {
	list []library.SessionMeta
	err  error
}

// pathCheckedMsg says whether a typed path can be opened.
type pathCheckedMsg struct {
	item PickItem
	err  error
}

const emptyLibrary = "no saved sessions yet: `framescope demo` or `framescope connect URL` saves one"

// NewSessionPicker returns the picker over a library (nil: none).
func NewSessionPicker(lib *library.Library, cfg Config) *SessionPicker {
	dark := true
	if cfg.Dark != nil {
		dark = *cfg.Dark
	}
	s := &SessionPicker{sty: NewStyles(dark, cfg.NoColor), keys: DefaultKeyMap(), lib: lib,
		darkKnown: cfg.Dark != nil, noColor: cfg.NoColor, checkPath: canOpen}
	s.p = newPicker(s.sty, &s.keys, scenarioItems(replay.Scenarios()), true)
	s.p.title = "framescope: open a recent session, run a scenario, or type a URL or a capture path"
	s.p.empty = "loading…"
	return s
}

// Choice is what the user chose (Kind PickNone: nothing, they quit).
func (s *SessionPicker) Choice() PickItem { return s.choice }

// canOpen checks a capture path (or a session reference) exists.
func canOpen(path string) error {
	if strings.HasPrefix(path, "@") {
		_, err := library.ResolveRef(path)
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	return nil
}

func (s *SessionPicker) Init() tea.Cmd {
	lib := s.lib
	load := func() tea.Msg {
		if lib == nil {
			return libraryMsg{}
		}
		list, err := lib.List()
		return libraryMsg{list: list, err: err}
	}
	if s.darkKnown {
		return load
	}
	return tea.Batch(load, tea.RequestBackgroundColor)
}

func (s *SessionPicker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.w, s.h = msg.Width, msg.Height
		s.p.SetSize(s.w, s.h)
	case tea.BackgroundColorMsg:
		if !s.darkKnown {
			s.darkKnown = true
			s.sty = NewStyles(msg.IsDark(), s.noColor)
			s.p.sty = s.sty
			s.p.help.Styles = s.sty.Help
		}
	case libraryMsg:
		s.loaded = true
		s.p.empty = emptyLibrary
		if msg.err != nil {
			s.p.empty = "session library: " + decode.Sanitize(msg.err.Error())
		}
		s.p.setItems(append(sessionItems(msg.list), s.p.items...))
	case pathCheckedMsg:
		s.checking = false
		if msg.err != nil {
			s.p.notice = decode.Sanitize(msg.err.Error())
			return s, nil
		}
		s.choice = msg.item
		return s, tea.Quit
	case tea.PasteMsg:
		s.p.paste(msg.Content)
	case tea.KeyPressMsg:
		if s.checking {
			return s, nil
		}
		res := s.p.key(msg)
		switch {
		case res.quit, res.back:
			return s, tea.Quit
		case res.chosen != nil && res.chosen.Kind == PickPath:
			s.checking = true
			it, check := *res.chosen, s.checkPath
			return s, func() tea.Msg { return pathCheckedMsg{item: it, err: check(it.Value)} }
		case res.chosen != nil:
			s.choice = *res.chosen
			return s, tea.Quit
		}
	}
	return s, nil
}

// Render returns the screen as a string.
func (s *SessionPicker) Render() string { return s.p.View() }

func (s *SessionPicker) View() tea.View {
	v := tea.NewView(s.Render())
	v.AltScreen = true
	v.WindowTitle = "framescope"
	return v
}

// Pick runs the session picker and returns the choice (Kind PickNone when
// the user quit).
func Pick(lib *library.Library, o RunOptions) (PickItem, error) {
	o.defaults()
	s := NewSessionPicker(lib, o.Config)
	_, err := tea.NewProgram(s, o.ProgramOptions...).Run()
	return s.Choice(), err
}
