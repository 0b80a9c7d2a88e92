package store

import (
	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/pipeline"
)

// moveFact is one move of a frame as the store's indexes keep it: the
// strings are raw (sanitized where drawn).
type moveFact struct {
	kind          invariants.MoveKind
	span          invariants.SpanKind
	key, name     string
	text, outcome string
	// MoveText: where the delta lies in the text spill (its bubble is
	// span + key); MoveTerminal: the frame that carried the end, +1.
	start, end int64
	carrier    int
}

// movesRow builds the row of a frame of any dialect but PC3 from the moves
// its dialect mapped it to: the label is the dialect's own event name, the
// turn the checker's, and tools, spans, progress and text come from the
// moves, so a new dialect needs nothing here.
func (f *Feeder) movesRow(it *pipeline.Item) Ingest {
	fr := it.Frame
	r := Row{
		Kind: RowFrame, Offset: fr.Offset, Size: fr.Size, HasRaw: fr.Raw != nil,
		Done: fr.Done, Decoded: fr.Decoded(),
		Problem: fr.Problem, InvalidUTF8: fr.InvalidUTF8, Oversized: fr.Oversized,
	}
	x := rowExt{arrival: fr.Arrival, hasArrival: fr.HasArrival, generic: true, turn: it.Turn}
	x.count(it.Content)
	if it.TurnKey != f.lastRID {
		f.lastRID = it.TurnKey // one string for all the frames of a turn
	}
	x.rid = f.lastRID
	if fr.HasArrival {
		r.At, r.HasAt = fr.Arrival, true
	}
	switch {
	case fr.Done:
		r.Type = "[DONE]"
	case it.Dialect != nil:
		r.Type = decode.Sanitize(it.Dialect.Label(fr))
	}
	if r.Type == "" && fr.HasType {
		r.Type = decode.Sanitize(fr.Event.Type)
	}
	for _, mv := range it.Moves {
		switch mv.Kind {
		case invariants.MoveTerminal:
			if r.Terminal == decode.NotTerminal {
				r.Terminal = invariants.TerminalOf(mv.Outcome)
			}
			x.facts = append(x.facts, moveFact{kind: mv.Kind, name: rawStr(mv.Name), outcome: mv.Outcome, text: rawStr(mv.Code), carrier: mv.Carrier})
		case invariants.MoveText:
			if s, ok := mv.Text.Str(); ok && s != "" {
				start := f.textEnd
				f.text.write(f.textEnd, []byte(s))
				f.textEnd += int64(len(s))
				x.textEnd, x.hasChunk = f.textEnd, true
				// The bubble it grows: a client keeps choices, blocks,
				// messages and streams apart (client_view.go).
				x.facts = append(x.facts, moveFact{kind: mv.Kind, span: mv.Span, key: rawKey(mv.Key), start: start, end: f.textEnd})
			}
		case invariants.MoveReasoning:
			// A client shows thinking apart from the answer (a collapsed
			// "Thinking" block): its own bubble, its own spill.
			if s, ok := mv.Text.Str(); ok && s != "" && f.reason != nil {
				start := f.reasonEnd
				f.reason.write(start, []byte(s))
				f.reasonEnd += int64(len(s))
				x.facts = append(x.facts, moveFact{kind: mv.Kind, span: mv.Span, key: rawKey(mv.Key), start: start, end: f.reasonEnd})
			}
		case invariants.MoveToolReady:
			x.facts = append(x.facts, moveFact{kind: mv.Kind, key: rawStr(mv.Key)})
		case invariants.MoveToolOpen, invariants.MoveToolClose, invariants.MoveSpanOpen, invariants.MoveSpanClose:
			x.facts = append(x.facts, moveFact{kind: mv.Kind, span: mv.Span, key: rawStr(mv.Key), name: rawStr(mv.Name), outcome: mv.Outcome})
		case invariants.MoveProgress:
			x.facts = append(x.facts, moveFact{kind: mv.Kind, name: rawStr(mv.Name), text: rawStr(mv.Text)})
		case invariants.MoveError:
			x.facts = append(x.facts, moveFact{kind: mv.Kind, name: rawStr(mv.Code), text: rawStr(mv.Text)})
		}
	}
	return Ingest{Row: r, ext: x}
}

// rawStr is a move field's text: a JSON string decoded, another value as
// written (an index), "" when absent.
func rawStr(r decode.Raw) string {
	if len(r) == 0 || r.Kind() == decode.KindNull {
		return ""
	}
	if s, ok := r.Str(); ok {
		return s
	}
	return string(r)
}

// rawKey is a text move's key as the store keeps it: a string decoded, a
// number as written ("0"), with a leading '#' for a number so that the
// Client pane can tell a choice index from an id.
func rawKey(r decode.Raw) string {
	if r.Kind() == decode.KindNumber {
		return "#" + string(r)
	}
	return rawStr(r)
}
