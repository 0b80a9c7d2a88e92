package openairesponses

import (
	"framescope/decode"
	"framescope/invariants"
)

// Output items are spans keyed by output_index, the key every item event
// carries and the one the SDKs index their snapshot with (item ids are not
// stable through every proxy: GitHub Copilot rotates them per event).

// itemAdded opens an output item, and the tool call it carries.
func (p *mapper) itemAdded(f *decode.Frame, m *invariants.Mapping, ev *event) {
	oiRaw, oi, ok := p.index(f, m, ev, "output_index")
	if !ok {
		return
	}
	item := f.Get("item")
	itype := item.Get("type")
	if item.Kind() != decode.KindObject || itype.Kind() != decode.KindString {
		p.malformed(m, ev.name, "item.type is "+invariants.KindName(itype)+", want a string")
		itype = nil
	}
	if _, open := m.SpanName(invariants.SpanItem, oiRaw); open {
		// span-duplicate (the Engine reports it, once: not also as out of
		// order); the open item keeps its call.
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: oiRaw, Name: itype})
		return
	}
	p.order(m, oi)
	if itype != nil && !oneOf(itype, hostedTools) && !item.Get("id").IsNonEmptyStr() {
		// The AI SDK's chunk schema requires item.id on every item type (an
		// item without one falls to its unknown-chunk fallback: the message,
		// reasoning or tool call is dropped); openai-node throws ("expected a
		// non-empty output item id", getOutputItemIdentityKeys) for all but
		// function and custom tool calls. A hosted call without id is
		// tool-malformed instead.
		p.malformed(m, ev.name, "item.id is "+invariants.KindName(item.Get("id"))+", want a non-empty string")
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: oiRaw, Name: itype})
	p.free(oi) // a reused index forgets the closed item's call
	p.track(oi, item.Get("id"))
	switch {
	case oneOf(itype, clientTools):
		key, name := item.Get("call_id"), itype
		if itype.StrEq("function_call") || itype.StrEq("custom_tool_call") {
			if name = item.Get("name"); !name.IsNonEmptyStr() {
				m.Raise("tool-malformed", invariants.SevError, "%s: %s item without a name (name is %s)", ev.name, clipRaw(itype), invariants.KindName(name))
				name = nil
			}
		}
		p.openTool(m, ev, oi, key, name, false)
	case oneOf(itype, hostedTools):
		name := itype
		if itype.StrEq("mcp_call") && item.Get("name").IsNonEmptyStr() {
			name = item.Get("name")
		}
		p.openTool(m, ev, oi, item.Get("id"), name, true)
	}
}

// order raises output-index-order when an item is not added at the next
// index. In a resumed stream the first added item sets the count.
func (p *mapper) order(m *invariants.Mapping, oi int64) {
	if p.firstAdded < 0 {
		p.firstAdded = oi
	}
	if p.nextIndex >= 0 && oi != p.nextIndex {
		m.Raise("output-index-order", invariants.SevError, "output_item.added at output_index %d, want %d (items are added in order)", oi, p.nextIndex)
	}
	if oi >= p.nextIndex {
		p.nextIndex = oi + 1
	}
}

// openTool opens a tool call and remembers it in the item's slot.
func (p *mapper) openTool(m *invariants.Mapping, ev *event, oi int64, key, name decode.Raw, hosted bool) {
	if key.Kind() != decode.KindString && key.Kind() != decode.KindNone && key.Kind() != decode.KindNull {
		m.Raise("tool-malformed", invariants.SevError, "%s: the call's id is %s, want a string", ev.name, invariants.KindName(key))
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: key, Name: name})
	if !key.IsNonEmptyStr() {
		return // tool-malformed (the Engine): no call to follow
	}
	s := p.slot(oi)
	if s == nil {
		return
	}
	s.tool, s.hosted = true, hosted
	s.key = append(s.key[:0], key...)
	s.name = append(s.name[:0], name...)
}

