package ui

import (
	"fmt"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/pipeline"
	"framescope/ui/store"
)

// DetailTab is a view of the selected frame.
type DetailTab int

const (
	TabJSON DetailTab = iota
	TabRaw
	TabAlarms
	TabHTTP // the session's HTTP exchange: request, status, headers, error body
	numTabs
)

// Detail shows the selected row: pretty JSON (huge arrays folded), the raw
// SSE bytes with every control visible, and the frame's alarms with the
// rule's explanation and clause.
type Detail struct {
	sh      *shared
	w, h    int
	focused bool
	tab     DetailTab
	scroll  int
	expand  bool

	// The rendered body, cached by what it depends on.
	key   detailKey
	body  []jline
	lastR int // the row the scroll position belongs to

	// The selected frame decoded again (SSE fields, problem detail).
	frameRow int
	frame    *decode.Frame

	// A body being rendered off the update loop (nil: none).
	job *renderJob
}

type detailKey struct {
	row, nAlarms int
	tab          DetailTab
	w            int
	expand       bool
	sty          *Styles
	resp         *store.HTTPResponse // the HTTP tab's exchange (its error body arrives late)
}

func newDetail(sh *shared) *Detail {
	return &Detail{sh: sh, lastR: -1, key: detailKey{row: -2}, frameRow: -1}
}

// decoded returns the selected frame row decoded again (nil for other rows).
func (d *Detail) decoded(r *store.Row) *decode.Frame {
	if r == nil || r.Kind != store.RowFrame {
		return nil
	}
	if d.frameRow != d.sh.sel || d.frame == nil {
		d.frameRow, d.frame = d.sh.sel, d.sh.st.RowFrame(d.sh.sel)
	}
	return d.frame
}

func (d *Detail) SetSize(w, h int) { d.w, d.h = w, h }
func (d *Detail) Focus()           { d.focused = true }
func (d *Detail) Blur()            { d.focused = false }

func (d *Detail) Title() string {
	if r := d.row(); r != nil && r.Kind == store.RowFrame {
		return fmt.Sprintf("Detail · frame %d", r.Frame)
	}
	return "Detail"
}

func (d *Detail) Keys() help.KeyMap {
	k := d.sh.keys
	return bindingHelp{
		short: []key.Binding{k.NextTab, k.Back, k.Expand, k.Up, k.Down},
		full:  [][]key.Binding{{k.NextTab, k.PrevTab, k.Back, k.Expand, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}},
	}
}

// SetTab selects a tab.
func (d *Detail) SetTab(t DetailTab) { d.tab = (t + numTabs) % numTabs; d.scroll = 0 }

// stepTab moves to the next (1) or previous (-1) tab, past the HTTP tab
// when the source has no HTTP exchange.
func (d *Detail) stepTab(dir int) {
	d.SetTab(d.tab + DetailTab(dir))
	if d.tab == TabHTTP && d.sh.st.Response == nil {
		d.SetTab(d.tab + DetailTab(dir))
	}
}

// tabName is the selected tab's label.
func (d *Detail) tabName() string {
	return [numTabs]string{"JSON", "Raw", "Alarms", "HTTP"}[d.tab]
}

func (d *Detail) row() *store.Row {
	if d.sh.sel < 0 || d.sh.sel >= d.sh.st.Len() {
		return nil
	}
	return d.sh.st.Row(d.sh.sel)
}

func (d *Detail) bodyHeight() int { return max(d.h-2, 0) }

