package pc3

import (
	"framescope/decode"
	"framescope/invariants"
)

// AppendMoves maps one PC3 frame onto the common turn model: what a PC3
// client does with it, as the inspector indexes it. A tool call, result,
// placeholder or component is keyed by its id (a frame without a usable
// id is one a client ignores: no move); a status line needs an event_id
// or a message. Strings a client reads as
// absent unless they are non-empty (a tool's name and type, a
// placeholder's type, a status's fields) are mapped only then.
func AppendMoves(dst []invariants.Move, f *decode.Frame) []invariants.Move {
	if !f.Decoded() {
		return dst
	}
	switch Type(f) {
	case TypeResponseID:
		dst = append(dst, invariants.Move{Kind: invariants.MoveTurnKey, Key: ResponseID(f)})
	case TypeText:
		dst = append(dst, invariants.Move{Kind: invariants.MoveText, Text: Chunk(f)})
	case TypeReasoning:
		dst = append(dst, invariants.Move{Kind: invariants.MoveReasoning, Text: Chunk(f)})
	case TypeThinking:
		// A pre-content indicator (clients MAY ignore it): reasoning only
		// when it carries its optional content.
		if c := thinkingContent(f); c != nil {
			dst = append(dst, invariants.Move{Kind: invariants.MoveReasoning, Text: c})
		}
	case TypeToolCall, TypeToolCompleted:
		tc := ToolCallViewOf(f)
		if !tc.ID.IsNonEmptyStr() {
			break
		}
		mv := invariants.Move{Kind: invariants.MoveToolOpen, Key: tc.ID, Name: nonEmpty(tc.Name), Type: nonEmpty(tc.Type)}
		if Type(f) == TypeToolCompleted {
			mv.Kind, mv.Outcome = invariants.MoveToolClose, invariants.TurnCompleted
		}
		dst = append(dst, mv)
	case TypeComponent:
		// Rendered whole from its frame: a span that opens closed.
		tc := ToolCallViewOf(f)
		dst = append(dst, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanComponent, Key: nonEmpty(tc.ID), Name: nonEmpty(tc.Name)})
	case TypeDataLoading, TypeDataLoaded:
		d := DataViewOf(f)
		if !d.ID.IsNonEmptyStr() {
			break
		}
		mv := invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanPlaceholder, Key: d.ID, Name: nonEmpty(d.Type)}
		if Type(f) == TypeDataLoaded {
			mv.Kind, mv.Items = invariants.MoveSpanClose, d.ItemCount
		}
		dst = append(dst, mv)
	case TypeStatus:
		id, msg := StatusViewOf(f)
		if id, msg = nonEmpty(id), nonEmpty(msg); id != nil || msg != nil {
			dst = append(dst, invariants.Move{Kind: invariants.MoveProgress, Text: msg, Name: id})
		}
	case TypeError, TypeCompleted, TypeCancelled:
		term := Terminal(f)
		if term == invariants.NotTerminal {
			e := f.Get("error")
			dst = append(dst, invariants.Move{Kind: invariants.MoveError, Code: e.Get("code"), Text: e.Get("message")})
			break
		}
		outcome := invariants.TurnFailed
		switch term {
		case invariants.TerminalCompleted:
			outcome = invariants.TurnCompleted
		case invariants.TerminalCancelled:
			outcome = invariants.TurnCancelled
		}
		dst = append(dst, invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: EventType(f),
			Code: f.Get("error").Get("code")})
	}
	return dst
}

// nonEmpty is r when it is a non-empty JSON string, else nil.
func nonEmpty(r decode.Raw) decode.Raw {
	if r.IsNonEmptyStr() {
		return r
	}
	return nil
}

// thinkingContent is a thinking frame's optional reasoning text (its
// content member, {content, role: "reasoning"}), nil when it has none: a
// bare thinking frame only says the model is working.
func thinkingContent(f *decode.Frame) decode.Raw {
	if c := f.Get("content"); c.IsNonEmptyStr() {
		return c
	}
	return nil
}
