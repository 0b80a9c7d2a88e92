package openaichat

import (
	"framescope/invariants"
)

// MapDone settles the completion at [DONE]: every choice must have its
// finish_reason by then (the engine adds done-early when one has not).
func (p *mapper) MapDone(m *invariants.Mapping) { p.settle(m, "[DONE]") }

// EndStream settles it when the stream ends without [DONE]; a complete
// completion then gets the engine's done-missing.
func (p *mapper) EndStream(m *invariants.Mapping) { p.settle(m, "the end of the stream") }

// settle makes the turn's terminal once every choice has finished — its
// outcome is the worst any choice finished with, its name that choice's
// finish_reason — or raises terminal-missing once per choice that has
// not. With no choice at all (only Azure's prompt filter, or a usage
// chunk), the engine's own terminal-missing speaks for the completion.
func (p *mapper) settle(m *invariants.Mapping, when string) {
	if p.ended {
		return
	}
	p.ended = true
	if len(p.choices) == 0 {
		return
	}
	unfinished := false
	sev := invariants.SevError
	if m.ClientEnded() {
		sev = invariants.SevInfo // the client cancelled: nothing more was owed to it
	}
	for _, c := range p.choices {
		if c.finish == finishNone {
			unfinished = true
			m.RaiseNoFrame("terminal-missing", sev, "choice %d has no finish_reason at %s", c.index, when)
		}
	}
	if unfinished {
		return
	}
	best, bestRank := p.choices[0].finish, -1
	for _, c := range p.choices {
		if _, rank, _ := outcomeOf(c.finish); rank > bestRank {
			best, bestRank = c.finish, rank
		}
	}
	outcome, _, name := outcomeOf(best)
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: name})
}