func (d *Detail) Update(msg tea.Msg) (Pane, tea.Cmd) {
	k := d.sh.keys
	d.syncRow()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.NextTab):
			d.stepTab(1)
		case key.Matches(msg, k.PrevTab):
			d.stepTab(-1)
		case key.Matches(msg, k.Expand):
			d.expand = !d.expand
		case key.Matches(msg, k.Up):
			d.scrollBy(-1)
		case key.Matches(msg, k.Down):
			d.scrollBy(1)
		case key.Matches(msg, k.PageUp):
			d.scrollBy(-max(d.bodyHeight()-1, 1))
		case key.Matches(msg, k.PageDown):
			d.scrollBy(max(d.bodyHeight()-1, 1))
		case key.Matches(msg, k.Top):
			d.scroll = 0
		case key.Matches(msg, k.Bottom):
			d.scroll = 1 << 30
			d.scrollBy(0)
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			d.scrollBy(-3)
		case tea.MouseWheelDown:
			d.scrollBy(3)
		}
	}
	return d, nil
}

// syncRow resets the scroll position when the selection moved.
func (d *Detail) syncRow() {
	if d.sh.sel != d.lastR {
		d.lastR = d.sh.sel
		d.scroll = 0
		d.expand = false
	}
}

func (d *Detail) scrollBy(n int) {
	body := d.render()
	d.scroll = min(d.scroll+n, len(body)-d.bodyHeight())
	d.scroll = max(d.scroll, 0)
}

// render returns the body lines (wrapped to the pane width), cached. While
// a render of the same body runs off the update loop (prepare), it is a
// placeholder; otherwise the body is rendered here.
func (d *Detail) render() []jline {
	k := d.currentKey()
	if k == d.key && d.body != nil {
		return d.body
	}
	if d.job != nil && d.job.key == k {
		return d.placeholder()
	}
	work, _ := d.work()
	d.key, d.body = k, work(nil)
	return d.body
}

func (d *Detail) currentKey() detailKey {
	k := detailKey{row: d.sh.sel, tab: d.tab, w: d.w, expand: d.expand, sty: d.sh.sty}
	if d.tab == TabHTTP {
		k.resp = d.sh.st.Response
	}
	if r := d.row(); r != nil {
		k.nAlarms = len(r.Alarms)
	}
	return k
}

// asyncRender is the frame size from which the body is rendered off the
// update loop: below it a render is bounded well under a screen refresh;
// above it (a 20 KB array nested 10,000 deep renders 20,000 lines) the
// keys must not wait for it — q quits at once.
const asyncRender = 16 << 10

// renderJob is a body being rendered off the update loop.
type renderJob struct {
	key  detailKey
	size int64
	stop atomic.Bool // the selection moved on: give up
}

// detailRenderedMsg delivers a body rendered off the update loop.
type detailRenderedMsg struct {
	job  *renderJob
	body []jline
}

// prepare starts rendering the body of what is selected now off the update
// loop when the frame is big (the root model calls it after every
// update); the command delivers it. An earlier job is abandoned.
func (d *Detail) prepare() tea.Cmd {
	d.syncRow()
	k := d.currentKey()
	if k == d.key && d.body != nil || d.job != nil && d.job.key == k {
		return nil
	}
	if d.job != nil {
		d.job.stop.Store(true)
		d.job = nil
	}
	r := d.row()
	if r == nil || r.Size < asyncRender || d.tab != TabJSON && d.tab != TabRaw {
		return nil
	}
	work, _ := d.work()
	job := &renderJob{key: k, size: r.Size}
	d.job = job
	return func() tea.Msg {
		return detailRenderedMsg{job: job, body: work(job.stop.Load)}
	}
}

// rendered takes a body rendered off the update loop, unless the selection
// has moved on since.
func (d *Detail) rendered(msg detailRenderedMsg) {
	if msg.job != d.job || msg.body == nil {
		return
	}
	d.job = nil
	d.key, d.body = msg.job.key, msg.body
}

func (d *Detail) placeholder() []jline {
	s := fmt.Sprintf("rendering %s… (q quits, the keys work meanwhile)", fmtBytes(d.job.size))
	return []jline{{s, d.sh.sty.Dim.Render(s)}}
}

