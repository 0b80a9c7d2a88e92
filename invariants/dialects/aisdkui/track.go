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
	ready   bool   // input available (or awaiting approval)
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
	for i := range p.parts {
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: p.parts[i].kind, Key: p.parts[i].id})
	}
	p.parts = p.parts[:0]
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
		t.name, t.started, t.ready, t.open, t.inputErr, t.step = n, started, false, true, false, p.step
		return t
	}
	p.toolIndex[string(id)] = len(p.tools)
	p.tools = append(p.tools, tool{id: append([]byte(nil), id...), name: n, started: started, open: true, step: p.step})
	return &p.tools[len(p.tools)-1]
}
