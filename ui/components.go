package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"framescope/decode"
	"framescope/ui/store"
)

// Components shows the turn's placeholders (data_loading → data_loaded)
// and component frames as of the selected frame.
type Components struct {
	scrollPane
}

func newComponents(sh *shared) *Components { return &Components{scrollPane: scrollPane{sh: sh}} }

func (c *Components) Title() string {
	turn, n := c.sh.asOf()
	if turn < 0 {
		return "Components"
	}
	st := c.sh.st
	lo, hi := st.CompsAsOf(turn, n)
	// A placeholder loads; any other span is open.
	what := "open"
	for i := lo; i < hi; i++ {
		if st.Comps[i].Kind == store.CompPlaceholder {
			what = "loading"
			break
		}
	}
	return countTitle("Components", hi-lo, st.LoadingAt(turn, n), what)
}

func (c *Components) Update(msg tea.Msg) (Pane, tea.Cmd) {
	c.sc.update(msg, c.sh.keys)
	return c, nil
}

func (c *Components) View() string {
	st := c.sh.st
	sty := c.sh.sty
	turn, n := c.sh.asOf()
	if turn < 0 {
		return block([]string{sty.Dim.Render("no turn yet")}, c.w, c.h)
	}
	lo, hi := st.CompsAsOf(turn, n)
	lines := []string{sty.Dim.Render(cut(fmt.Sprintf("turn %d · as of frame %d", turn+1, n), c.w))}
	if hi == lo {
		none := st.Wording().NoSpans
		if none == "" {
			none = "no span yet (messages, blocks, items, steps, streams)"
		}
		lines = append(lines, sty.Dim.Render(none))
		return block(lines, c.w, c.h)
	}
	c.sc.h, c.sc.n = c.h-1, hi-lo
	c.sc.by(0)
	for i := lo + c.sc.top; i < hi && len(lines) < c.h; i++ {
		sp := &st.Comps[i]
		var mark, state string
		var msty lipgloss.Style
		switch {
		case sp.Kind == store.CompMoveSpan:
			mark, state, msty = spanState(st, sp, n, c.sh)
		case sp.Kind == store.CompComponent:
			mark, state = "◼", fmt.Sprintf("component at %d", sp.Loading)
			msty = sty.TypeData
		case sp.Loading < 0:
			mark, state = "?", fmt.Sprintf("loaded at %d, never announced", sp.Loaded)
			msty = sty.SevWarn
		case sp.LoadedAt(n):
			// What matters first: how long the skeleton showed, then the
			// cards, then where to look.
			mark, state = "✓", "loaded"
			t0, ok0 := st.FrameAt(sp.Loading)
			t1, ok1 := st.FrameAt(sp.Loaded)
			if ok0 && ok1 {
				state += " in " + fmtDur(t1-t0)
			}
			if sp.Items >= 0 {
				state += fmt.Sprintf(" · %d items", sp.Items)
			}
			state += fmt.Sprintf(" · frames %d→%d", sp.Loading, sp.Loaded)
			msty = sty.TypeLifecycle
		default:
			mark, state = "…", "loading"
			if t0, ok := st.FrameAt(sp.Loading); ok {
				if now, ok := c.sh.cursorAt(); ok && now >= t0 {
					state += " for " + fmtDur(now-t0)
				}
			}
			state += fmt.Sprintf(" · since frame %d", sp.Loading)
			msty = sty.BarOpen
		}
		name := decode.Sanitize(sp.ID) + " " + decode.Sanitize(sp.Type)
		var b strings.Builder
		b.WriteString(msty.Render(mark) + " ")
		nameW := min(max(c.w/2, 10), c.w-2)
		b.WriteString(sty.Base.Render(fit(name, nameW)) + " ")
		b.WriteString(sty.Dim.Render(state))
		lines = append(lines, b.String())
	}
	return block(lines, c.w, c.h)
}

// spanState describes a span of the common turn model as of frame n: open
// (for how long), closed (after how long), or closed without an open.
func spanState(st *store.Store, sp *store.CompSpan, n int, sh *shared) (string, string, lipgloss.Style) {
	sty := sh.sty
	switch {
	case sp.Loading < 0:
		return "?", fmt.Sprintf("closed at %d, never opened", sp.Loaded), sty.SevWarn
	case sp.LoadedAt(n):
		state := "closed"
		t0, ok0 := st.FrameAt(sp.Loading)
		t1, ok1 := st.FrameAt(sp.Loaded)
		if ok0 && ok1 {
			state += " after " + fmtDur(t1-t0)
		}
		return "✓", state + fmt.Sprintf(" · frames %d→%d", sp.Loading, sp.Loaded), sty.TypeLifecycle
	}
	state := "open"
	if t0, ok := st.FrameAt(sp.Loading); ok {
		if now, ok := sh.cursorAt(); ok && now >= t0 {
			state += " for " + fmtDur(now-t0)
		}
	}
	return "…", state + fmt.Sprintf(" · since frame %d", sp.Loading), sty.BarOpen
}