// work returns the renderer of the body for what is selected now. What it
// needs from the store is read here, on the update loop (the store is not
// safe for concurrent use); the returned function only builds text, so it
// may run elsewhere. It returns nil when stop reports true.
func (d *Detail) work() (func(stop func() bool) []jline, bool) {
	r := d.row()
	var build func(stop func() bool) []jline
	if r != nil {
		switch d.tab {
		case TabJSON:
			build = d.jsonWork(r)
		case TabRaw:
			build = d.rawWork(r)
		case TabAlarms:
			lines := d.alarmLines(r)
			build = func(func() bool) []jline { return lines }
		}
	}
	if d.tab == TabHTTP {
		lines := httpLines(d.sh.st.Response, d.sh.sty)
		build = func(func() bool) []jline { return lines }
	}
	w, hard := d.w, d.tab == TabRaw
	return func(stop func() bool) []jline {
		var lines []jline
		if build != nil {
			lines = build(stop)
			if stop != nil && stop() {
				return nil
			}
		}
		return wrapLines(lines, w, hard)
	}, r != nil && r.Size >= asyncRender
}

// wrapLines wraps every line to width w: at word boundaries, or exactly
// at the width (hard: raw bytes, where every byte counts).
func wrapLines(lines []jline, w int, hard bool) []jline {
	if w <= 0 {
		return nil
	}
	out := make([]jline, 0, len(lines))
	for _, l := range lines {
		if len(l.plain) <= w || ansiWidth(l.plain) <= w {
			out = append(out, l)
			continue
		}
		var ps, ss []string
		if hard {
			ps = strings.Split(ansi.Hardwrap(l.plain, w, true), "\n")
			ss = strings.Split(ansi.Hardwrap(l.styled, w, true), "\n")
		} else {
			ps = wrapPlain(l.plain, w)
			ss = strings.Split(wordwrap(l.styled, w), "\n")
		}
		for i, p := range ps {
			s := p
			if i < len(ss) {
				s = ss[i]
			}
			out = append(out, jline{p, s})
		}
	}
	return out
}

// jsonWork reads what the JSON tab shows of row r and returns its renderer
// (see work).
func (d *Detail) jsonWork(r *store.Row) func(stop func() bool) []jline {
	sty, expand := d.sh.sty, d.expand
	plain := func(s string) jline { return jline{s, sty.Base.Render(s)} }
	dim := func(s string) jline { return jline{s, sty.Dim.Render(s)} }
	done := func(out []jline) func(func() bool) []jline { return func(func() bool) []jline { return out } }
	switch {
	case r.Kind != store.RowFrame:
		out := []jline{dim(kindName(r.Kind))}
		for _, l := range strings.Split(r.Summary, "\n") {
			out = append(out, plain(l))
		}
		if !r.HasRaw {
			return done(out)
		}
		out = append(out, dim(""), dim("raw:"))
		raw := d.rawWork(r)
		return func(stop func() bool) []jline { return append(out, raw(stop)...) }
	case r.Done:
		return done([]jline{plain("[DONE]"), dim("the transport-level end-of-stream sentinel (AC-4)")})
	case r.Oversized:
		return done([]jline{dim(fmt.Sprintf("oversized event: %d bytes, not kept (the framer's size limit)", r.Size))})
	case !r.Decoded:
		// Red only when the frame raised an alarm: some dialects carry
		// data that is no JSON object by design (langgraph's arrays and
		// null, MCP's endpoint path), and frame-json says when one
		// wanted an object.
		head := "frame data is " + r.Problem.String()
		out := []jline{dim(head)}
		if r.MaxSev != "" {
			out[0] = jline{head, sty.SevError.Render(head)}
		}
		if fr := d.decoded(r); fr != nil && fr.ProblemDetail() != "" {
			out = append(out, dim(decode.Sanitize(fr.ProblemDetail())))
		}
		out = append(out, dim(""))
		data := d.decoded(r).Data
		if r.Problem == decode.ProblemNotObject && len(data) <= rawLimit(expand) {
			w := d.w
			return func(stop func() bool) []jline { return append(out, prettyJSONStop(data, sty, expand, w, stop)...) }
		}
		return func(func() bool) []jline {
			more := 0
			if limit := rawLimit(expand); len(data) > limit {
				more, data = len(data)-limit, data[:limit]
			}
			for _, l := range strings.Split(decode.SanitizeMultiline(string(data)), "\n") {
				out = append(out, plain(l))
			}
			if more > 0 {
				out = append(out, cutNote(more, expand, sty))
			}
			return out
		}
	}
	data, w := d.decoded(r).Data, d.w
	return func(stop func() bool) []jline { return prettyJSONStop(data, sty, expand, w, stop) }
}

