package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
)

// Status shows what a client displays as of the selected frame: the
// current status line, the status history of the turn, and the text
// streamed so far (the turn's text, or the client's bubbles:
// invariants.Wording.TurnText).
type Status struct {
	scrollPane
}

func newStatus(sh *shared) *Status { return &Status{scrollPane: scrollPane{sh: sh}} }

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
	if !st.Wording().TurnText {
		// A client keeps choices, blocks and messages apart, and
		// renders a card stream in its component (client_moves.go).
		// Status shows the answer; thinking is the Client pane's.
		bs := st.ClientViewAsOf(turn, n, 8192).Bubbles
		answer := bs[:0:0]
		for _, b := range bs {
			if !b.Reasoning {
				answer = append(answer, b)
			}
		}
		return append(out, bubbleLines(answer, s.w, sty)...)
	}
	// Only the tail can matter on screen: never copy or sanitize megabytes.
	text, total, k := st.TextAsOf(turn, n, 8192)
	out = append(out, "")
	if k == 0 {
		out = append(out, sty.Dim.Render("no text yet"))
		return out
	}
	out = append(out, sty.Dim.Render(fmt.Sprintf("text so far (%s, %s):", invariants.Plural(k, "frame"), invariants.Plural(int(total), "byte"))))
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
