package langgraph

import (
	"strconv"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// kind is a serialized message's role, from its type: "ai", "tool",
// "human"…, with the chunk classes' names read the way useStream reads
// them ("AIMessageChunk" → "ai": MessageTupleManager.add).
func kind(msg decode.Raw) (string, bool) { return kindOf(msg.Get("type")) }

// kindOf is kind from the type member itself.
func kindOf(t decode.Raw) (string, bool) {
	switch { // the common names without decoding (the hot path allocates nothing)
	case t.StrEq("AIMessageChunk"), t.StrEq("ai"), t.StrEq("assistant"):
		return "ai", true
	case t.StrEq("tool"), t.StrEq("ToolMessageChunk"):
		return "tool", true
	}
	s, ok := t.Str()
	if !ok {
		return "", false
	}
	if base, chunk := strings.CutSuffix(s, "MessageChunk"); chunk {
		s = strings.ToLower(base)
	}
	return s, true
}

// remember records kind+id, raising ids-bounded the first time the bound
// is hit; it reports whether the id is tracked.
func (p *mapper) remember(m *invariants.Mapping, kind byte, id []byte, v string) bool {
	ok, first := p.track.put(kind, id, v)
	if first {
		m.Raise("ids-bounded", invariants.SevInfo, "the run named more than %d message and tool call ids: later ones are not deduplicated, their tool calls not followed", maxTracked)
	}
	return ok
}

// tuple maps a messages-tuple event: [message chunk, metadata]. The chunk's
// content is a delta (useStream concatenates the chunks of one id).
func (p *mapper) tuple(data decode.Raw, m *invariants.Mapping) {
	var c chunk
	if !p.commonTuple(data, &c, m) {
		c = chunk{}
		var msg, meta decode.Raw
		n := 0
		it := data.Elements()
		for v, ok := it.Next(); ok && n < 3; v, ok = it.Next() {
			switch n {
			case 0:
				msg = v
			case 1:
				meta = v
			}
			n++
		}
		if data.Kind() != decode.KindArray || n != 2 || msg.Kind() != decode.KindObject {
			// useStream destructures [serialized, metadata] and reads
			// serialized.type: anything else throws.
			m.Malformed("messages", "data is "+invariants.KindName(data)+", want [message, metadata]")
			return
		}
		if meta.Kind() != decode.KindObject && meta.Kind() != decode.KindNull {
			m.Malformed("messages", "metadata is "+invariants.KindName(meta)+", want an object")
		}
		p.node(meta.Get("langgraph_node"), m)
		chunkNames.Pick(msg, c[:])
	}
	typ, idv, content, chunks, position, respMeta, toolCallID, status := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
	k, ok := kindOf(typ)
	if !ok {
		m.Malformed("messages", "the message's type is "+invariants.KindName(typ)+", want a string")
		return
	}
	id, ok := idv.StrBytes()
	if !ok || len(id) == 0 {
		m.Raise("message-id-missing", invariants.SevError, "a %s message chunk without an id: useStream drops it", decode.Clip(k, 20))
		return
	}
	switch k {
	case "ai":
		if !p.track.has('s', id) {
			p.readyAll(m, "") // a new message: the one before it is finished
			p.remember(m, 's', id, "")
			p.remember(m, 'm', id, "")
		}
		p.content(content, m)
		if it := chunks.Elements(); chunks.Kind() == decode.KindArray {
			if _, some := it.Next(); some {
				p.toolChunks(chunks, id, m)
			}
		}
		if finished(position, respMeta) {
			p.readyAll(m, string(id))
		}
	case "tool":
		p.remember(m, 'm', id, "")
		p.closeCall(toolCallID, status, m)
	}
}

// finished: the chunk is its message's last (chunk_position "last", or a
// finish or stop reason in response_metadata).
func finished(position, rm decode.Raw) bool {
	if position.StrEq("last") {
		return true
	}
	var v [2]decode.Raw
	reasonNames.Pick(rm, v[:])
	return v[0].Kind() == decode.KindString || v[1].Kind() == decode.KindString
}

// reasonNames are response_metadata's finish and stop reasons.
var reasonNames = decode.Names("finish_reason", "stop_reason")

// content maps a message's content: a string, or a list of content blocks
// (text, thinking/reasoning; tool_use blocks repeat tool_call_chunks).
func (p *mapper) content(c decode.Raw, m *invariants.Mapping) {
	switch c.Kind() {
	case decode.KindString:
		if len(c) > 2 {
			m.Add(invariants.Move{Kind: invariants.MoveText, Text: c})
		}
	case decode.KindArray:
		bIt := c.Elements()
		for b, ok := bIt.Next(); ok; b, ok = bIt.Next() {
			switch t := b.Get("type"); {
			case b.Kind() == decode.KindString:
				m.Add(invariants.Move{Kind: invariants.MoveText, Text: b})
			case t.StrEq("text"):
				if s := b.Get("text"); s.IsNonEmptyStr() {
					m.Add(invariants.Move{Kind: invariants.MoveText, Text: s})
				}
			case t.StrEq("thinking"):
				if s := b.Get("thinking"); s.IsNonEmptyStr() {
					m.Add(invariants.Move{Kind: invariants.MoveReasoning, Text: s})
				}
			case t.StrEq("reasoning"):
				if s := b.Get("reasoning"); s.IsNonEmptyStr() {
					m.Add(invariants.Move{Kind: invariants.MoveReasoning, Text: s})
				}
			}
		}
	case decode.KindNone, decode.KindNull:
	default:
		m.Malformed("message", "content is "+invariants.KindName(c)+", want a string or a list of content blocks")
	}
}

// toolChunks maps tool_call_chunks: the first chunk of a call (by index)
// names its id and tool, later ones (id null) carry argument deltas.
func (p *mapper) toolChunks(chunks decode.Raw, msgID []byte, m *invariants.Mapping) {
	pos := int64(0)
	tcIt := chunks.Elements()
	for tc, more := tcIt.Next(); more; tc, more = tcIt.Next() {
		idx := pos
		pos++
		if i, ok := tc.Get("index").Int(); ok {
			idx = i
		}
		slot := append(append(append([]byte(nil), msgID...), 0), strconv.FormatInt(idx, 10)...)
		id, args := tc.Get("id"), tc.Get("args")
		if callID, ok := id.StrBytes(); ok && len(callID) > 0 && !p.track.has('o', callID) {
			name := tc.Get("name")
			if !name.IsNonEmptyStr() {
				m.Raise("tool-malformed", invariants.SevError, "a tool call chunk opens call %q without a name: the client cannot run it", decode.Clip(string(callID), 40))
				continue
			}
			if !p.remember(m, 'o', callID, "") {
				continue
			}
			p.remember(m, 'i', slot, string(callID))
			m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
			p.pending = append(p.pending, pendingCall{msg: string(msgID), call: string(callID)})
			if args.IsNonEmptyStr() {
				m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: id, Text: args})
			}
			continue
		}
		if !args.IsNonEmptyStr() {
			continue
		}
		if call, ok := p.track.get('i', slot); ok && call != "" && !p.track.has('c', []byte(call)) {
			m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: invariants.Lit(call), Text: args})
		}
	}
}