// rawLimit is how many bytes of a frame the raw views show: 1 MiB, or the
// pane's hard limit when expanded.
func rawLimit(expand bool) int {
	if expand {
		return hardBytes
	}
	return 1 << 20
}

// cutNote is the line that says a view was cut, and how to see the rest.
func cutNote(more int, expand bool, sty *Styles) jline {
	s := fmt.Sprintf("… %d more bytes (enter: expand)", more)
	if expand {
		s = fmt.Sprintf("… %d more bytes: the pane's limit (framescope dump shows it all)", more)
	}
	return jline{s, sty.Dim.Render(s)}
}

func kindName(k store.RowKind) string {
	switch k {
	case store.RowComment:
		return "SSE comment (ignored by clients)"
	case store.RowBlock:
		return "SSE block without data (not dispatched)"
	case store.RowTruncated:
		return "truncated SSE event (the stream ended before its blank line)"
	case store.RowNote:
		return "capture note"
	}
	return ""
}

// rawWork reads the selected row's bytes as received and returns the
// renderer of the raw view (see work).
func (d *Detail) rawWork(r *store.Row) func(stop func() bool) []jline {
	sty, expand := d.sh.sty, d.expand
	raw := d.sh.st.RowRaw(d.sh.sel) // read back from the stream's bytes
	offset, size := r.Offset, r.Size
	return func(stop func() bool) []jline {
		if raw == nil {
			return []jline{{"(raw bytes not kept)", sty.Dim.Render("(raw bytes not kept)")}}
		}
		more := 0
		if limit := rawLimit(expand); len(raw) > limit {
			more, raw = len(raw)-limit, raw[:limit]
		}
		head := fmt.Sprintf("offset %d · %d bytes", offset, size)
		out := []jline{{head, sty.Dim.Render(head)}}
		base := painter(sty.Base)
		parts := strings.SplitAfter(string(raw), "\n")
		for i, p := range parts {
			if p == "" {
				continue
			}
			if stop != nil && i%1024 == 0 && stop() {
				return nil
			}
			// Every control is shown as an escape; the line feed ends the line.
			s := decode.Sanitize(strings.TrimSuffix(p, "\n"))
			if strings.HasSuffix(p, "\n") {
				s += "⏎"
			}
			out = append(out, jline{s, base(s)})
		}
		if more > 0 {
			out = append(out, cutNote(more, expand, sty))
		}
		return out
	}
}

func (d *Detail) alarmLines(r *store.Row) []jline {
	sty := d.sh.sty
	st := d.sh.st
	if len(r.Alarms) == 0 {
		return []jline{{"no alarm on this row", sty.Dim.Render("no alarm on this row")}}
	}
	var out []jline
	for _, ai := range r.Alarms {
		out = append(out, alarmExplain(st.AlarmOf(ai, r), st.Dialect, sty)...)
		out = append(out, jline{})
	}
	return out
}

