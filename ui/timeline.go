package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/invariants"
	"framescope/ui/store"
)

// Timeline is the frame list: one row per frame or other SSE item. Only the
// visible rows are rendered, and rendered rows are cached by row and width.
type Timeline struct {
	sh      *shared
	w, h    int
	top     int // first visible list position (a row when no filter is on)
	focused bool
	// filter, when on, lists only the matching rows: list positions map to
	// rows through its index (filter.go); nil lists every row.
	filter *store.Filter

	cache      map[int]cachedRow
	cacheW     int
	cacheQuery string
	cacheSty   *Styles
	// cacheCols: the column widths the cached rows were laid out with
	// (the index column widens as frames arrive, the type column as a
	// dialect's types do): rows cached before are stale after.
	cacheCols [4]int
	matches   map[int]bool // rows that match the search
	// typeW is the widest event type of the store typesOf (cells), over
	// its first typesSeen types.
	typesOf   *store.Store
	typesSeen int
	typeW     int
}

type cachedRow struct {
	s       string
	nAlarms int
}

func newTimeline(sh *shared) *Timeline {
	return &Timeline{sh: sh, cache: map[int]cachedRow{}}
}

func (t *Timeline) SetSize(w, h int) { t.w, t.h = w, h; t.scrollIntoView() }
func (t *Timeline) Focus()           { t.focused = true }
func (t *Timeline) Blur()            { t.focused = false }

func (t *Timeline) Title() string {
	n := t.sh.st.Len()
	if n == 0 {
		return "Timeline"
	}
	if t.filter.On() {
		return t.filteredTitle()
	}
	s := fmt.Sprintf("Timeline %d/%d", t.sh.sel+1, n)
	if t.sh.st.Frames != n {
		s += " (" + invariants.Plural(t.sh.st.Frames, "frame") + ")"
	}
	return s
}

func (t *Timeline) Keys() help.KeyMap {
	k := t.sh.keys
	return bindingHelp{
		short: []key.Binding{k.Up, k.Down, k.OpenDetail}, // g/G: in the full help
		full:  [][]key.Binding{append(k.navigation(), k.OpenDetail)},
	}
}

// SetCursor moves the selection to row and scrolls it into view.
func (t *Timeline) SetCursor(row int) {
	n := t.sh.st.Len()
	if n == 0 {
		t.sh.sel = -1
		return
	}
	if t.filter.On() {
		// Snap to a listed row; with none listed the cursor stays where it
		// is (the as-of panes keep their state).
		if r, ok := t.snap(row); ok {
			t.sh.sel = r
		}
		t.scrollIntoView()
		return
	}
	t.sh.sel = min(max(row, 0), n-1)
	t.scrollIntoView()
}

// AtBottom reports whether the cursor is on the last row (or there is none).
func (t *Timeline) AtBottom() bool {
	if t.filter.On() {
		n := t.count()
		return n == 0 || t.sh.sel >= t.rowAt(n-1)
	}
	return t.sh.sel >= t.sh.st.Len()-1
}

func (t *Timeline) scrollIntoView() {
	if t.h <= 0 {
		return
	}
	sel := max(t.sh.sel, 0)
	if t.filter.On() {
		sel, _ = t.posOf(sel)
	}
	if sel < t.top {
		t.top = sel
	}
	if sel >= t.top+t.h {
		t.top = sel - t.h + 1
	}
	if maxTop := t.count() - t.h; t.top > maxTop {
		t.top = max(maxTop, 0)
	}
}

// move moves the cursor d listed rows.
func (t *Timeline) move(d int) {
	if !t.filter.On() {
		t.SetCursor(t.sh.sel + d)
		return
	}
	n := t.count()
	if n == 0 {
		return
	}
	pos, exact := t.posOf(t.sh.sel)
	if !exact && d > 0 {
		pos-- // pos is the next listed row: one step down lands on it
	}
	t.sh.sel = t.rowAt(min(max(pos+d, 0), n-1))
	t.scrollIntoView()
}

func (t *Timeline) Update(msg tea.Msg) (Pane, tea.Cmd) {
	k := t.sh.keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			t.move(-1)
		case key.Matches(msg, k.Down):
			t.move(1)
		case key.Matches(msg, k.PageUp):
			t.move(-max(t.h-1, 1))
		case key.Matches(msg, k.PageDown):
			t.move(max(t.h-1, 1))
		case key.Matches(msg, k.Top):
			t.SetCursor(0)
		case key.Matches(msg, k.Bottom):
			t.SetCursor(t.sh.st.Len() - 1) // snaps to the last listed row
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			t.move(-3)
		case tea.MouseWheelDown:
			t.move(3)
		}
	case tea.MouseClickMsg:
		// y is relative to the pane's content (the root translates).
		if pos := t.top + msg.Y; pos < t.count() && msg.Button == tea.MouseLeft {
			t.SetCursor(t.rowAt(pos))
		}
	}
	return t, nil
}

