package ui

import (
	"fmt"
	"strings"

	"framescope/decode"
	"framescope/ui/store"
)

// For a dialect other than PC3 the Client pane shows what any client of
// the stream renders as of the cursor, read from the moves (docs/dialects.md
// "Client view for every dialect"): the message text, the progress line,
// the tool indicators, the open spans and the outcome. PC3 keeps its full
// reference machine (client.go).

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
	st := c.sh.st
	if turn < 0 {
		if st.Conn == store.ConnEnded {
			return "ended before any turn"
		}
		return "waiting for the first frame"
	}
	tr := &st.Turns[turn]
	ended := st.Conn == store.ConnEnded && n >= tr.LastFrame
	switch {
	case tr.TerminalFrame >= 0 && tr.TerminalFrame <= n:
		return tr.Outcome
	case ended && tr.Outcome != "":
		return tr.Outcome // settled at the end of the stream (no terminal event)
	case ended && turn == len(st.Turns)-1:
		return "ended without a terminal"
	}
	return "streaming"
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
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	label := func(s string) string { return sty.Label.Render(s) }
	if turn < 0 {
		add(sty.Dim.Render(cut("what a client shows: nothing yet ("+c.movesOutcome(turn, n)+")", w)))
		c.lines = out
		return out
	}
	tr := &st.Turns[turn]
	head := fmt.Sprintf("turn %d · as of frame %d · %s", turn+1, n, c.movesOutcome(turn, n))
	if tr.TerminalFrame >= 0 && tr.TerminalFrame <= n && tr.TerminalEvent != "" {
		head += " (" + decode.Sanitize(tr.TerminalEvent) + " at frame " + fmt.Sprint(tr.TerminalFrame) + ")"
	}
	add(sty.Bold.Render(cut(head, w)))

	// The progress line: the latest progress or error as of n, while the
	// turn is open (a client clears it at the terminal).
	if lo, hi := st.StatusesAsOf(turn, n); hi > lo && !(tr.TerminalFrame >= 0 && tr.TerminalFrame <= n) {
		sr := &st.Statuses[hi-1]
		line := decode.Sanitize(sr.Message)
		if strings.HasPrefix(sr.EventID, "error") {
			line = decode.Sanitize(sr.EventID) + ": " + line
		}
		add(cut(label("progress ")+line, w))
	}

	// Tool indicators.
	if lo, hi := st.ToolsAsOf(turn, n); hi > lo {
		var items []string
		for i := lo; i < hi; i++ {
			sp := &st.Tools[i]
			state := "done"
			switch {
			case sp.Orphan:
				state = "orphan"
			case sp.OpenAt(n):
				state = "running"
			}
			name := sp.Name
			if name == "" {
				name = sp.ID
			}
			items = append(items, decode.Sanitize(name)+" "+state)
		}
		add(flowLines(append([]string{label("tools")}, items...), " · ", w)...)
	}

	// Open spans: what still shows a placeholder or a cursor.
	if lo, hi := st.CompsAsOf(turn, n); hi > lo {
		var items []string
		for i := lo; i < hi; i++ {
			if sp := &st.Comps[i]; sp.Loading >= 0 && !sp.LoadedAt(n) {
				items = append(items, decode.Sanitize(sp.Type)+" "+decode.Sanitize(sp.ID))
			}
		}
		if len(items) > 0 {
			add(flowLines(append([]string{label("open")}, items...), " · ", w)...)
		}
	}

	// The message text so far (its tail when long).
	text, total, frames := st.TextAsOf(turn, n, 4000)
	add("")
	if frames == 0 {
		add(sty.Dim.Render("no text yet"))
	} else {
		add(label(fmt.Sprintf("text · %d bytes in %d deltas", total, frames)))
		for _, l := range wrapPlain(decode.Sanitize(text), w) {
			add(l)
		}
	}
	c.lines = out
	c.linesKey = clientLinesKey{}
	return out
}
