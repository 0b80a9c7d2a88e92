package pc3

import (
	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialect"
)

// AppendMoves maps one PC3 frame onto the common turn model.
func AppendMoves(dst []dialect.Move, f *decode.Frame) []dialect.Move {
	if !f.Decoded() {
		return dst
	}
	switch f.Type() {
	case decode.TypeResponseID:
		dst = append(dst, dialect.Move{Kind: dialect.MoveTurnKey, Key: f.ResponseID})
	case decode.TypeText:
		dst = append(dst, dialect.Move{Kind: dialect.MoveText, Text: f.Chunk()})
	case decode.TypeReasoning, decode.TypeThinking:
		dst = append(dst, dialect.Move{Kind: dialect.MoveReasoning, Text: f.Chunk()})
	case decode.TypeToolCall:
		tc := f.Get("tool_call")
		dst = append(dst, dialect.Move{Kind: dialect.MoveToolOpen, Key: tc.Get("id"), Name: tc.Get("name")})
	case decode.TypeToolCompleted:
		tc := f.Get("tool_call")
		dst = append(dst, dialect.Move{Kind: dialect.MoveToolClose, Key: tc.Get("id"), Name: tc.Get("name"), Outcome: invariants.TurnCompleted})
	case decode.TypeDataLoading:
		d := f.Get("data")
		dst = append(dst, dialect.Move{Kind: dialect.MoveSpanOpen, Span: dialect.SpanPlaceholder, Key: d.Get("id"), Name: d.Get("type")})
	case decode.TypeDataLoaded:
		d := f.Get("data")
		dst = append(dst, dialect.Move{Kind: dialect.MoveSpanClose, Span: dialect.SpanPlaceholder, Key: d.Get("id"), Name: d.Get("type")})
	case decode.TypeStatus:
		dst = append(dst, dialect.Move{Kind: dialect.MoveProgress, Text: f.Get("data").Get("message"), Name: f.Get("data").Get("event_id")})
	case decode.TypeError, decode.TypeCompleted, decode.TypeCancelled:
		term := f.Terminal()
		if term == decode.NotTerminal {
			e := f.Get("error")
			dst = append(dst, dialect.Move{Kind: dialect.MoveError, Code: e.Get("code"), Text: e.Get("message")})
			break
		}
		outcome := invariants.TurnFailed
		switch term {
		case decode.TerminalCompleted:
			outcome = invariants.TurnCompleted
		case decode.TerminalCancelled:
			outcome = invariants.TurnCancelled
		}
		dst = append(dst, dialect.Move{Kind: dialect.MoveTerminal, Outcome: outcome, Name: f.EventType,
			Code: f.Get("error").Get("code")})
	}
	return dst
}