// itemDone closes an output item: a client tool's input is complete
// (ready), a hosted call still open ends with the item's status, a
// *_output item answers the call it names.
func (p *mapper) itemDone(f *decode.Frame, m *invariants.Mapping, ev *event) {
	oiRaw, oi, ok := p.index(f, m, ev, "output_index")
	if !ok {
		return
	}
	item := f.Get("item")
	itype := item.Get("type")
	if item.Kind() != decode.KindObject || itype.Kind() != decode.KindString {
		p.malformed(m, ev.name, "item.type is "+invariants.KindName(itype)+", want a string")
		itype = nil
	}
	name, open := m.SpanName(invariants.SpanItem, oiRaw)
	if !open && p.preResume(oi) {
		p.carried(oi)
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: oiRaw})
	}
	if open && name != "" && itype != nil && !itype.StrEq(name) {
		m.Raise("span-mismatch", invariants.SevError, "%s: item %d was added as %q and is done as %s", ev.name, oi, name, clipRaw(itype))
	}
	if s := p.find(oi); s != nil && open {
		p.sameItem(m, ev, s, oi, item.Get("id"))
		if s.tool {
			p.toolDone(m, ev, s, item)
		}
	}
	if cid := item.Get("call_id"); isOutputItem(itype) && cid.IsNonEmptyStr() && m.ToolIsOpen(cid) {
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: cid, Outcome: invariants.TurnCompleted})
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: oiRaw})
	p.free(oi)
}

func (p *mapper) toolDone(m *invariants.Mapping, ev *event, s *slot, item decode.Raw) {
	key := decode.Raw(s.key)
	if s.hosted {
		if m.ToolIsOpen(key) {
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key, Outcome: statusOutcome(item.Get("status"))})
		}
		return
	}
	if cid := item.Get("call_id"); cid.Kind() == decode.KindString && string(cid) != string(s.key) {
		m.Raise("tool-mismatch", invariants.SevError, "%s: the call opened as %s is done as call_id %s", ev.name, clipRaw(key), clipRaw(cid))
	}
	if n := item.Get("name"); n.Kind() == decode.KindString && len(s.name) > 0 && string(n) != string(s.name) {
		m.Raise("tool-mismatch", invariants.SevError, "%s: call %s opened as %s is done as %s", ev.name, clipRaw(key), clipRaw(s.name), clipRaw(n))
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
}

// itemEvent maps an event inside an output item: a part, a summary part, a
// delta, a tool's input or status.
func (p *mapper) itemEvent(f *decode.Frame, m *invariants.Mapping, ev *event) {
	if !ev.noItemID {
		p.str(f, m, ev, "item_id")
	}
	if ev.delta && !p.str(f, m, ev, "delta") {
		return
	}
	oiRaw, oi, ok := p.index(f, m, ev, "output_index")
	if !ok {
		return
	}
	if !p.inItem(m, ev, oiRaw, oi) {
		p.orphanMoves(f, m, ev)
		return
	}
	if s := p.find(oi); s != nil && !ev.noItemID {
		p.sameItem(m, ev, s, oi, f.Get("item_id"))
	}
	switch ev.scope {
	case scopePart:
		p.partEvent(f, m, ev, oiRaw, oi, invariants.SpanPart, "content_index")
		return
	case scopeSummary:
		p.partEvent(f, m, ev, oiRaw, oi, invariants.SpanReasoning, "summary_index")
		return
	}
	if ev.settles {
		p.list(oi)
	}
	s := p.find(oi)
	if s != nil && !s.tool {
		s = nil
	}
	switch ev.act {
	case actArgs:
		if s != nil {
			m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: decode.Raw(s.key), Text: textOf(f.Get("delta"))})
		}
	case actProgress:
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: ev.line})
	case actErrorLine:
		m.Add(invariants.Move{Kind: invariants.MoveError, Text: ev.line})
	case actToolDone, actToolFailed:
		if s != nil && s.hosted {
			outcome := invariants.TurnCompleted
			if ev.act == actToolFailed {
				outcome = invariants.TurnFailed
			}
			// A second status for a closed call is the Engine's tool-orphan.
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: decode.Raw(s.key), Outcome: outcome})
		}
	}
}

// inItem checks that the event names an open item of the right type. A
// closed or never-added item is span-orphan (one alarm for the frame);
// in a resumed stream an item added before the resume point opens here.
func (p *mapper) inItem(m *invariants.Mapping, ev *event, oiRaw decode.Raw, oi int64) bool {
	name, open := m.SpanName(invariants.SpanItem, oiRaw)
	if !open {
		if p.ended {
			// After the terminal the engine's after-terminal is the one
			// alarm of the late frame (its items were closed with the turn).
			return false
		}
		if p.preResume(oi) {
			p.carried(oi)
			m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: oiRaw})
			return true
		}
		m.Raise("span-orphan", invariants.SevError, "%s for item %d that is not open", ev.name, oi)
		return false
	}
	if ev.item != "" && name != "" && name != ev.item {
		m.Raise("span-mismatch", invariants.SevError, "%s into item %d, a %q (want %s)", ev.name, oi, name, ev.item)
	}
	return true
}

