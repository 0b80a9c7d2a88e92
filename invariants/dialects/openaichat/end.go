package openaichat

import (
	"bytes"

	"framescope/invariants"
)

// MapDone settles the completion at [DONE].
func (p *mapper) MapDone(m *invariants.Mapping) { p.settle(m, true) }

// EndStream settles it when the stream ends without [DONE]; a complete
// completion then gets the engine's done-missing.
func (p *mapper) EndStream(m *invariants.Mapping) { p.settle(m, false) }

// settle makes the turn's terminal once every choice has finished — its
// outcome is the worst any choice finished with, its name that choice's
// finish_reason — or raises terminal-missing once per choice that has
// not.
//
// A choice without finish_reason is one defect, whether [DONE] or the end
// of the stream shows it: the client's completion lacks it (openai-node's
// ChatCompletionStream throws "missing finish_reason for choice N").
// terminal-missing names it; at [DONE] the mapper ends the completion
// itself (incomplete, its tool calls closed with it) so that
// the engine adds no done-early for the same defect. done-early stays for
// a [DONE] before any chunk.
func (p *mapper) settle(m *invariants.Mapping, done bool) {
	if p.ended {
		return
	}
	p.ended = true
	if len(p.choices) == 0 {
		// Only a usage or prompt-filter chunk: at [DONE] the completion
		// has no answer at all, one terminal-missing; at the end of the
		// stream the engine's own says it.
		if done {
			m.Raise("terminal-missing", invariants.SevError, "[DONE] arrived and no choice was streamed")
			m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnIncomplete, Name: litDone})
		}
		return
	}
	for i := range p.choices {
		// A complete audio that ended on its expires_at-only delta is a
		// finished choice for openai-node: finish_reason "stop" (readAudio).
		if c := &p.choices[i]; c.finish == finishNone && c.audioEnd >= 0 && c.audio == audioComplete {
			c.finish, c.frame = finishStop, c.audioEnd
		}
	}
	unfinished := false
	sev := invariants.SevError
	if m.ClientEnded() {
		sev = invariants.SevInfo // the client cancelled: nothing more was owed to it
	}
	for _, c := range p.choices {
		if c.finish != finishNone {
			continue
		}
		unfinished = true
		if done {
			m.Raise("terminal-missing", sev, "choice %d has no finish_reason at [DONE]", c.index)
		} else {
			m.RaiseNoFrame("terminal-missing", sev, "choice %d has no finish_reason at the end of the stream", c.index)
		}
	}
	p.checkRoles(m, done)
	if unfinished {
		if done {
			p.closeTools(m)
			m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnIncomplete, Name: litDone})
		}
		return
	}
	best, bestRank, last := p.choices[0].finish, -1, 0
	for _, c := range p.choices {
		if _, rank, _ := outcomeOf(c.finish); rank > bestRank {
			best, bestRank = c.finish, rank
		}
		last = max(last, c.frame)
	}
	outcome, _, name := outcomeOf(best)
	// The client read the end from the last finish_reason chunk (the
	// completion's finish_reason is known once every choice has one):
	// that chunk carried the terminal, [DONE] only settles it.
	// A provider that documents no [DONE] (noDone) ends here: Final, no
	// done-missing.
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: name, Carrier: last + 1, Final: !done && noDone(p.flavor)})
}

// closeTools ends every open call when the completion ends incomplete at
// [DONE]: the calls end with it, and terminal-missing already says what
// broke (a finished choice's calls are complete, an unfinished one's go
// with its terminal-missing).
func (p *mapper) closeTools(m *invariants.Mapping) {
	for i := range p.tools {
		// Only calls the engine holds open, each id once (a duplicate id it
		// refused is no second call).
		if t := &p.tools[i]; t.open && m.ToolIsOpen(t.id) && !p.idBefore(i) {
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: t.id, Outcome: invariants.TurnIncomplete})
		}
	}
}

// idBefore: an earlier open call has tools[i]'s id.
func (p *mapper) idBefore(i int) bool {
	for j := range i {
		if p.tools[j].open && bytes.Equal(p.tools[j].id, p.tools[i].id) {
			return true
		}
	}
	return false
}

// checkRoles raises role-missing for each finished choice none of whose
// deltas carried a role: openai-node's ChatCompletionStream throws
// "missing role for choice N" when it builds the final completion
// (src/lib/ChatCompletionStream.ts). The reference's ChoiceDelta.role is
// optional and openai-python and the AI SDK do without, but the stream
// helper of the Node SDK does not. An unfinished choice has its
// terminal-missing, which openai-node throws first.
//
// The severity follows the flavor: read as OpenAI's (openai, azure, or no
// provider mark) the helper is the client to satisfy, an error. Under
// another provider's flavor (Groq's compound models, Mistral-served models
// send no role in any delta) the provider's own SDK and the common clients
// read it and only that helper throws: a warn naming it.
func (p *mapper) checkRoles(m *invariants.Mapping, done bool) {
	sev, who := invariants.SevError, ""
	if !openAIHelperError(p.flavor) {
		sev, who = invariants.SevWarn, " (the "+p.flavor+" flavor: its own SDK, openai-python and the AI SDK read it; only that helper breaks)"
	}
	for _, c := range p.choices {
		if c.role || c.finish == finishNone {
			continue
		}
		if done {
			m.Raise("role-missing", sev, "choice %d ended and none of its deltas carried a role; openai-node's ChatCompletionStream throws \"missing role for choice %d\"%s", c.index, c.index, who)
		} else {
			m.RaiseNoFrame("role-missing", sev, "choice %d ended and none of its deltas carried a role; openai-node's ChatCompletionStream throws \"missing role for choice %d\"%s", c.index, c.index, who)
		}
	}
}