// setMatches replaces the set of rows that match the search.
func (t *Timeline) setMatches(m map[int]bool) { t.matches = m }

func (t *Timeline) View() string {
	st := t.sh.st
	var cols [4]int
	cols[0], cols[1], cols[2], cols[3] = t.layout()
	if t.cacheW != t.w || t.cacheQuery != t.sh.query || t.cacheSty != t.sh.sty || t.cacheCols != cols || len(t.cache) > 4*t.h+64 {
		clear(t.cache)
		t.cacheW, t.cacheQuery, t.cacheSty, t.cacheCols = t.w, t.sh.query, t.sh.sty, cols
	}
	lines := make([]string, 0, t.h)
	if st.Len() == 0 {
		msg := "waiting for the first frame…"
		if st.Conn == store.ConnEnded {
			msg = "no frames"
		}
		lines = append(lines, t.sh.sty.Dim.Render(msg))
		if e := st.End; e != nil && e.Kind == "error" && e.Detail != "" {
			for _, l := range wrapPlain(e.Detail, t.w) {
				lines = append(lines, t.sh.sty.SevError.Render(l))
			}
		}
		return block(lines, t.w, t.h)
	}
	if t.filter.On() && t.count() == 0 {
		lines = append(lines, t.sh.sty.Dim.Render("no row matches the filter ("+t.filter.Describe()+"); esc clears it"))
		return block(lines, t.w, t.h)
	}
	for p := t.top; p < t.count() && len(lines) < t.h; p++ {
		i := t.rowAt(p)
		if i == t.sh.sel {
			sty := t.sh.sty.SelectedBlur
			if t.focused {
				sty = t.sh.sty.Selected
			}
			lines = append(lines, sty.Render(fit(t.plainRow(i), t.w)))
			continue
		}
		r := st.Row(i)
		if c, ok := t.cache[i]; ok && c.nAlarms == len(r.Alarms) {
			lines = append(lines, c.s)
			continue
		}
		s := t.styledRow(i)
		t.cache[i] = cachedRow{s: s, nAlarms: len(r.Alarms)}
		lines = append(lines, s)
	}
	return block(lines, t.w, t.h)
}

// columns of a timeline row, as plain text.
type rowCols struct {
	mark, idx, at, gap, typ, summary string
	// turn marks the first frame of every turn after the first one
	// ("turn 2 ▸ "): where a new response begins on the stream.
	turn string
}

func (t *Timeline) cols(i int) rowCols {
	st := t.sh.st
	r := st.Row(i)
	c := rowCols{mark: sevMark(r.MaxSev)}
	switch r.Kind {
	case store.RowFrame:
		c.idx = strconv.Itoa(r.Frame)
	case store.RowComment:
		c.idx = "·"
	case store.RowBlock:
		c.idx = "-"
	case store.RowTruncated:
		c.idx = "!"
	case store.RowNote:
		c.idx = "note"
	}
	if r.HasAt {
		c.at = fmtOffset(r.At)
		if prev, ok := t.prevAt(i); ok {
			c.gap = fmtGap(r.At - prev)
		}
	}
	c.typ = st.TypeOf(i)
	if r.Kind != store.RowFrame {
		c.typ = ""
	} else if r.FromClient {
		c.typ = "→ " + c.typ // the client's frame (WebSocket)
	}
	c.summary = st.Summary(i)
	if r.Kind == store.RowFrame && r.Turn > 0 && r.Turn < len(st.Turns) && st.Turns[r.Turn].FirstRow == i {
		c.turn = "turn " + strconv.Itoa(r.Turn+1) + " ▸ "
	}
	return c
}

// prevAt is the time of the previous timed frame row before row i.
func (t *Timeline) prevAt(i int) (time.Duration, bool) {
	st := t.sh.st
	for j := i - 1; j >= 0 && j >= i-64; j-- {
		if r := st.Row(j); r.Kind == store.RowFrame && r.HasAt {
			return r.At, true
		}
	}
	return 0, false
}

// typeWidth is the width of the widest event type so far (cells).
func (t *Timeline) typeWidth() int {
	st := t.sh.st
	if t.typesOf != st {
		t.typesOf, t.typesSeen, t.typeW = st, 0, 0
	}
	types := st.Types()
	for _, typ := range types[t.typesSeen:] {
		t.typeW = max(t.typeW, ansi.StringWidth(typ))
	}
	t.typesSeen = len(types)
	return t.typeW
}