// orphanMoves keeps what a client still shows of an orphan event (its
// text), without a span the Engine would report a second time.
func (p *mapper) orphanMoves(f *decode.Frame, m *invariants.Mapping, ev *event) {
	switch ev.act {
	case actText:
		m.Add(invariants.Move{Kind: invariants.MoveText, Text: textOf(f.Get("delta"))})
	case actReasoning:
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Text: textOf(f.Get("delta"))})
	}
}

// partEvent maps a content part or summary part event, keyed
// [output_index, content_index | summary_index].
func (p *mapper) partEvent(f *decode.Frame, m *invariants.Mapping, ev *event, oiRaw decode.Raw, oi int64, kind invariants.SpanKind, field string) {
	_, idx, ok := p.index(f, m, ev, field)
	if !ok {
		return
	}
	key := p.partKey(oi, idx)
	name, open := m.SpanName(kind, key)
	if !open && ev.act != actOpen && p.preResume(oi) {
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: kind, Key: key})
		open = true
	}
	if !open && ev.act != actOpen {
		if s := p.find(oi); s != nil {
			if s.strayPart {
				p.orphanMoves(f, m, ev)
				return
			}
			s.strayPart = true
		}
	}
	if open && ev.part != "" && name != "" && name != ev.part {
		m.Raise("span-mismatch", invariants.SevError, "%s into %s %s, a %q part (want %s)", ev.name, kind, key, name, ev.part)
	}
	if ev.act == actOpen && !open {
		p.partOrder(m, ev, oi, idx, kind)
	}
	switch ev.act {
	case actOpen:
		part := f.Get("part")
		ptype := part.Get("type")
		if ptype.Kind() != decode.KindString {
			p.malformed(m, ev.name, "part.type is "+invariants.KindName(ptype)+", want a string")
			ptype = nil
		} else if want := partItem(ptype); want != "" {
			if iname, _ := m.SpanName(invariants.SpanItem, oiRaw); iname != "" && iname != want {
				m.Raise("span-mismatch", invariants.SevError, "%s: a %s part in item %d, a %q (want %s)", ev.name, clipRaw(ptype), oi, iname, want)
			}
		}
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: kind, Key: key, Name: ptype})
	case actClose:
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: kind, Key: key})
	case actText:
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: kind, Key: key, Text: textOf(f.Get("delta"))})
	case actReasoning:
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: kind, Key: key, Text: textOf(f.Get("delta"))})
	case actCheck:
		if !open {
			m.Raise("span-orphan", invariants.SevError, "%s for %s %s that is not open", ev.name, kind, key)
		} else if ev.annotation {
			p.annotation(f, m, ev, oi, idx)
		}
	}
}

// textOf is a delta as text: a string, else nothing (the 2025-05 shape
// typed some deltas as objects).
func textOf(r decode.Raw) decode.Raw {
	if r.Kind() != decode.KindString {
		return nil
	}
	return r
}

// partItem is the item type a content part type belongs in.
func partItem(ptype decode.Raw) string {
	switch {
	case ptype.StrEq("output_text"), ptype.StrEq("refusal"):
		return "message"
	case ptype.StrEq("reasoning_text"):
		return "reasoning"
	}
	return ""
}

// isOutputItem: the item reports a tool's result (shell_call_output, …).
func isOutputItem(itype decode.Raw) bool {
	const suffix = `_output"`
	return len(itype) > len(suffix) && string(itype[len(itype)-len(suffix):]) == suffix
}

// statusOutcome maps an item's status onto a tool outcome.
func statusOutcome(status decode.Raw) string {
	switch {
	case status.StrEq("failed"):
		return invariants.TurnFailed
	case status.StrEq("incomplete"):
		return invariants.TurnIncomplete
	}
	return invariants.TurnCompleted
}

// carried: a resumed stream names an item added before the resume point;
// items added from now on come after it.
func (p *mapper) carried(oi int64) {
	if oi+1 > p.nextIndex {
		p.nextIndex = oi + 1
	}
}