// readyAll makes the pending tool calls of msg ("" every message) ready:
// their message is finished, their input complete.
func (p *mapper) readyAll(m *invariants.Mapping, msg string) {
	kept := p.pending[:0]
	for _, pc := range p.pending {
		if msg != "" && pc.msg != msg {
			kept = append(kept, pc)
			continue
		}
		if !p.track.has('c', []byte(pc.call)) {
			m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: invariants.Lit(pc.call)})
		}
	}
	p.pending = kept
}

// toolResult closes the call a tool message answers, when this run opened
// it (a tool message of the thread's history answers an older run's call).
func (p *mapper) toolResult(msg decode.Raw, m *invariants.Mapping) {
	p.closeCall(msg.Get("tool_call_id"), msg.Get("status"), m)
}

// closeCall closes call tcID with the tool message's status.
func (p *mapper) closeCall(tcID, status decode.Raw, m *invariants.Mapping) {
	id, ok := tcID.StrBytes()
	if !ok || !p.track.has('o', id) || p.track.has('c', id) {
		return
	}
	p.readyOne(m, id)
	p.remember(m, 'c', id, "")
	outcome := invariants.TurnCompleted
	if status.StrEq("error") {
		outcome = invariants.TurnFailed
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: tcID, Outcome: outcome})
}

