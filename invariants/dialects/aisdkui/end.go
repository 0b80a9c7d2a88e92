package aisdkui

import (
	"framescope/invariants"
)

// The end of a stream that sent neither finish nor abort. streamText has
// three ways to fail (packages/ai/src/generate-text/stream-text.ts): a
// model error inside a step is an error chunk, then finish-step and finish
// with finishReason "error"; a failure before the first step (a rate
// limit, say) or when a continuation step cannot start is an error chunk
// and nothing more, so the stream is start → error → [DONE]. useChat
// rethrows the error chunk (Chat.makeRequest: status "error", isError), so
// that error ends the message: the turn failed, at the stream's end.
//
// Without an error chunk, a stream that [DONE] closes before finish is
// taken as done by useChat (consumeStream returns, status "ready", onFinish
// with isError false and no finishReason): terminal-missing at warn, the
// one alarm (done-early would say it again). A stream that ends with
// neither finish nor [DONE] was cut — every SDK server closes with [DONE]
// (JsonToSseTransformStream's flush) — and keeps the engine's
// terminal-missing: error, info when the client cancelled.

var litError = invariants.Lit("error")

// MapDone settles the message at [DONE].
func (p *mapper) MapDone(m *invariants.Mapping) {
	if p.ended {
		return
	}
	if p.failed(m) {
		return
	}
	p.ended = true
	m.Raise("terminal-missing", invariants.SevWarn, "[DONE] closed the stream before finish or abort: useChat takes the message as done, with no finishReason")
	// The server ended the stream: nothing more is owed, so the engine's
	// done-early (the same defect) does not follow.
	m.Add(invariants.Move{Kind: invariants.MoveCut})
}

// EndStream settles the message when the stream ends without [DONE].
func (p *mapper) EndStream(m *invariants.Mapping) {
	if !p.ended {
		p.failed(m)
	}
}

// failed ends the message at its error chunk, when it had one.
func (p *mapper) failed(m *invariants.Mapping) bool {
	if p.errText == nil {
		return false
	}
	p.terminal(m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError, Text: p.errText})
	return true
}
