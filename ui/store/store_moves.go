package store

import (
	"framescope/invariants"
)

// segmentMoves assigns a frame to the turn its checker gave it, opening
// turns as the checker did. Turns interleave in a
// few dialects (go-bus frames of an older turn): the per-turn indexes are
// ranges in arrival order, so such a frame is listed under the newest turn.
func (s *Store) segmentMoves(r *Row, x *rowExt, row int) int {
	t := x.turn
	if t < 0 {
		return len(s.Turns) - 1 // a frame of the stream, not of a turn
	}
	for len(s.Turns) <= t {
		s.Turns = append(s.Turns, TurnRec{
			Index: len(s.Turns), FirstRow: row, FirstFrame: r.Frame, TerminalFrame: -1,
			toolLo: len(s.Tools), compLo: len(s.Comps), statusLo: len(s.Statuses), textLo: len(s.texts),
			textStart: s.textEnd,
		})
	}
	if t < len(s.Turns)-1 {
		t = len(s.Turns) - 1
	}
	tr := &s.Turns[t]
	if x.rid != "" && x.rid != tr.RID {
		tr.RID, tr.HasRID = x.rid, true
	}
	tr.LastFrame = r.Frame
	tr.Frames++
	if r.Done {
		tr.Done, tr.closed = true, true
	}
	for i := range x.nfacts {
		fc := x.fact(i)
		if fc.kind == invariants.MoveTerminal && tr.Terminal == 0 && !fc.late {
			tr.Terminal = r.Terminal
			tr.TerminalFrame, tr.CarrierFrame = r.Frame, r.Frame
			if fc.carrier > 0 && fc.carrier-1 < r.Frame {
				tr.CarrierFrame = fc.carrier - 1
			}
			tr.Outcome, tr.TerminalEvent = fc.outcome, fc.name
			if tr.TerminalEvent == "" {
				tr.TerminalEvent = r.Type
			}
		}
	}
	return t
}

// indexMoves records a frame's tools, spans, progress and text from its
// moves, for every dialect alike. A placeholder span (PC3's data_loading)
// is kept as one — it loads, and is filled with items — and a component
// span opens closed.
func (s *Store) indexMoves(r *Row, x *rowExt) {
	if r.Turn < 0 {
		return
	}
	t := &s.Turns[r.Turn]
	for i := range x.nfacts {
		fc := x.fact(i)
		switch fc.kind {
		case invariants.MoveToolOpen:
			if t.tools == nil {
				t.tools = map[string]int{}
			}
			t.tools[fc.key] = len(s.Tools)
			s.Tools = append(s.Tools, ToolSpan{ID: fc.key, Name: fc.name, Type: fc.typ, Turn: r.Turn,
				Start: r.Frame, End: -1, StartAt: r.At, HasStart: r.HasAt})
		case invariants.MoveToolReady:
			if i, ok := t.tools[fc.key]; ok && s.Tools[i].End < 0 && !s.Tools[i].HasReady {
				sp := &s.Tools[i]
				sp.Ready, sp.ReadyTime, sp.HasReady = r.Frame, r.At, true
			}
		case invariants.MoveText, invariants.MoveReasoning:
			s.addPiece(t, r.Frame, fc)
		case invariants.MoveToolClose:
			if i, ok := t.tools[fc.key]; ok && s.Tools[i].End < 0 {
				sp := &s.Tools[i]
				sp.End = r.Frame
				sp.EndAt, sp.HasEnd = r.At, r.HasAt
				continue
			}
			s.Tools = append(s.Tools, ToolSpan{ID: fc.key, Name: fc.name, Type: fc.typ, Turn: r.Turn,
				Start: r.Frame, End: r.Frame, StartAt: r.At, HasStart: r.HasAt, EndAt: r.At, HasEnd: r.HasAt, Orphan: true})
		case invariants.MoveSpanOpen:
			if fc.span == invariants.SpanComponent {
				s.Comps = append(s.Comps, CompSpan{Kind: CompComponent, ID: fc.key, Type: fc.name, Turn: r.Turn,
					Loading: r.Frame, Loaded: r.Frame, Items: -1, first: r.Frame})
				continue
			}
			if t.comps == nil {
				t.comps = map[string]int{}
			}
			k := fc.span.String() + "\x00" + fc.key
			t.comps[k] = len(s.Comps)
			sp := CompSpan{Kind: CompMoveSpan, ID: fc.key, Type: spanLabel(fc), Turn: r.Turn,
				Loading: r.Frame, Loaded: -1, Items: -1, first: r.Frame, name: fc.name}
			if fc.span == invariants.SpanPlaceholder {
				sp.Kind, sp.Type, sp.name = CompPlaceholder, fc.name, ""
			}
			s.Comps = append(s.Comps, sp)
		case invariants.MoveSpanClose:
			k := fc.span.String() + "\x00" + fc.key
			placeholder := fc.span == invariants.SpanPlaceholder
			if i, ok := t.comps[k]; ok && s.Comps[i].Loaded < 0 {
				s.Comps[i].Loaded = r.Frame
				if placeholder {
					s.Comps[i].Items = fc.items
				}
				continue
			}
			sp := CompSpan{Kind: CompMoveSpan, ID: fc.key, Type: spanLabel(fc), Turn: r.Turn,
				Loading: -1, Loaded: r.Frame, Items: -1, first: r.Frame}
			if placeholder {
				sp.Kind, sp.Type, sp.Items = CompPlaceholder, fc.name, fc.items
			}
			s.Comps = append(s.Comps, sp)
		case invariants.MoveProgress:
			if fc.text == "" && fc.name == "" {
				continue // a progress move with nothing to show
			}
			s.Statuses = append(s.Statuses, StatusRec{Frame: r.Frame, Turn: r.Turn, EventID: fc.name, Message: fc.text})
		case invariants.MoveError:
			id := "error"
			if fc.name != "" {
				id = "error " + fc.name
			}
			s.Statuses = append(s.Statuses, StatusRec{Frame: r.Frame, Turn: r.Turn, EventID: id, Message: fc.text})
		}
	}
	if x.hasChunk {
		s.textEnd = x.textEnd
		s.texts = append(s.texts, textRec{Frame: r.Frame, End: x.textEnd})
	}
}

// spanLabel names a span for the Components pane: its kind, then the name
// it was opened with (a block's type, a step's name).
func spanLabel(fc *moveFact) string {
	if fc.name == "" {
		return fc.span.String()
	}
	return fc.span.String() + " · " + fc.name
}

// settleTurns takes the outcomes the checker settled at the end of the
// stream (a dialect without terminal events) for turns that had none.
func (s *Store) settleTurns(final []invariants.Turn) {
	for i := range s.Turns {
		if i >= len(final) {
			break
		}
		if tr := &s.Turns[i]; tr.Outcome == "" && final[i].Outcome != "" {
			tr.Outcome, tr.Terminal = final[i].Outcome, final[i].Terminal
			tr.TerminalEvent = final[i].TerminalEvent
			if tr.TerminalEvent == "" {
				tr.TerminalEvent = "end of stream"
			}
		}
	}
}
