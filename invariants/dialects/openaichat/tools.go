package openaichat

import (
	"bytes"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// legacyIndex is the tool index of a choice's deprecated function_call
// (one per choice, no id of its own).
const legacyIndex = -1

// tool is one tool call of one choice: tool_calls[index] streams as
// deltas, and only the first carries the id and the function name.
type tool struct {
	choice, index int64
	id, name      decode.Raw // JSON literals in the arena (nil: not sent)
	open          bool       // a tool-open move was made (it had an id)
	ready         bool       // its choice ended: the input is complete
	checked       bool       // checkCalls has looked at it
	typed         bool       // a delta gave its type (or none is due: Mistral)
}

// mapToolDelta maps one element of delta.tool_calls. The first delta of
// an index opens the call and must carry id and function.name
// (tool-malformed); a later one that names another id or function is
// tool-mismatch; arguments grow the call. Custom tools send custom.name
// and custom.input instead of function.name and function.arguments.
//
// Mistral sends each call whole in one delta and without an index (its
// own SDK and the AI SDK's Mistral schema have none): under the mistral
// flavor a call without one is keyed by its position in the array.
func (p *mapper) mapToolDelta(tc decode.Raw, choice, pos int64, m *invariants.Mapping) {
	if tc.Kind() != decode.KindObject {
		m.Malformed("tool_calls", "an element is "+invariants.KindName(tc)+", want an object")
		return
	}
	ix := tc.Get("index")
	n, ok := invariants.Int(ix)
	if ix == nil && p.flavor == flavorMistral {
		n, ok = pos, true
	}
	if !ok || n < 0 {
		m.Malformed("tool_calls", "index is "+invariants.KindName(ix)+", want an integer ≥ 0")
		return
	}
	fn, args := tc.Get("function"), decode.Raw(nil)
	if fn.Kind() == decode.KindObject {
		args = fn.Get("arguments")
	} else if fn = tc.Get("custom"); fn.Kind() == decode.KindObject {
		args = fn.Get("input")
	}
	if ix != nil && p.findTool(choice, n) == nil {
		p.checkNewTool(tc, choice, n, m)
	}
	p.toolDelta(choice, n, tc.Get("id"), fn.Get("name"), args, m)
	if t := p.findTool(choice, n); t != nil && (p.flavor == flavorMistral || tc.Get("type").IsNonEmptyStr()) {
		t.typed = true // Mistral's calls carry no type and its clients need none
	}
}

// checkNewTool checks the first delta of tool_calls[n] of a choice: the
// indexes must run 0, 1, 2… in order of first appearance. openai-python's
// ChatCompletionStreamState reads message.tool_calls[index] from the list
// it grew by insertion and raises IndexError on a skipped index;
// openai-node's ChatCompletionStream leaves a hole in tool_calls.
//
// Mistral's calls carry no index (its clients need none): a call without
// an index is not checked, nor any call under the mistral flavor.
func (p *mapper) checkNewTool(tc decode.Raw, choice, n int64, m *invariants.Mapping) {
	if p.flavor == flavorMistral {
		return
	}
	calls := int64(0)
	for i := range p.tools {
		if p.tools[i].choice == choice && p.tools[i].index != legacyIndex {
			calls++
		}
	}
	if n != calls && len(p.tools) < maxTools {
		m.Raise("tool-malformed", invariants.SevError,
			"choice %d tool_calls[%d] opens as call %d of the choice: indexes must run 0, 1, 2… (openai-python's stream accumulator raises IndexError, openai-node's leaves a hole)",
			choice, n, calls+1)
	}
}

// mapFunctionCall maps the deprecated delta.function_call: one call per
// choice, named by its first delta, keyed "function_call/<choice>".
func (p *mapper) mapFunctionCall(fc decode.Raw, choice int64, m *invariants.Mapping) {
	var id decode.Raw
	if p.findTool(choice, legacyIndex) == nil {
		id = p.legacyKey(choice)
	}
	p.toolDelta(choice, legacyIndex, id, fc.Get("name"), fc.Get("arguments"), m)
}

func (p *mapper) toolDelta(choice, index int64, id, name, args decode.Raw, m *invariants.Mapping) {
	if k := args.Kind(); k != decode.KindString && k != decode.KindNone && k != decode.KindNull {
		m.Malformed("tool_calls", "arguments is "+invariants.KindName(args)+", want a string")
		args = nil
	}
	t := p.findTool(choice, index)
	if t == nil {
		t = p.openTool(choice, index, id, name, m)
	} else {
		p.sameTool(t, id, name, m)
	}
	if t != nil && t.open && args.IsNonEmptyStr() {
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: t.id, Text: args})
	}
}

