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
// one alarm (done-early would say it again). A stream that just ends, with
// neither finish nor [DONE], is read the same way by useChat: the fetch
// body closes, consumeStream returns and the message shows as done, so it
// is terminal-missing at warn as well (every SDK server closes with [DONE],
// JsonToSseTransformStream's flush, so the server was cut short). A
// transport error is the client's error (the fetch rejects): the engine's
// terminal-missing, at error; a client cancel, at info.

var litError = invariants.Lit("error")

// MapDone settles the message at [DONE].
func (p *mapper) MapDone(m *invariants.Mapping) {
	p.done = true
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
	if p.ended || p.failed(m) || !m.EndedAtEOF() || !m.TurnOpen() {
		return
	}
	p.ended = true
	m.Raise("terminal-missing", invariants.SevWarn, "the stream ended before finish, abort or [DONE]: useChat takes the message as done, with no finishReason")
}

// failed ends the message at its error chunk, when it had one.
func (p *mapper) failed(m *invariants.Mapping) bool {
	if p.errText == nil {
		return false
	}
	// The failure cut what was streaming (createUIMessageStream's execute
	// throwing mid-step: its onError writes the error chunk and the stream
	// closes): the step and its parts end with it, as at abort — the error
	// chunk already says the message failed.
	p.closeParts(m)
	p.closeStep(m)
	p.terminal(m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError, Text: p.errText})
	return true
}
