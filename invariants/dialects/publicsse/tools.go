package publicsse

import (
	"framescope/decode"
	"framescope/invariants"
)

// toolSet remembers the tool calls a stream has opened, by a 64-bit hash
// of the tool_call_id, so that a tool.status repeated after the call closed
// is a re-statement, not a new call: the reference projector states
// "completed" from the provider's *_call.completed event and again at
// output_item.done (tool_call_updates.py).
type toolSet struct{ seen []uint64 }

func newToolSet() toolSet { return toolSet{seen: make([]uint64, 0, 32)} }

func (s *toolSet) has(h uint64) bool {
	for _, v := range s.seen {
		if v == h {
			return true
		}
	}
	return false
}

func hashKey(b []byte) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// toolStatus: the first tool.status of a tool_call_id opens the call,
// whatever its status (a first "completed" opens and closes it);
// "completed" or "failed" closes it. Function and agent tools name
// themselves in name, MCP tools in tool_name, hosted tools by tool_type.
func (p *mapper) toolStatus(f *decode.Frame, m *invariants.Mapping) {
	fs := &p.faults
	tool := f.Get("tool")
	if tool.Kind() != decode.KindObject {
		fs.add("tool", tool, "an object")
		return
	}
	typ, st := tool.Get("tool_type"), tool.Get("status")
	fs.want(typ, decode.KindString, "tool.tool_type")
	fs.want(st, decode.KindString, "tool.status")
	id := tool.Get("tool_call_id")
	if !id.IsNonEmptyStr() {
		m.Raise("tool-malformed", invariants.SevError, "tool.status without a tool.tool_call_id (it is %s)", invariants.KindName(id))
		return
	}
	name := typ
	switch {
	case typ.StrEq("function"), typ.StrEq("agent"):
		name = tool.Get("name")
		if !name.IsNonEmptyStr() {
			m.Raise("tool-malformed", invariants.SevError, "%s tool %s has no name (it is %s)", labelOf(typ), decode.Clip(string(id), 60), invariants.KindName(name))
			name = nil
		}
	case typ.StrEq("mcp"):
		name = tool.Get("tool_name")
		if !name.IsNonEmptyStr() {
			m.Raise("tool-malformed", invariants.SevError, "mcp tool %s has no tool_name (it is %s)", decode.Clip(string(id), 60), invariants.KindName(name))
			name = nil
		}
	}
	if typ.Kind() != decode.KindString {
		name = nil
	}
	h := hashKey(id)
	open := m.ToolIsOpen(id)
	switch {
	case !p.tools.has(h):
		p.tools.seen = append(p.tools.seen, h)
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
		open = true
	case !open:
		return // a re-statement of a call that already ended
	}
	var outcome string
	switch {
	case st.StrEq("completed"):
		outcome = invariants.TurnCompleted
	case st.StrEq("failed"):
		outcome = invariants.TurnFailed
	default:
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Name: name, Outcome: outcome})
}

// toolInput: argument and code deltas grow an open call's input. Input for
// a call that is not open says nothing: the reference may send an MCP
// call's arguments before its first status, and a code interpreter's code
// after its "completed" (examples/chat-code-interpreter.ndjson).
func (p *mapper) toolInput(m *invariants.Mapping, id, delta decode.Raw) {
	if id.IsNonEmptyStr() && delta.Kind() == decode.KindString && m.ToolIsOpen(id) {
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: id, Text: delta})
	}
}
