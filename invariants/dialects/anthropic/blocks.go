package anthropic

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// toolBlock is an open content block whose input streams as partial_json
// (tool_use, server_tool_use, mcp_tool_use). Its id is copied: a move may
// only alias the frame being mapped, and input_json_delta frames carry the
// block's index, not the tool id.
type toolBlock struct {
	index int64
	id    []byte // the tool id as a JSON literal
	input jsonScan
}

// toolBlockTypes are the blocks whose input_json_delta builds an input
// object (the SDKs' TRACKS_TOOL_INPUT).
var toolBlockTypes = []string{"tool_use", "server_tool_use", "mcp_tool_use"}

// A server tool's result block type (web_search_tool_result, …) and an
// error result's content type, as the end of their JSON literals.
var resultSuffix, errorSuffix = []byte(`_tool_result"`), []byte(`_error"`)

// delta kinds and the block type each belongs in (the SDKs' accumulators
// apply a delta only to a block of that type and drop it otherwise).
type delta uint8

const (
	dUnknown delta = iota
	dText
	dCitations
	dInputJSON
	dThinking
	dSignature
	dCompaction
)

var deltaNames = [...]string{"", "text_delta", "citations_delta", "input_json_delta", "thinking_delta", "signature_delta", "compaction_delta"}

// deltaField is the member each delta kind must carry, and its JSON kind.
var deltaField = [...]struct {
	name string
	kind decode.Kind
}{{}, {"text", decode.KindString}, {"citation", decode.KindObject}, {"partial_json", decode.KindString},
	{"thinking", decode.KindString}, {"signature", decode.KindString}, {}}

func deltaOf(t decode.Raw) delta {
	b := invariants.StrBytes(t)
	switch string(b) {
	case "text_delta":
		return dText
	case "input_json_delta":
		return dInputJSON
	case "thinking_delta":
		return dThinking
	case "citations_delta":
		return dCitations
	case "signature_delta":
		return dSignature
	case "compaction_delta":
		return dCompaction
	}
	if bytes.IndexByte(b, '\\') >= 0 {
		for i := 1; i < len(deltaNames); i++ {
			if t.StrEq(deltaNames[i]) {
				return delta(i)
			}
		}
	}
	return dUnknown
}

// deltaMembers are the members a content_block_delta's delta is read for,
// in one pass: its type, then each kind's body (deltaField order).
var deltaMembers = []string{"type", "text", "citation", "partial_json", "thinking", "signature"}

// fits reports whether a delta kind belongs in a block of type block.
func (d delta) fits(block string) bool {
	switch d {
	case dText, dCitations:
		return block == "text"
	case dInputJSON:
		return isToolBlock(block)
	case dThinking, dSignature:
		return block == "thinking"
	case dCompaction:
		return block == "compaction"
	}
	return true
}

func (d delta) wants() string {
	switch d {
	case dText, dCitations:
		return "a text block"
	case dInputJSON:
		return "a tool_use, server_tool_use or mcp_tool_use block"
	case dThinking, dSignature:
		return "a thinking block"
	}
	return "a compaction block"
}

func isToolBlock(t string) bool {
	for _, n := range toolBlockTypes {
		if t == n {
			return true
		}
	}
	return false
}

func isToolBlockRaw(t decode.Raw) bool {
	for _, n := range toolBlockTypes {
		if t.StrEq(n) {
			return true
		}
	}
	return false
}

// index reads a block event's index: a non-negative integer.
func index(f *decode.Frame, m *invariants.Mapping, ev string) (decode.Raw, int64, bool) {
	r := f.Get("index")
	n, ok := invariants.Int(r)
	if !ok || n < 0 {
		what := invariants.KindName(r)
		if r.Kind() == decode.KindNumber {
			what = decode.Clip(string(r), 24)
		}
		m.Malformed(ev, "index is "+what+", want a non-negative integer")
		return nil, 0, false
	}
	return r, n, true
}