// preResume: in a resumed stream, an item below the first one this stream
// added (or any item before one was added) began before the resume point.
func (p *mapper) preResume(oi int64) bool {
	return p.resumed && (p.firstAdded < 0 || oi < p.firstAdded)
}

// track remembers an added item: its id, and that its parts start at 0.
func (p *mapper) track(oi int64, id decode.Raw) {
	s := p.slot(oi)
	if s == nil {
		return
	}
	s.tool, s.hosted = false, false
	s.key, s.name = s.key[:0], s.name[:0]
	s.nextPart, s.nextSummary, s.strayPart = 0, 0, false
	s.ann = [4]int64{}
	s.hasID = id.Kind() == decode.KindString
	s.id = s.id[:0]
	if s.hasID {
		s.id = append(s.id, id...)
	}
}

// sameItem raises span-mismatch when an event names its item by another
// id than the one the item was added with (item_id of an item event, the
// item's id at output_item.done). openai-node's ResponseStream throws
// ("expected item_id …", "expected output item id …":
// src/internal/responses/response-accumulator.ts validateOutputItemIdentity);
// GitHub Copilot's endpoint rotates ids on every event, so it is reported
// once a stream.
func (p *mapper) sameItem(m *invariants.Mapping, ev *event, s *slot, oi int64, id decode.Raw) {
	if p.idDrifted || !s.hasID || id.Kind() != decode.KindString || string(id) == string(s.id) {
		return
	}
	p.idDrifted = true
	m.Raise("span-mismatch", invariants.SevError, "%s names item %d by id %s, but it was added as %s (later ones are not listed)",
		ev.name, oi, clipRaw(id), clipRaw(s.id))
}

// partOrder raises part-index-order when a content part or summary part
// is not added at its item's next index. The SDKs append it: openai-python
// puts it at the end of output.content whatever its content_index (and
// later deltas go to another part, or raise IndexError), openai-node
// throws ("missing content at index N", validateArrayAppend).
func (p *mapper) partOrder(m *invariants.Mapping, ev *event, oi, idx int64, kind invariants.SpanKind) {
	s := p.find(oi)
	if s == nil {
		return // an item added before a resume point: its parts are not known
	}
	next, field := &s.nextPart, "content_index"
	if kind == invariants.SpanReasoning {
		next, field = &s.nextSummary, "summary_index"
	}
	if idx != *next {
		m.Raise("part-index-order", invariants.SevError, "%s at %s %d of item %d, want %d (parts are added in order)", ev.name, field, idx, oi, *next)
	}
	if idx >= *next {
		*next = idx + 1
	}
}

// annotation checks an annotation's annotation_index: it must be a known
// one or the next (openai-node validateArrayIndex with append throws
// "missing annotation at index N"; openai-python's accumulator skips the
// event). A skipped index is part-index-order, as a skipped part is.
func (p *mapper) annotation(f *decode.Frame, m *invariants.Mapping, ev *event, oi, ci int64) {
	_, ai, ok := p.index(f, m, ev, "annotation_index")
	if !ok {
		return
	}
	s := p.find(oi)
	if s == nil || ci >= int64(len(s.ann)) {
		return
	}
	if ai > s.ann[ci] {
		m.Raise("part-index-order", invariants.SevError, "%s at annotation_index %d of part [%d,%d], want at most %d (annotations are added in order)", ev.name, ai, oi, ci, s.ann[ci])
	}
	if ai >= s.ann[ci] {
		s.ann[ci] = ai + 1
	}
}

// Slots.

func (p *mapper) find(oi int64) *slot {
	for i := range p.slots {
		if p.slots[i].used && p.slots[i].oi == oi {
			return &p.slots[i]
		}
	}
	return nil
}

func (p *mapper) slot(oi int64) *slot {
	if s := p.find(oi); s != nil {
		return s
	}
	for i := range p.slots {
		if !p.slots[i].used {
			p.slots[i].used, p.slots[i].oi = true, oi
			return &p.slots[i]
		}
	}
	if len(p.slots) >= invariants.MaxOpenIDs {
		// Past the engine's bound (it raised id-limit): the item is not
		// tracked, and a flood of items never done holds no more memory.
		return nil
	}
	p.slots = append(p.slots, slot{used: true, oi: oi})
	return &p.slots[len(p.slots)-1]
}

func (p *mapper) free(oi int64) {
	if s := p.find(oi); s != nil {
		s.used = false
	}
}
