package agui

import (
	"framescope/decode"
	"framescope/invariants"
)

// Reasoning phases (REASONING_START / _END) and reasoning messages
// (REASONING_MESSAGE_START / _END, and the starts REASONING_MESSAGE_CHUNK
// expands into) are not tracked by verifyEvents (client/src/verify/verify.ts
// has no REASONING_* case), and the client's reducer (apply/default.ts)
// tolerates every misuse of their boundaries: REASONING_START and _END only
// call subscribers, a second REASONING_MESSAGE_START reuses the message it
// finds by id, and an END for an unknown id logs a console warning and
// changes nothing. So a duplicate open, an orphan close, or one left open at
// RUN_FINISHED departs from the contract without breaking a client: warn.
// A REASONING_MESSAGE_CONTENT for a message never started stays an error
// (the engine's span-orphan): the reducer drops that text.
//
// The deprecated THINKING_* events are different: verifyEvents checks their
// order and throws, so their duplicates and orphans stay errors; only its
// RUN_FINISHED check leaves them out (soft, as above).

// softOpen opens a reasoning span; one already open raises span-duplicate
// at warn and the first open stands (the reducer keeps the message).
func (p *mapper) softOpen(m *invariants.Mapping, mv invariants.Move) {
	if p.run.live && p.open.n < maxOpen {
		if i := p.open.find(mv.Span, false, mv.Key); i >= 0 {
			m.Raise("span-duplicate", invariants.SevWarn, "%s %s opened again; it is open since frame %d (tolerated: the client does not verify reasoning and keeps the open message)",
				spanWhat(mv.Span), clipRaw(mv.Key), p.open.e[i].frame)
			return
		}
	}
	p.addSoft(m, mv)
}

// softClose closes a reasoning span; one not open raises span-orphan at warn
// and makes no move (the reducer ignores it).
func (p *mapper) softClose(m *invariants.Mapping, mv invariants.Move) {
	if p.run.live && p.open.n < maxOpen && p.open.find(mv.Span, false, mv.Key) < 0 {
		m.Raise("span-orphan", invariants.SevWarn, "end of %s %s that is not open (tolerated: the client does not verify reasoning and ignores it)",
			spanWhat(mv.Span), clipRaw(mv.Key))
		return
	}
	p.add(m, mv)
}

// closeSoft closes, before RUN_FINISHED, the reasoning and thinking spans
// the run left open, each with span-unclosed at warn: verifyEvents checks
// only steps, text messages and tool calls there.
func (p *mapper) closeSoft(m *invariants.Mapping) {
	s := &p.open
	for i := 0; i < s.n; i++ {
		e := &s.e[i]
		if !e.soft {
			continue
		}
		key := decode.Raw(e.key)
		if _, open := m.SpanName(e.span, key); open {
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: e.span, Key: key})
			m.Raise("span-unclosed", invariants.SevWarn, "%s %s (opened at frame %d) is still open at RUN_FINISHED (tolerated: the client does not require reasoning closed)",
				spanWhat(e.span), clipRaw(key), e.frame)
		}
	}
}

// spanWhat names a soft span: the phase is a step span, the message a
// reasoning span.
func spanWhat(k invariants.SpanKind) string {
	if k == invariants.SpanStep {
		return "reasoning phase"
	}
	return "reasoning message"
}