// blockStart opens a block span (Name: its type); a tool block opens a
// tool call too; a server tool's result block closes its call.
func (p *mapper) blockStart(f *decode.Frame, m *invariants.Mapping) {
	key, n, ok := index(f, m, "content_block_start")
	if !ok {
		return
	}
	cb := f.Get("content_block")
	bt := cb.Get("type")
	if cb.Kind() != decode.KindObject || bt.Kind() != decode.KindString {
		m.Malformed("content_block_start", "content_block is "+invariants.KindName(cb)+" with type "+invariants.KindName(bt)+", want an object with a string type")
		bt = nil
	}
	open := invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanBlock, Key: key, Name: bt}
	if p.ended {
		m.Add(open) // after-terminal; nothing to track
		return
	}
	if _, dup := m.SpanName(invariants.SpanBlock, key); dup {
		m.Add(open) // span-duplicate; the first block keeps its index
		return
	}
	// Indexes are the blocks' positions in the final content array: 0, 1,
	// 2… in order (the SDKs append on start and index on delta).
	m.Add(invariants.Move{Kind: invariants.MoveSeq, Key: litIndexScope, Name: litIndexName, Seq: n, SeqFrom: 0, SeqGap: string(invariants.SevError)})
	m.Add(open)
	switch {
	case bt.StrEq("text"):
		if t := cb.Get("text"); t.IsNonEmptyStr() {
			m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanBlock, Key: key, Text: t})
		}
	case bt.StrEq("thinking"):
		if t := cb.Get("thinking"); t.IsNonEmptyStr() {
			m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanBlock, Key: key, Text: t})
		}
	case isToolBlockRaw(bt):
		p.toolStart(cb, bt, key, n, m)
	case bytes.HasSuffix(bt, resultSuffix):
		p.toolResult(cb, m)
	}
}

// toolStart opens the call (id, name) and starts scanning its input.
func (p *mapper) toolStart(cb, bt, key decode.Raw, n int64, m *invariants.Mapping) {
	id, name := cb.Get("id"), cb.Get("name")
	if id.IsNonEmptyStr() && !name.IsNonEmptyStr() {
		m.Raise("tool-malformed", invariants.SevError, "%s block %s opens a tool call without a name", decode.Clip(string(bt), 40), key)
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
	if !id.IsNonEmptyStr() {
		return // tool-malformed (the Engine): no call to follow
	}
	if len(p.tools) >= maxToolBlocks {
		return // untracked: its deltas and stop pass (the Engine bounds the calls)
	}
	tb := p.newTool()
	tb.index = n
	tb.id = append(tb.id[:0], id...)
	tb.input.reset()
}

// toolResult: a server tool's result block (web_search_tool_result, …)
// answers the call it names; an error result fails it.
func (p *mapper) toolResult(cb decode.Raw, m *invariants.Mapping) {
	id := cb.Get("tool_use_id")
	if !id.IsNonEmptyStr() || !m.ToolIsOpen(id) {
		return // a call from an earlier request, or none
	}
	outcome := invariants.TurnCompleted
	if t := cb.Get("content").Get("type"); bytes.HasSuffix(t, errorSuffix) {
		outcome = invariants.TurnFailed
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Outcome: outcome})
}

// blockDelta: a delta needs an open block of its kind.
func (p *mapper) blockDelta(f *decode.Frame, m *invariants.Mapping) {
	key, n, ok := index(f, m, "content_block_delta")
	if !ok {
		return
	}
	d := f.Get("delta")
	var dm [6]decode.Raw
	d.GetAll(dm[:], deltaMembers...)
	dt := dm[0]
	if d.Kind() != decode.KindObject || dt.Kind() != decode.KindString {
		m.Malformed("content_block_delta", "delta is "+invariants.KindName(d)+" with type "+invariants.KindName(dt)+", want an object with a string type")
		return
	}
	dk := deltaOf(dt)
	var body decode.Raw
	if fld := deltaField[dk]; fld.name != "" {
		if body = dm[dk]; body.Kind() != fld.kind {
			m.Malformed("content_block_delta", deltaNames[dk]+" has "+fld.name+" "+invariants.KindName(body)+", want "+kindWord(fld.kind))
			body = nil
		}
	}
	if p.ended {
		return // after-terminal says it all
	}
	block, open := m.SpanName(invariants.SpanBlock, key)
	if !open {
		m.Raise("span-orphan", invariants.SevError, "content_block_delta for block %d, which is not open", n)
		return
	}
	if dk == dUnknown {
		s, _ := dt.Str()
		m.Raise("event-unknown", invariants.SevInfo, "delta type %q is not in the %s vocabulary; clients ignore it", decode.Clip(s, 40), Dialect.ID)
		return
	}
	if block != "" && !dk.fits(block) {
		m.Raise("span-mismatch", invariants.SevError, "%s into %s block %d; it belongs in %s", deltaNames[dk], decode.Clip(block, 40), n, dk.wants())
		return
	}
	if body == nil && deltaField[dk].name != "" {
		return
	}
	switch dk {
	case dText:
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanBlock, Key: key, Text: body})
	case dThinking:
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanBlock, Key: key, Text: body})
	case dInputJSON:
		if tb := p.tool(n); tb != nil {
			tb.input.feedString(body)
			if m.ToolIsOpen(tb.id) {
				m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: tb.id, Text: body})
			}
		}
	}
}

