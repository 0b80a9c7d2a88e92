package ui

import (
	"fmt"

	"framescope/decode"
	"framescope/invariants"
	"framescope/ui/store"
)

// For a dialect that ships no reference client machine the Client pane
// shows what any client of the stream renders as of the cursor, read from
// the moves (docs/dialects.md "Client view for every dialect"): the
// message text, the progress line, the tool indicators, the open spans and
// the outcome. A dialect that ships one gets its machine (client.go).

type movesClientKey struct {
	st          *store.Store
	sel, rows   int
	w           int
	sty         *Styles
	conn        store.Conn
	frames, tex int
}

// movesOutcome is the turn's state as of frame n, for the title.
func (c *Client) movesOutcome(turn, n int) string {
	o, _ := c.sh.st.OutcomeAsOf(turn, n)
	return o
}

func (c *Client) movesTitle() string {
	turn, n := c.sh.asOf()
	return "Client · " + c.movesOutcome(turn, n)
}

func (c *Client) movesLines() []string {
	st := c.sh.st
	sty := c.sh.sty
	w := max(c.w, 1)
	turn, n := c.sh.asOf()
	k := movesClientKey{st: st, sel: c.sh.sel, rows: st.Len(), w: w, sty: sty, conn: st.Conn, frames: st.Frames}
	if k == c.movesKey && c.lines != nil {
		return c.lines
	}
	c.movesKey = k
	v := st.ClientViewAsOf(turn, n, 4000)
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	label := func(s string) string { return sty.Label.Render(s) }
	if v.Turn < 0 {
		add(sty.Dim.Render(cut("what a client shows: nothing yet ("+v.Outcome+")", w)))
		c.lines = out
		return out
	}
	head := fmt.Sprintf("turn %d · as of frame %d · %s", turn+1, n, v.Outcome)
	if v.Ended && v.TerminalEvent != "" {
		head += " (" + decode.Sanitize(v.TerminalEvent) + " at frame " + fmt.Sprint(v.CarrierFrame) + ")"
	}
	add(sty.Bold.Render(cut(head, w)))

	// The progress line: the latest progress or error as of n, while the
	// turn is open (a client clears it at the terminal).
	if v.Progress != "" {
		add(cut(label("progress ")+decode.Sanitize(v.Progress), w))
	}

	// Tool indicators.
	if len(v.Tools) > 0 {
		items := []string{label("tools")}
		for _, tv := range v.Tools {
			name := tv.Name
			if name == "" {
				name = tv.ID
			}
			items = append(items, decode.Sanitize(name)+" "+toolGlyph(tv.State)+tv.State)
		}
		add(flowLines(items, " · ", w)...)
	}

	// Open spans: what still shows a placeholder or a cursor.
	if len(v.Open) > 0 {
		items := []string{label("open")}
		for _, o := range v.Open {
			items = append(items, decode.Sanitize(o))
		}
		add(flowLines(items, " · ", w)...)
	}
	add(bubbleLines(v.Bubbles, w, sty)...)
	c.lines = out
	c.linesKey = clientLinesKey{}
	return out
}

// toolGlyph marks a tool indicator's state: a ready call (handed to the
// client) is neither running nor answered.
func toolGlyph(state string) string {
	switch state {
	case store.ToolReady:
		return "→ "
	case store.ToolDone:
		return "✓ "
	case store.ToolOrphan:
		return "◆ "
	}
	return "▶ "
}

// bubbleLines draws the bubbles a client shows, each apart (a choice, a
// content block, a message), then the components (a chunk stream whose
// modality is not text) in their own section, one line each.
func bubbleLines(bs []store.Bubble, w int, sty *Styles) []string {
	var out []string
	texts, comps := 0, 0
	for _, b := range bs {
		switch {
		case b.Component:
			comps++
		case !b.Reasoning:
			texts++
		}
	}
	if texts == 0 {
		out = append(out, "", sty.Dim.Render("no text yet"))
	}
	for _, b := range bs {
		if b.Component {
			continue
		}
		head := fmt.Sprintf("text · %s in %s", invariants.Plural(int(b.Total), "byte"), invariants.Plural(int(b.Deltas), "delta"))
		if b.Label != "" {
			head = decode.Sanitize(b.Label) + fmt.Sprintf(" · %s in %s", invariants.Plural(int(b.Total), "byte"), invariants.Plural(int(b.Deltas), "delta"))
		}
		out = append(out, "", sty.Label.Render(cut(head, w)))
		text := b.Text
		if b.Total > len(text) {
			text = "…" + text
		}
		// A client breaks lines where the text does (as the Status pane's
		// turn text does); every other control byte stays escaped.
		lines := wrapPlain(decode.SanitizeMultiline(text), w)
		if b.Reasoning { // a client shows thinking apart, dimmed
			for i := range lines {
				lines[i] = sty.Dim.Render(lines[i])
			}
		}
		out = append(out, lines...)
	}
	if comps > 0 {
		out = append(out, "", sty.Label.Render("components"))
		for _, b := range bs {
			if !b.Component {
				continue
			}
			l := fmt.Sprintf("%s · %s, %s · last: %s", decode.Sanitize(b.Label), invariants.Plural(int(b.Deltas), "chunk"), invariants.Plural(int(b.Total), "byte"), decode.Sanitize(b.Last))
			out = append(out, cut(l, w))
		}
	}
	return out
}