// readyOne makes one pending call ready before its result closes it.
func (p *mapper) readyOne(m *invariants.Mapping, call []byte) {
	for i, pc := range p.pending {
		if pc.call == string(call) {
			m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: invariants.Lit(pc.call)})
			p.pending = append(p.pending[:i], p.pending[i+1:]...)
			return
		}
	}
}

// partial maps a messages/partial message: the whole message so far. Its
// text beyond what the last partial of that id had is the delta.
func (p *mapper) partial(msg decode.Raw, m *invariants.Mapping) {
	if msg.Kind() != decode.KindObject {
		m.Malformed("messages/partial", "a message is "+invariants.KindName(msg)+", want an object")
		return
	}
	k, ok := kind(msg)
	if !ok {
		m.Malformed("messages/partial", "the message's type is "+invariants.KindName(msg.Get("type"))+", want a string")
		return
	}
	id, ok := msg.Get("id").StrBytes()
	if !ok || len(id) == 0 {
		m.Raise("message-id-missing", invariants.SevError, "a %s message in messages/partial without an id: the client cannot tell which message it extends", decode.Clip(k, 20))
		return
	}
	if k != "ai" {
		if k == "tool" {
			p.remember(m, 'm', id, "")
			p.toolResult(msg, m)
		}
		return
	}
	if !p.track.has('s', id) {
		p.readyAll(m, "")
		p.remember(m, 's', id, "")
		p.remember(m, 'm', id, "")
	}
	text, reasoning := textOf(msg.Get("content"))
	prev, _ := p.track.get('p', id)
	pt, pr := splitLens(prev)
	if len(text) > pt {
		m.Add(invariants.Move{Kind: invariants.MoveText, Text: invariants.Lit(text[pt:])})
	}
	if len(reasoning) > pr {
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Text: invariants.Lit(reasoning[pr:])})
	}
	if len(text) != pt || len(reasoning) != pr {
		p.remember(m, 'p', id, strconv.Itoa(len(text))+","+strconv.Itoa(len(reasoning)))
	}
	p.openCalls(msg, id, m, false)
}

func splitLens(s string) (int, int) {
	a, b, _ := strings.Cut(s, ",")
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x, y
}

// textOf is a content's text and reasoning, decoded: a string, or the text
// and thinking blocks of a list.
func textOf(c decode.Raw) (text, reasoning string) {
	if s, ok := c.Str(); ok {
		return s, ""
	}
	var tb, rb strings.Builder
	bIt := c.Elements()
	for b, ok := bIt.Next(); ok; b, ok = bIt.Next() {
		t := b.Get("type")
		switch {
		case b.Kind() == decode.KindString:
			s, _ := b.Str()
			tb.WriteString(s)
		case t.StrEq("text"):
			s, _ := b.Get("text").Str()
			tb.WriteString(s)
		case t.StrEq("thinking"):
			s, _ := b.Get("thinking").Str()
			rb.WriteString(s)
		case t.StrEq("reasoning"):
			s, _ := b.Get("reasoning").Str()
			rb.WriteString(s)
		}
	}
	return tb.String(), rb.String()
}

