package pc3

import (
	"framescope/decode"
	"framescope/invariants"
)

// AppendMoves maps one PC3 frame onto the common turn model.
func AppendMoves(dst []invariants.Move, f *decode.Frame) []invariants.Move {
	if !f.Decoded() {
		return dst
	}
	switch f.Type() {
	case decode.TypeResponseID:
		dst = append(dst, invariants.Move{Kind: invariants.MoveTurnKey, Key: f.ResponseID})
	case decode.TypeText:
		dst = append(dst, invariants.Move{Kind: invariants.MoveText, Text: f.Chunk()})
	case decode.TypeReasoning:
		dst = append(dst, invariants.Move{Kind: invariants.MoveReasoning, Text: f.Chunk()})
	case decode.TypeThinking:
		// A pre-content indicator (clients MAY ignore it): reasoning only
		// when it carries its optional content.
		if c := thinkingContent(f); c != nil {
			dst = append(dst, invariants.Move{Kind: invariants.MoveReasoning, Text: c})
		}
	case decode.TypeToolCall:
		tc := f.Get("tool_call")
		dst = append(dst, invariants.Move{Kind: invariants.MoveToolOpen, Key: tc.Get("id"), Name: tc.Get("name")})
	case decode.TypeToolCompleted:
		tc := f.Get("tool_call")
		dst = append(dst, invariants.Move{Kind: invariants.MoveToolClose, Key: tc.Get("id"), Name: tc.Get("name"), Outcome: invariants.TurnCompleted})
	case decode.TypeDataLoading:
		d := f.Get("data")
		dst = append(dst, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanPlaceholder, Key: d.Get("id"), Name: d.Get("type")})
	case decode.TypeDataLoaded:
		d := f.Get("data")
		dst = append(dst, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanPlaceholder, Key: d.Get("id"), Name: d.Get("type")})
	case decode.TypeStatus:
		dst = append(dst, invariants.Move{Kind: invariants.MoveProgress, Text: f.Get("data").Get("message"), Name: f.Get("data").Get("event_id")})
	case decode.TypeError, decode.TypeCompleted, decode.TypeCancelled:
		term := f.Terminal()
		if term == decode.NotTerminal {
			e := f.Get("error")
			dst = append(dst, invariants.Move{Kind: invariants.MoveError, Code: e.Get("code"), Text: e.Get("message")})
			break
		}
		outcome := invariants.TurnFailed
		switch term {
		case decode.TerminalCompleted:
			outcome = invariants.TurnCompleted
		case decode.TerminalCancelled:
			outcome = invariants.TurnCancelled
		}
		dst = append(dst, invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: f.EventType,
			Code: f.Get("error").Get("code")})
	}
	return dst
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
