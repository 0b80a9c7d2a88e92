package invariants

import "framescope/decode"

// Wording is how the inspector words a dialect that has words of its own
// for its frames and turns (Worded): PC3's panes were drawn for its
// envelope before the common turn model existed. Every dialect's rows,
// turns, tools, spans, statuses and text come from its moves alike; a
// Wording says only how they are shown. The zero Wording is the common
// turn model's (WordingOf).
type Wording struct {
	// RowType is a frame's type as the timeline lists it (sanitized); nil:
	// the dialect's Label, else the SSE event: field.
	RowType func(f *decode.Frame) string
	// Summary is a frame's one-line description (sanitized); nil: the
	// payload's leading fields.
	Summary func(f *decode.Frame) string
	// TypeWidth, when set, is the timeline's type column: the dialect's
	// types are a closed set that fits it, and one that does not is cut at
	// its end. 0: the column fits the widest type seen (within a third of
	// the pane) and a type too long loses its middle.
	TypeWidth int
	// StampedRows: a frame without an arrival time is placed on the turn's
	// axis by its envelope timestamp (Stamped).
	StampedRows bool
	// TurnText: the Status pane shows the turn's text as one, not the
	// client's bubbles.
	TurnText bool
	// ErrorsApart: a non-terminal error is no status line — the dialect's
	// client shows it apart (PC3's marks the turn degraded: the Client
	// pane's machine shows it).
	ErrorsApart bool
	// NoSpans is what the Components pane says of a turn without a span
	// yet ("": the common model's words).
	NoSpans string
	// BareTerminal: a turn's end is named by its terminality alone (the
	// dialect's terminal events are its outcomes), not "outcome (event)".
	BareTerminal bool
}

// Worded is a dialect with a Wording of its own.
type Worded interface {
	Wording() *Wording
}

var commonWording Wording

// WordingOf is d's Wording: its own, or the common turn model's (never
// nil; d may be nil).
func WordingOf(d Dialect) *Wording {
	if w, ok := d.(Worded); ok {
		if ww := w.Wording(); ww != nil {
			return ww
		}
	}
	return &commonWording
}