// layout returns the column widths for the pane width: idx, at, gap, type
// (gap is 0 when the pane is narrow).
func (t *Timeline) layout() (idxW, atW, gapW, typW int) {
	idxW = max(len(strconv.Itoa(t.sh.st.Frames)), 4)
	atW, gapW, typW = 9, 7, 14
	if w := t.sh.st.Wording().TypeWidth; w > 0 {
		typW = w // a dialect whose types are a closed set that fits
	} else {
		// Dialects name events at length (content_block_delta,
		// response.output_text.delta, tool_calls[0] get_forecast): give
		// the column what the widest type needs, within a third of the
		// pane.
		typW = min(max(t.typeWidth(), 14), 28, max(t.w/3, 14))
	}
	if t.w < 72 {
		gapW = 0
	}
	if t.w < 48 {
		atW = 0
		typW = 12
	}
	return
}

func (t *Timeline) plainRow(i int) string {
	c := t.cols(i)
	idxW, atW, gapW, typW := t.layout()
	var b strings.Builder
	b.WriteString(c.mark)
	b.WriteString(padLeft(c.idx, idxW))
	b.WriteString(t.matchMark(i))
	if atW > 0 {
		b.WriteString(fit(padLeft(c.at, atW), atW) + " ")
	}
	if gapW > 0 {
		b.WriteString(fit(padLeft(c.gap, gapW), gapW) + " ")
	}
	b.WriteString(t.fitType(c.typ, typW) + " ")
	b.WriteString(c.turn + c.summary)
	return b.String()
}

func (t *Timeline) matchMark(i int) string {
	if t.matches[i] {
		return "»"
	}
	return " "
}

func (t *Timeline) styledRow(i int) string {
	sty := t.sh.sty
	r := t.sh.st.Row(i)
	c := t.cols(i)
	idxW, atW, gapW, typW := t.layout()
	var b strings.Builder
	b.WriteString(sty.Sev(r.MaxSev).Render(c.mark))
	if r.Kind == store.RowFrame {
		b.WriteString(sty.Base.Render(padLeft(c.idx, idxW)))
	} else {
		b.WriteString(sty.Dim.Render(padLeft(c.idx, idxW)))
	}
	if t.matches[i] {
		b.WriteString(sty.MatchMark.Render("»"))
	} else {
		b.WriteByte(' ')
	}
	if atW > 0 {
		b.WriteString(sty.Dim.Render(fit(padLeft(c.at, atW), atW)) + " ")
	}
	if gapW > 0 {
		b.WriteString(sty.Dim.Render(fit(padLeft(c.gap, gapW), gapW)) + " ")
	}
	b.WriteString(sty.EventType(r).Render(t.fitType(c.typ, typW)) + " ")
	used := 1 + idxW + 1 + typW + 1
	if atW > 0 {
		used += atW + 1
	}
	if gapW > 0 {
		used += gapW + 1
	}
	room := t.w - used
	if c.turn != "" {
		b.WriteString(sty.TurnMark.Render(cut(c.turn, room)))
		room -= ansiWidth(c.turn)
	}
	summary := cut(c.summary, max(room, 0))
	base := sty.Base.Render
	if r.Kind != store.RowFrame {
		base = sty.Dim.Render
	}
	b.WriteString(highlight(summary, t.sh.match, base, sty.Match.Render))
	return fit(b.String(), t.w)
}

// fitType fits an event type to its column. A dialect's long names share
// their head (content_block_start / _delta / _stop,
// response.output_text.delta / response.function_call_arguments.delta)
// and differ at both ends, so one that must be cut loses its middle: a
// third of the room keeps the head, the rest the tail. The types of a
// dialect whose column is fixed (Wording.TypeWidth) are cut at the end.
func (t *Timeline) fitType(typ string, w int) string {
	return fitMiddle(typ, w, t.sh.st.Wording().TypeWidth == 0)
}

func fitMiddle(typ string, w int, generic bool) string {
	tw := ansi.StringWidth(typ)
	if !generic || tw <= w || w < 6 {
		return fit(typ, w)
	}
	head := (w - 1) / 3
	if sp := strings.LastIndexByte(typ, ' '); sp > 0 && ansi.StringWidth(typ[sp:]) <= w-4 {
		// A label and a name (tool_calls[0] get_forecast): the name
		// stays whole.
		head = w - 1 - ansi.StringWidth(typ[sp:])
	}
	tail := w - 1 - head
	return fit(ansi.Truncate(typ, head, "")+"…"+ansi.TruncateLeft(typ, tw-tail, ""), w)
}