// openCalls opens a whole message's tool_calls not yet open; ready (a
// finished message) also gives their args and makes them ready.
func (p *mapper) openCalls(msg decode.Raw, msgID []byte, m *invariants.Mapping, ready bool) {
	tcIt := msg.Get("tool_calls").Elements()
	for tc, more := tcIt.Next(); more; tc, more = tcIt.Next() {
		id := tc.Get("id")
		callID, ok := id.StrBytes()
		if !ok || len(callID) == 0 {
			m.Raise("tool-malformed", invariants.SevError, "a tool call without an id: its result cannot be matched to it")
			continue
		}
		if p.track.has('c', callID) {
			continue
		}
		if !p.track.has('o', callID) {
			name := tc.Get("name")
			if !name.IsNonEmptyStr() {
				m.Raise("tool-malformed", invariants.SevError, "tool call %q without a name: the client cannot run it", decode.Clip(string(callID), 40))
				continue
			}
			if !p.remember(m, 'o', callID, "") {
				continue
			}
			m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
			if ready {
				if args := tc.Get("args"); args.Kind() == decode.KindObject {
					m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: id, Text: args})
				}
				m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: id})
				continue
			}
			p.pending = append(p.pending, pendingCall{msg: string(msgID), call: string(callID)})
			continue
		}
		if ready {
			p.readyOne(m, callID)
		}
	}
}

// full maps a finished message (messages/complete, values, updates): its
// text when it was not streamed, its tool calls, a tool result.
func (p *mapper) full(msg decode.Raw, m *invariants.Mapping) {
	if msg.Kind() != decode.KindObject {
		return // a state's messages are the graph's own: not ours to judge
	}
	k, _ := kind(msg)
	id, ok := msg.Get("id").StrBytes()
	switch k {
	case "ai":
		if ok && len(id) > 0 {
			if !p.track.has('s', id) && !p.track.has('m', id) {
				p.content(msg.Get("content"), m)
			}
			p.remember(m, 'm', id, "")
		}
		p.openCalls(msg, id, m, true)
	case "tool":
		if ok {
			p.remember(m, 'm', id, "")
		}
		p.toolResult(msg, m)
	}
}

// values maps a values chunk: the whole state. The root graph's first is
// the run's input (the thread's history): its messages are remembered, not
// shown; later ones show the messages not seen yet.
func (p *mapper) values(data decode.Raw, ns string, m *invariants.Mapping) {
	if data.Kind() != decode.KindObject {
		return // a graph's state need not be a dict (a list, a number)
	}
	msgs := data.Get("messages")
	if ns == "" && !p.baseline {
		p.baseline = true
		msgIt := msgs.Elements()
		for msg, more2 := msgIt.Next(); more2; msg, more2 = msgIt.Next() {
			if id, ok := msg.Get("id").StrBytes(); ok {
				p.remember(m, 'm', id, "")
			}
			tcIt := msg.Get("tool_calls").Elements()
			for tc, more := tcIt.Next(); more; tc, more = tcIt.Next() {
				if id, ok := tc.Get("id").StrBytes(); ok {
					p.remember(m, 'c', id, "")
				}
			}
		}
		return
	}
	msgIt2 := msgs.Elements()
	for msg, ok := msgIt2.Next(); ok; msg, ok = msgIt2.Next() {
		p.full(msg, m)
	}
}

// updates maps an updates chunk: {node: its update}; a node's messages
// (a list or one message) are finished messages.
func (p *mapper) updates(data decode.Raw, m *invariants.Mapping) {
	it := data.Members()
	for k, esc, upd, ok := it.Next(); ok; k, esc, upd, ok = it.Next() {
		node := string(decode.DecodedKey(k, esc))
		if node != "__interrupt__" {
			p.node(invariants.Lit(node), m)
		}
		msgs := upd.Get("messages")
		switch msgs.Kind() {
		case decode.KindArray:
			msgIt := msgs.Elements()
			for msg, ok := msgIt.Next(); ok; msg, ok = msgIt.Next() {
				p.full(msg, m)
			}
		case decode.KindObject:
			p.full(msgs, m)
		}
	}
}

// node is a progress line when the graph moves to another node (the node
// a message chunk came from, the node an update is from): what a client
// shows while the run works ("agent", "tools").
func (p *mapper) node(name decode.Raw, m *invariants.Mapping) {
	b, ok := name.StrBytes()
	if !ok || len(b) == 0 || string(b) == string(p.lastNode) {
		return
	}
	p.lastNode = append(p.lastNode[:0], b...)
	m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: name})
}
