package aisdkui

import (
	"framescope/decode"
	"framescope/invariants"
)

// The mapper keeps what the engine does not expose but the protocol needs:
// which text and reasoning parts are open (finish-step and reset-step close
// them all), and per tool call whether it began with tool-input-start (only
// such a call takes tool-input-delta), its name (tool-mismatch against
// tool-input-available) and the step it belongs to (reset-step discards the
// current step's calls). Keys are the JSON literals as on the wire, like the
// engine's. Only opens store anything; deltas look up without allocating.

// maxParts bounds the open parts tracked at once.
const maxParts = 1024

// part is an open text or reasoning part.
type part struct {
	kind invariants.SpanKind
	id   []byte // JSON literal, copied from the frame
}

// tool is one tool call of the stream (kept after it closes, so that a
// second open is told from a first).
type tool struct {
	id      []byte // JSON literal
	name    string // decoded toolName at open ("" when none)
	started bool   // opened by tool-input-start
	// dynamic: tool-input-start said dynamic: true. The client keeps a
	// dynamic call in a "dynamic-tool" part and a static one in a
	// "tool-NAME" part, and looks tool-input-available's part up by that
	// kind: a flag that changes between the two makes a second part.
	dynamic bool
	ready   bool // input available (or awaiting approval)
	open    bool
	// inputErr: the call ended with tool-input-error. streamText follows
	// an invalid call's tool-input-error with a tool-output-error for the
	// same id (stream-text.test.ts "should add tool call and result error
	// parts to the ui message stream"); the client updates the same part.
	inputErr bool
	step     int // the step it was opened in (mapper.step at the time)
}

func (p *mapper) openPart(kind invariants.SpanKind, id decode.Raw) {
	for i := range p.parts {
		if p.parts[i].kind == kind && string(p.parts[i].id) == string(id) {
			return // a duplicate open: the engine reports it
		}
	}
	if len(p.parts) >= maxParts {
		return // a pathological stream: stop tracking rather than slow down
	}
	p.parts = append(p.parts, part{kind: kind, id: append([]byte(nil), id...)})
}

// partOpen reports whether a text or reasoning part is open.
func (p *mapper) partOpen(kind invariants.SpanKind, id decode.Raw) bool {
	for i := range p.parts {
		if p.parts[i].kind == kind && string(p.parts[i].id) == string(id) {
			return true
		}
	}
	return false
}

func (p *mapper) closePart(kind invariants.SpanKind, id decode.Raw) {
	for i := range p.parts {
		if p.parts[i].kind == kind && string(p.parts[i].id) == string(id) {
			p.parts = append(p.parts[:i], p.parts[i+1:]...)
			return
		}
	}
}

// closeParts closes every open text and reasoning part (finish-step,
// reset-step): the SDK client drops its active parts there. The moves
// alias the mapper's copies, which stay untouched until the next frame.
func (p *mapper) closeParts(m *invariants.Mapping) {
	p.endParts(m)
	p.parts = p.parts[:0]
}

// endParts closes every open part for the engine and keeps the mapper's
// list (abort: the client keeps its active parts).
func (p *mapper) endParts(m *invariants.Mapping) {
	for i := range p.parts {
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: p.parts[i].kind, Key: p.parts[i].id})
	}
}

func (p *mapper) tool(id decode.Raw) *tool {
	if i, ok := p.toolIndex[string(id)]; ok {
		return &p.tools[i]
	}
	return nil
}

func (p *mapper) addTool(id, name decode.Raw, started bool) *tool {
	if p.toolIndex == nil {
		p.toolIndex = map[string]int{}
	}
	n, _ := name.Str()
	if i, ok := p.toolIndex[string(id)]; ok {
		t := &p.tools[i]
		t.name, t.started, t.ready, t.open, t.inputErr, t.step, t.dynamic = n, started, false, true, false, p.step, false
		return t
	}
	if len(p.tools) >= maxTools && !p.makeRoom() {
		// Past the bound the call is not tracked (the engine, holding at
		// least as many open ids, raised id-limit): a scratch entry.
		p.spare = tool{name: n, started: started, open: true, step: p.step}
		return &p.spare
	}
	p.toolIndex[string(id)] = len(p.tools)
	p.tools = append(p.tools, tool{id: append([]byte(nil), id...), name: n, started: started, open: true, step: p.step})
	return &p.tools[len(p.tools)-1]
}

// maxTools bounds the tool calls the mapper knows in a stream (issue 24,
// item 3): past it the finished ones are forgotten (a second open of one
// of them is then not told from a first), and while it is full of open
// calls a new one is not tracked.
const maxTools = 16 << 10

// makeRoom forgets the finished tool calls and reports whether there is
// room for one more. While the calls are all open, it sweeps again only
// after maxTools/2 more refusals: each sweep costs the whole list.
func (p *mapper) makeRoom() bool {
	if p.refused%(maxTools/2) == 0 {
		kept := p.tools[:0]
		clear(p.toolIndex)
		for _, t := range p.tools {
			if t.open {
				p.toolIndex[string(t.id)] = len(kept)
				kept = append(kept, t)
			}
		}
		clear(p.tools[len(kept):])
		p.tools = kept
	}
	if len(p.tools) < maxTools {
		p.refused = 0
		return true
	}
	p.refused++
	return false
}