// openTool starts tracking a call at its first delta. A call opens (the
// tool-open move) once a delta has given its id: some OpenAI-compatible
// servers send the id or the function name on a later delta than the
// first, and the clients wait for them (the AI SDK's openai-compatible
// provider buffers a call's deltas until function.name arrives;
// openai-python concatenates the fields, openai-node sets each when it
// comes). Whether a call got both is decided at its choice's
// finish_reason (checkCalls).
func (p *mapper) openTool(choice, index int64, id, name decode.Raw, m *invariants.Mapping) *tool {
	if len(p.tools) >= maxTools {
		return nil
	}
	p.tools = append(p.tools, tool{choice: choice, index: index})
	t := &p.tools[len(p.tools)-1]
	if name.IsNonEmptyStr() {
		t.name = p.keep(name)
	}
	if id.IsNonEmptyStr() {
		p.openCall(t, id, m)
	}
	return t
}

// openCall gives a call its id and makes the tool-open move.
func (p *mapper) openCall(t *tool, id decode.Raw, m *invariants.Mapping) {
	t.id, t.open = p.keep(id), true
	m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: t.id, Name: t.name})
}

// sameTool checks a later delta of a call against what earlier ones gave:
// an id or a name that differs is tool-mismatch; one given for the first
// time completes the call.
func (p *mapper) sameTool(t *tool, id, name decode.Raw, m *invariants.Mapping) {
	if t.index == legacyIndex {
		id = nil // function_call has no id on the wire
	}
	if len(t.name) == 0 && name.IsNonEmptyStr() {
		t.name = p.keep(name)
		name = nil
	}
	if !t.open && id.IsNonEmptyStr() {
		p.openCall(t, id, m)
		id = nil
	}
	if t.open && id.IsNonEmptyStr() && !bytes.Equal(id, t.id) {
		m.Raise("tool-mismatch", invariants.SevError, "choice %d %s was opened as %s, a later delta says id %s",
			t.choice, toolLabel(t.index), clipRaw(t.id), clipRaw(id))
	}
	if len(t.name) > 0 && name.IsNonEmptyStr() && !bytes.Equal(name, t.name) {
		m.Raise("tool-mismatch", invariants.SevError, "choice %d %s was opened as %s, a later delta names %s",
			t.choice, toolLabel(t.index), clipRaw(t.name), clipRaw(name))
	}
}

// checkCalls: when a choice ends handing its calls over (stop, tool_calls,
// function_call, a provider's own reason), each call must have had an id
// and a function name by then (tool-malformed). The AI SDK throws
// InvalidResponseDataError ("Expected 'id' to be a string", "Expected
// 'function.name' to be a string"); without an id the next request cannot
// answer the call.
func (p *mapper) checkCalls(choice int64, m *invariants.Mapping) {
	for i := range p.tools {
		t := &p.tools[i]
		if t.choice != choice || t.checked {
			continue
		}
		t.checked = true
		if idOK, nameOK := t.open, len(t.name) > 0; !idOK || !nameOK {
			m.Raise("tool-malformed", invariants.SevError, "choice %d %s: by its finish_reason no delta gave it %s",
				choice, toolLabel(t.index), missingWord(idOK, nameOK))
		} else if !t.typed && t.index != legacyIndex {
			// openai-node's ChatCompletionStream sets a call's type from
			// any delta and throws at the end when none had one.
			m.Raise("tool-malformed", invariants.SevError, "choice %d %s: no delta gave it a type; openai-node's ChatCompletionStream throws \"missing choices[%d].tool_calls[%d].type\"",
				choice, toolLabel(t.index), choice, t.index)
		}
	}
}

// toolsDone marks the open calls of a choice that ended complete.
func (p *mapper) toolsDone(choice int64, m *invariants.Mapping) {
	for i := range p.tools {
		t := &p.tools[i]
		if t.choice == choice && t.open && !t.ready {
			t.ready = true
			m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: t.id})
		}
	}
}

func (p *mapper) findTool(choice, index int64) *tool {
	for i := range p.tools {
		if p.tools[i].choice == choice && p.tools[i].index == index {
			return &p.tools[i]
		}
	}
	return nil
}

// keep copies a value into the arena (allocation-free while it has room;
// slices into an outgrown arena stay valid).
func (p *mapper) keep(r decode.Raw) decode.Raw {
	start := len(p.arena)
	p.arena = append(p.arena, r...)
	return decode.Raw(p.arena[start:len(p.arena):len(p.arena)])
}

// legacyKey writes the key of a choice's function_call into the arena.
func (p *mapper) legacyKey(choice int64) decode.Raw {
	start := len(p.arena)
	p.arena = append(p.arena, `"function_call/`...)
	p.arena = strconv.AppendInt(p.arena, choice, 10)
	p.arena = append(p.arena, '"')
	return decode.Raw(p.arena[start:len(p.arena):len(p.arena)])
}

func toolLabel(index int64) string {
	if index == legacyIndex {
		return "function_call"
	}
	return "tool_calls[" + strconv.FormatInt(index, 10) + "]"
}

func missingWord(idOK, nameOK bool) string {
	switch {
	case !idOK && !nameOK:
		return "an id or a function name"
	case !idOK:
		return "an id"
	}
	return "a function name"
}

func clipRaw(r decode.Raw) string {
	if s, ok := r.Str(); ok {
		return strconv.Quote(decode.Clip(s, 60))
	}
	return decode.Clip(string(r), 60)
}
