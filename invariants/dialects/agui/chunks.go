package agui

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// chunkMode is what the client's chunk transformer (client/src/chunks/
// transform.ts) has open: a *_CHUNK event opens a message or tool call
// implicitly, and the transformer closes it (a synthesized *_END) before
// any other event, or when a chunk names another id.
type chunkMode uint8

const (
	chunkNone chunkMode = iota
	chunkText
	chunkTool
	chunkReasoning
)

type chunkState struct {
	mode chunkMode
	// ids holds the pending id (a JSON literal) in one of two buffers: a
	// close move keyed by the old id must survive setting the new one in
	// the same frame.
	ids [2][]byte
	cur int
}

func (c *chunkState) id() decode.Raw { return c.ids[c.cur] }

func (c *chunkState) set(id decode.Raw) {
	c.cur ^= 1
	c.ids[c.cur] = append(c.ids[c.cur][:0], id...)
}

// close makes the move of the transformer's synthesized end.
func (c *chunkState) close(p *mapper, m *invariants.Mapping) {
	switch c.mode {
	case chunkText:
		p.add(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanMessage, Key: c.id()})
	case chunkTool:
		p.add(m, invariants.Move{Kind: invariants.MoveToolClose, Key: c.id()})
	case chunkReasoning:
		p.addSoft(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanReasoning, Key: c.id()})
	}
	c.mode = chunkNone
}

// switches: the chunk continues another pending kind, or names another id.
func (c *chunkState) switches(mode chunkMode, id decode.Raw) bool {
	return c.mode != mode || (id != nil && !bytes.Equal(id, c.id()))
}

// text expands TEXT_MESSAGE_CHUNK into start / content.
func (c *chunkState) text(p *mapper, f *decode.Frame, m *invariants.Mapping) {
	id := str(f.Get("messageId"))
	if c.switches(chunkText, id) {
		c.close(p, m)
	}
	if c.mode != chunkText {
		if id == nil {
			m.Malformed("TEXT_MESSAGE_CHUNK", "the first chunk of a message has no messageId (the client's transformer throws)")
			return
		}
		c.set(id)
		c.mode = chunkText
		role := str(f.Get("role"))
		if role == nil {
			role = nameAssistant
		}
		p.add(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanMessage, Key: id, Name: role})
	}
	if d := str(f.Get("delta")); d != nil {
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanMessage, Key: c.id(), Text: d})
	}
}

// tool expands TOOL_CALL_CHUNK into start / args. The first chunk of a call
// must name it (id and tool name): the transformer throws otherwise.
func (c *chunkState) tool(p *mapper, f *decode.Frame, m *invariants.Mapping) {
	id := str(f.Get("toolCallId"))
	if c.switches(chunkTool, id) {
		c.close(p, m)
	}
	if c.mode != chunkTool {
		name := str(f.Get("toolCallName"))
		switch {
		case id == nil:
			m.Raise("tool-malformed", invariants.SevError, "the first TOOL_CALL_CHUNK of a call has no toolCallId (the client's transformer throws)")
			return
		case name == nil:
			m.Raise("tool-malformed", invariants.SevError, "the first TOOL_CALL_CHUNK of call %s has no toolCallName (the client's transformer throws)", clipRaw(id))
			return
		}
		c.set(id)
		c.mode = chunkTool
		p.add(m, invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
	}
	if d := str(f.Get("delta")); d != nil {
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: c.id(), Text: d})
	}
}

// reasoning expands REASONING_MESSAGE_CHUNK. The transformer switches
// messages only on a non-empty messageId (a truthiness test), but a first
// chunk needs one (even empty).
func (c *chunkState) reasoning(p *mapper, f *decode.Frame, m *invariants.Mapping) {
	id := str(f.Get("messageId"))
	sw := id
	if len(sw) <= 2 {
		sw = nil
	}
	if c.switches(chunkReasoning, sw) {
		c.close(p, m)
	}
	if c.mode != chunkReasoning {
		if id == nil {
			m.Malformed("REASONING_MESSAGE_CHUNK", "the first chunk of a message has no messageId (the client's transformer throws)")
			return
		}
		c.set(id)
		c.mode = chunkReasoning
		p.softOpen(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanReasoning, Key: id, Name: nameReasoning})
	}
	if d := str(f.Get("delta")); d != nil {
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanReasoning, Key: c.id(), Text: d})
	}
}
