package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"framescope/decode"
)

// Status shows what a v0.5 client displays as of the selected frame: the
// current status line, the status history of the turn, and the text
// streamed so far.
type Status struct {
	sh      *shared
	w, h    int
	focused bool
	sc      scroller
}

func newStatus(sh *shared) *Status { return &Status{sh: sh} }

func (s *Status) SetSize(w, h int)  { s.w, s.h = w, h }
func (s *Status) Focus()            { s.focused = true }
func (s *Status) Blur()             { s.focused = false }
func (s *Status) Keys() help.KeyMap { return scrollKeys(s.sh.keys) }

func (s *Status) Title() string {
	turn, n := s.sh.asOf()
	if turn < 0 {
		return "Status"
	}
	lo, hi := s.sh.st.StatusesAsOf(turn, n)
	return fmt.Sprintf("Status %d", hi-lo)
}

func (s *Status) Update(msg tea.Msg) (Pane, tea.Cmd) {
	s.sc.update(msg, s.sh.keys)
	return s, nil
}

// lines renders the whole pane content (the history is short; the text is
// cut to what fits).
func (s *Status) lines() []string {
	st := s.sh.st
	sty := s.sh.sty
	turn, n := s.sh.asOf()
	if turn < 0 {
		return []string{sty.Dim.Render("no turn yet")}
	}
	lo, hi := st.StatusesAsOf(turn, n)
	out := []string{sty.Dim.Render(cut(fmt.Sprintf("turn %d · as of frame %d", turn+1, n), s.w))}
	if hi == lo {
		out = append(out, sty.Dim.Render("no status line yet"))
	} else {
		cur := &st.Statuses[hi-1]
		line := "▶ " + decode.Sanitize(cur.Message)
		out = append(out, sty.TypeStatus.Bold(true).Render(cut(line, s.w)))
		facts := fmt.Sprintf("  %s · frame %d%s", decode.Sanitize(cur.EventID), cur.Frame, s.timeOf(cur.Frame))
		if k := s.sh.st.OpenToolsAt(turn, cur.Frame); k >= 2 {
			// Concurrent sub-agents behind one status frame: what the
			// batch policy renders (AC-2).
			facts += fmt.Sprintf(" · covers %d concurrent calls (AC-2 batch)", k)
		}
		out = append(out, sty.Dim.Render(cut(facts, s.w)))
		if v, style := s.verdict(cur.EventID); v != "" {
			out = append(out, style(cut("  registry: "+v, s.w)))
		}
		if hi-lo > 1 {
			out = append(out, sty.Dim.Render("history:"))
			first := max(lo, hi-6)
			if first > lo {
				out = append(out, sty.Dim.Render(fmt.Sprintf("  … %d earlier", first-lo)))
			}
			for i := first; i < hi; i++ {
				r := &st.Statuses[i]
				l := fmt.Sprintf("%5d%s  %s → %s", r.Frame, s.timeOf(r.Frame), decode.Sanitize(r.EventID), decode.Sanitize(r.Message))
				if v, _ := s.verdict(r.EventID); v != "" && !strings.HasPrefix(v, "✓") {
					l += "  [" + v + "]"
				}
				out = append(out, cut(l, s.w))
			}
		}
	}
	// Only the tail can matter on screen: never copy or sanitize megabytes.
	text, total, k := st.TextAsOf(turn, n, 8192)
	out = append(out, "")
	if k == 0 {
		out = append(out, sty.Dim.Render("no text yet"))
		return out
	}
	out = append(out, sty.Dim.Render(fmt.Sprintf("text so far (%d frames, %d bytes):", k, total)))
	if total > len(text) {
		text = "…" + text
	}
	for _, l := range wrapPlain(decode.SanitizeMultiline(text), s.w) {
		out = append(out, sty.Base.Render(l))
	}
	return out
}

// timeOf is " · +1.234s" for a frame with a time on the turn's axis.
func (s *Status) timeOf(frame int) string {
	if at, ok := s.sh.st.FrameAt(frame); ok {
		return fmt.Sprintf(" · +%.3fs", at.Seconds())
	}
	return ""
}

// verdict is what the registry (--registry) says of an event_id, styled by
// how bad it is; "" without a registry. The same facts raise the
// status-unregistered / -deprecated / -suppressed alarms.
func (s *Status) verdict(id string) (string, func(...string) string) {
	reg, sty := s.sh.registry, s.sh.sty
	if reg == nil {
		return "", nil
	}
	e, ok := reg.Lookup(id)
	if !ok {
		return "✖ not in the registry", sty.SevError.Render
	}
	where := fmt.Sprintf(" (%s:%d)", decode.Sanitize(e.File), e.Line)
	switch {
	case e.Lifecycle == "deprecated":
		return "▲ deprecated" + where, sty.SevWarn.Render
	case e.Policy == "suppress":
		return "▲ policy suppress: should never reach the wire" + where, sty.SevWarn.Render
	}
	return "✓ " + decode.Sanitize(e.Policy) + " · " + decode.Sanitize(e.Lifecycle) + where, sty.Dim.Render
}

func (s *Status) View() string {
	return s.sc.view(s.lines(), s.w, s.h)
}

// Components shows the turn's placeholders (data_loading → data_loaded)
// and component frames as of the selected frame.
type Components struct {
	sh      *shared
	w, h    int
	focused bool
	sc      scroller
}

func newComponents(sh *shared) *Components { return &Components{sh: sh} }

func (c *Components) SetSize(w, h int)  { c.w, c.h = w, h }
func (c *Components) Focus()            { c.focused = true }
func (c *Components) Blur()             { c.focused = false }
func (c *Components) Keys() help.KeyMap { return scrollKeys(c.sh.keys) }

func (c *Components) Title() string {
	turn, n := c.sh.asOf()
	if turn < 0 {
		return "Components"
	}
	lo, hi := c.sh.st.CompsAsOf(turn, n)
	if c.sh.st.Generic() {
		return countTitle("Components", hi-lo, c.sh.st.LoadingAt(turn, n), "open")
	}
	return countTitle("Components", hi-lo, c.sh.st.LoadingAt(turn, n), "loading")
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
		none := "no placeholder or component yet"
		if st.Generic() {
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
		case sp.Kind == CompMoveSpan:
			mark, state, msty = spanState(st, sp, n, c.sh)
		case sp.Kind == CompComponent:
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
func spanState(st *Store, sp *CompSpan, n int, sh *shared) (string, string, lipgloss.Style) {
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