// blockStop closes the block; a tool block's input must then be a JSON
// object, and the call is complete: the client answers it in its next
// request (tool-ready, so it is no tool-unfinished at a success terminal).
func (p *mapper) blockStop(f *decode.Frame, m *invariants.Mapping) {
	key, n, ok := index(f, m, "content_block_stop")
	if !ok {
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanBlock, Key: key})
	tb := p.tool(n)
	if tb == nil {
		return
	}
	switch {
	case tb.input.valid():
	case tb.input.cut() && len(p.cuts) < maxToolBlocks: // bounded: past that, raised at once
		// Cut short, not broken: with fine-grained tool streaming the API
		// stops a tool input where max_tokens falls (Streaming Messages,
		// "Fine-grained tool streaming"), and message_delta says so only
		// after this stop. Decided at message_stop (settleCut).
		p.cuts = append(p.cuts, cutTool{index: n, frame: f.Index, id: append([]byte(nil), tb.id...), fault: tb.input.fault()})
	default:
		m.Raise("tool-malformed", invariants.SevError, "tool call %s (block %d): its input is not valid JSON at content_block_stop: %s",
			tb.id, n, tb.input.fault())
	}
	if m.ToolIsOpen(tb.id) {
		m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: tb.id})
	}
	p.dropTool(tb)
}

// tool returns the open tool block at index n, or nil.
func (p *mapper) tool(n int64) *toolBlock {
	for i := range p.tools {
		if p.tools[i].index == n {
			return &p.tools[i]
		}
	}
	return nil
}

// maxToolBlocks bounds the tool blocks tracked at once: the API streams
// blocks one after another, so a real message has one open at a time; a
// stream opening a tool block in every frame would grow the list and the
// scan of every delta (issue 24, item 3).
const maxToolBlocks = 64

// newTool adds a tool block, reusing a dropped one's id buffer.
func (p *mapper) newTool() *toolBlock {
	if len(p.tools) < cap(p.tools) {
		p.tools = p.tools[:len(p.tools)+1]
	} else {
		p.tools = append(p.tools, toolBlock{})
	}
	return &p.tools[len(p.tools)-1]
}

// dropTool removes a tool block, keeping its buffer for the next one.
func (p *mapper) dropTool(tb *toolBlock) {
	last := len(p.tools) - 1
	i := 0
	for ; i < last && &p.tools[i] != tb; i++ {
	}
	p.tools[i], p.tools[last] = p.tools[last], p.tools[i]
	p.tools = p.tools[:last]
}

func kindWord(k decode.Kind) string {
	if k == decode.KindObject {
		return "an object"
	}
	return "a string"
}

// cutTool is a tool block whose input stopped before its JSON was complete
// (a prefix of valid JSON): an alarm held until message_stop tells why.
type cutTool struct {
	index int64
	frame int
	id    []byte
	fault string
}

// settleCut decides the tool inputs cut short at their content_block_stop:
// a max_tokens or model_context_window_exceeded stop explains them (the
// turn is incomplete, and the Engine's tool-unfinished warns of the calls
// handed over unfinished), any other stop reason leaves an input the client
// cannot parse: tool-malformed, error. An error terminal explains them too
// (the stream failed).
func (p *mapper) settleCut(m *invariants.Mapping, explained bool) {
	if !explained {
		for _, c := range p.cuts {
			m.Raise("tool-malformed", invariants.SevError, "tool call %s (block %d): its input is not valid JSON at content_block_stop (frame %d): %s",
				c.id, c.index, c.frame, c.fault)
		}
	}
	p.cuts = p.cuts[:0]
}