// alarmExplain renders an alarm with its rule's clause and explanation.
func alarmExplain(a invariants.Alarm, dialectName string, sty *Styles) []jline {
	head := fmt.Sprintf("%s %-5s %s", sevMark(a.Severity), a.Severity, decode.Sanitize(a.Rule))
	rule, ok := pipeline.LookupRule(dialectName, a.Rule)
	if ok && rule.Clause != "" {
		head += "  (" + rule.Clause + ")"
	}
	out := []jline{{head, sty.Sev(a.Severity).Render(head)}}
	msg := "  " + decode.Sanitize(a.Message)
	out = append(out, jline{msg, sty.Base.Render(msg)})
	if ok {
		s := "  rule: " + rule.Summary
		out = append(out, jline{s, sty.Dim.Render(s)})
	}
	return out
}

func (d *Detail) header(r *store.Row) string {
	sty := d.sh.sty
	if r == nil {
		return ""
	}
	var parts []string
	if r.Kind == store.RowFrame {
		parts = append(parts, fmt.Sprintf("frame %d", r.Frame), r.Type)
	} else {
		parts = append(parts, kindName(r.Kind))
	}
	if r.HasAt {
		parts = append(parts, fmtOffset(r.At))
	}
	if r.Kind != store.RowNote && r.Kind != store.RowComment {
		parts = append(parts, fmt.Sprintf("%d B", r.Size))
	}
	if fr := d.decoded(r); fr != nil {
		if fr.HasType && decode.Sanitize(fr.Event.Type) != r.Type {
			parts = append(parts, "event: "+decode.Sanitize(fr.Event.Type))
		}
		if fr.HasID {
			parts = append(parts, "id: "+decode.Sanitize(fr.ID))
		}
	}
	if r.Turn >= 0 {
		parts = append(parts, fmt.Sprintf("turn %d", r.Turn+1))
	}
	return sty.Bold.Render(cut(strings.Join(parts, " · "), d.w))
}

func (d *Detail) tabs(r *store.Row) string {
	sty := d.sh.sty
	n := 0
	if r != nil {
		n = len(r.Alarms)
	}
	names := [numTabs]string{"JSON", "Raw", fmt.Sprintf("Alarms %d", n), "HTTP"}
	if d.sh.st.Response == nil {
		names[TabHTTP] = "" // no exchange: no tab
	}
	var b strings.Builder
	for i, name := range names {
		if name == "" {
			continue
		}
		if i > 0 {
			b.WriteString(sty.Sep.Render("│"))
		}
		if DetailTab(i) == d.tab {
			b.WriteString(sty.TabActive.Render(" " + name + " "))
		} else {
			b.WriteString(sty.TabInactive.Render(" " + name + " "))
		}
	}
	if d.expand {
		b.WriteString(sty.Dim.Render("  expanded"))
	}
	return b.String()
}

func (d *Detail) View() string {
	d.syncRow()
	r := d.row()
	if r == nil && (d.tab != TabHTTP || d.sh.st.Response == nil) {
		return block([]string{d.sh.sty.Dim.Render("nothing selected")}, d.w, d.h)
	}
	body := d.render()
	bh := d.bodyHeight()
	d.scroll = max(min(d.scroll, len(body)-bh), 0)
	head := d.sh.sty.Bold.Render(cut("the HTTP exchange (no frame)", d.w))
	if r != nil {
		head = d.header(r)
	}
	lines := []string{head, d.tabs(r)}
	q := d.sh.match
	end := d.scroll + bh
	hint := ""
	if d.tab == TabHTTP && len(body) > end && bh > 1 {
		// The error page or the request below the fold: say so.
		end--
		hint = fmt.Sprintf("↓ %d more lines", len(body)-end)
	}
	for i := d.scroll; i < len(body) && i < end; i++ {
		l := body[i]
		if !q.empty() && q.matchString(l.plain) {
			lines = append(lines, highlight(l.plain, q, d.sh.sty.Base.Render, d.sh.sty.Match.Render))
			continue
		}
		lines = append(lines, l.styled)
	}
	if hint != "" {
		lines = append(lines, d.sh.sty.Dim.Render(hint))
	}
	return block(lines, d.w, d.h)
}
