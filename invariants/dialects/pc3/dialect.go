// Package pc3 is the PC3 wire (v0.5 and v0.4), framescope's first dialect,
// in one room: its vocabulary — the envelope and payload views of a decoded
// frame, and the keys it declares for the decoder to index (envelope.go,
// views.go) —, its rule catalog (catalog.go) and the Checker that raises
// it (checker.go, payload.go, leak.go, timestamp.go) with the status-event
// registry it checks status ids against (registry.go), the reference client
// state machine (client*.go) and its document (reference*.go), and the
// dialect face the registry lists (dialect.go: detection, labels, moves).
// PC3 keeps a checker of its own rather than the Engine (a golden test
// holds every report to the byte); it is an invariants.Native dialect.
package pc3

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// Dialect is PC3.
var Dialect invariants.Dialect = pc3{}

type pc3 struct{}

func (pc3) Name() string { return "pc3" }
func (pc3) Description() string {
	return "PC3 agent-stream wire v0.5/v0.4: event_type + version + response_id envelope, terminal completed/error/cancelled, [DONE]"
}

// EnvelopeKeys: event_type names a PC3 frame.
func (pc3) EnvelopeKeys() []string { return []string{"event_type"} }

// Sniff: PC3's signature is its envelope, never one generic key. An
// event_type string with the version key, or version with response_id
// (event_type missing or broken), says Yes. An event_type alone says Maybe
// only when it names a PC3 event (a frame that lost its version is still
// PC3's): other wires use event_type too (Gemini's Interactions API sends
// "interaction.created", "step.delta"), and they are not PC3.
func (pc3) Sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	et := EventType(f).Kind() == decode.KindString
	switch {
	case et && Version(f) != nil, Version(f) != nil && ResponseID(f) != nil:
		return invariants.Yes
	case et && KnownType(Type(f)):
		return invariants.Maybe
	}
	return invariants.No
}

// NativeEnvelope: PC3 is checked by its own Checker, which reads its
// typed envelope (envelope.go, views.go; invariants.Native).
func (pc3) NativeEnvelope() {}

// IndexKeys: the envelope and the payload keys the views read
// (invariants.KeyIndexer).
func (pc3) IndexKeys() *decode.Keys { return Keys }

func (pc3) Label(f *decode.Frame) string {
	if t := Type(f); t != "" {
		return t
	}
	if f.HasType {
		return f.Event.Type
	}
	return ""
}

func (pc3) Rules() []invariants.Rule {
	return append([]invariants.Rule(nil), Catalog...)
}

func (pc3) NewChecker(opts invariants.Options) invariants.Checker {
	return &checker{Checker: New(opts)}
}

// checker is PC3's own checker plus the moves of each frame, mapped only
// when asked for (check never asks: its hot path stays PC3's own).
type checker struct {
	*Checker
	last   *decode.Frame // the frame last observed (valid until the next)
	mapped bool
	moves  []invariants.Move
}

// Block: PC3 comments do not reset the idle timer (docs/rules.md
// conventions); one before the first frame is the response's first byte.
func (c *checker) Block(_ *decode.Event, arrival time.Duration, hasArrival bool) {
	if hasArrival {
		c.FirstByte(arrival)
	}
}

// Moves are the frame's moves (AppendMoves); a terminal in a turn its
// [DONE] already closed is Late: the checker keeps no terminal from it.
func (c *checker) Moves() []invariants.Move {
	if !c.mapped && c.last != nil {
		c.moves, c.mapped = AppendMoves(c.moves[:0], c.last), true
		if c.cur != nil && c.cur.closed {
			for i := range c.moves {
				if c.moves[i].Kind == invariants.MoveTerminal {
					c.moves[i].Late = true
				}
			}
		}
	}
	return c.moves
}
func (c *checker) Turn() int { return c.CurrentTurn() }

func (c *checker) Observe(f *decode.Frame) []invariants.Alarm {
	c.last, c.mapped = f, false
	c.moves = c.moves[:0]
	return c.Checker.Observe(f)
}
