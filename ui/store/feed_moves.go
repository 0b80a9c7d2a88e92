package store

import (
	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// moveFact is one move of a frame as the store's indexes keep it: the
// strings are raw (sanitized where drawn).
type moveFact struct {
	kind          invariants.MoveKind
	span          invariants.SpanKind
	key, name     string
	text, outcome string
	typ           string // a tool call's type
	// MoveText: where the delta lies in the text spill (its bubble is
	// span + key); MoveTerminal: the frame that carried the end, +1.
	start, end int64
	carrier    int
	items      int  // a placeholder's close: its items (-1: no array)
	late       bool // a terminal after its turn closed
}

// movesRow builds the row of a frame from the moves its dialect mapped it
// to: the label is the dialect's own event name, the turn the checker's,
// and tools, spans, progress and text come from the moves, so a new
// dialect needs nothing here. A dialect with words of its own
// (invariants.Wording) types and places the row its way.
func (f *Feeder) movesRow(it *pipeline.Item) Ingest {
	fr := it.Frame
	r := Row{
		Kind: RowFrame, Offset: fr.Offset, Size: fr.Size, HasRaw: fr.Raw != nil,
		Done: fr.Done, Decoded: fr.Decoded(),
		Problem: fr.Problem, InvalidUTF8: fr.InvalidUTF8, Oversized: fr.Oversized,
		FromClient: it.From == sessions.FromClient,
	}
	x := rowExt{arrival: fr.Arrival, hasArrival: fr.HasArrival, turn: it.Turn}
	x.count(it.Content)
	if it.TurnKey != f.lastRID {
		f.lastRID = it.TurnKey // one string for all the frames of a turn
	}
	x.rid = f.lastRID
	w := f.wording
	if fr.HasArrival {
		r.At, r.HasAt = fr.Arrival, true
	} else if w.StampedRows && r.Decoded && it.HasStamp {
		// The envelope timestamp the checker parsed, from the stream's first.
		if !f.haveTS {
			f.firstTS, f.haveTS = it.Stamp, true
		}
		r.At, r.HasAt = it.Stamp.Sub(f.firstTS), true
	}
	switch {
	case w.RowType != nil:
		r.Type = w.RowType(fr)
	case fr.Done:
		r.Type = "[DONE]"
	case it.Dialect != nil:
		r.Type = decode.Sanitize(it.Dialect.Label(fr))
	}
	if r.Type == "" && fr.HasType && w.RowType == nil {
		r.Type = decode.Sanitize(fr.Event.Type)
	}
	for _, mv := range it.Moves {
		switch mv.Kind {
		case invariants.MoveTerminal:
			if r.Terminal == invariants.NotTerminal {
				r.Terminal = invariants.TerminalOf(mv.Outcome)
			}
			x.add(moveFact{kind: mv.Kind, name: rawStr(mv.Name), outcome: mv.Outcome, text: rawStr(mv.Code), carrier: mv.Carrier, late: mv.Late})
		case invariants.MoveText:
			s, ok := mv.Text.Str()
			if !ok {
				break
			}
			// Every text delta counts (TextAsOf: the turn's text frames);
			// an empty one grows no bubble.
			x.textEnd, x.hasChunk = f.textEnd, true
			if s != "" {
				start := f.textEnd
				f.text.write(f.textEnd, []byte(s))
				f.textEnd += int64(len(s))
				x.textEnd = f.textEnd
				// The bubble it grows: a client keeps choices, blocks,
				// messages and streams apart (client_view.go).
				if f.bubbles {
					x.add(moveFact{kind: mv.Kind, span: mv.Span, key: rawKey(mv.Key), start: start, end: f.textEnd})
				}
			}
		case invariants.MoveReasoning:
			// A client shows thinking apart from the answer (a collapsed
			// "Thinking" block): its own bubble, its own spill.
			if s, ok := mv.Text.Str(); ok && s != "" && f.reason != nil && f.bubbles {
				start := f.reasonEnd
				f.reason.write(start, []byte(s))
				f.reasonEnd += int64(len(s))
				x.add(moveFact{kind: mv.Kind, span: mv.Span, key: rawKey(mv.Key), start: start, end: f.reasonEnd})
			}
		case invariants.MoveToolReady:
			x.add(moveFact{kind: mv.Kind, key: rawStr(mv.Key)})
		case invariants.MoveToolOpen, invariants.MoveToolClose, invariants.MoveSpanOpen, invariants.MoveSpanClose:
			x.add(moveFact{kind: mv.Kind, span: mv.Span, key: rawStr(mv.Key), name: rawStr(mv.Name), outcome: mv.Outcome,
				typ: rawStr(mv.Type), items: mv.Items})
		case invariants.MoveProgress:
			x.add(moveFact{kind: mv.Kind, name: rawStr(mv.Name), text: rawStr(mv.Text)})
		case invariants.MoveError:
			if w.ErrorsApart {
				break
			}
			x.add(moveFact{kind: mv.Kind, name: rawStr(mv.Code), text: rawStr(mv.Text)})
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
