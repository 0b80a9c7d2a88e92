package aisdkui

import (
	"framescope/decode"
	"framescope/invariants"
)

// Tool calls by toolCallId (process-ui-message-stream.ts): tool-input-start
// → tool-input-delta (needs the start) → tool-input-available (may come
// without a start: then it opens the call) → tool-output-available,
// tool-output-error or tool-output-denied; tool-input-error also ends a
// call (and may be its only chunk); tool-approval-request waits for the
// user with the input complete.

const (
	outputAvailable = iota
	outputError
	outputDenied
)

// emptyStr: the JSON literal "" (an id or name the client cannot use).
func emptyStr(r decode.Raw) bool { return string(r) == `""` }

// nameless raises tool-malformed for an empty toolName on a chunk that
// opens a call: the client renders the part as type "tool-" and cannot
// route it. (An empty toolCallId is the engine's tool-malformed.)
func nameless(c *fields, name decode.Raw) {
	if emptyStr(name) {
		label, _ := c.typ.Str()
		c.m.Raise("tool-malformed", invariants.SevError, "%s opens a tool call with an empty toolName", label)
	}
}

func (p *mapper) toolInputStart(c *fields) {
	id := c.str("toolCallId")
	name := c.str("toolName")
	c.toolCall()
	if id.Kind() != decode.KindString {
		return
	}
	nameless(c, name)
	if p.tool(id) == nil && !emptyStr(id) {
		p.addTool(id, name, true).dynamic = isTrue(c.f.Get("dynamic"))
	}
	// A second open of a known id is the engine's tool-duplicate.
	c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
}

func (p *mapper) toolInputDelta(c *fields) {
	id := c.str("toolCallId")
	text := c.str("inputTextDelta")
	if id.Kind() != decode.KindString {
		return
	}
	if t := p.tool(id); p.late() && (t == nil || !t.started) {
		p.lateToolOrphan(c, id)
	} else if t != nil && t.open && !t.started {
		// The client keeps partial input only for calls opened by
		// tool-input-start; it throws on this delta.
		c.m.Raise("tool-orphan", invariants.SevError, "tool-input-delta for tool call %s, which began with tool-input-available, not tool-input-start: the client has no partial call to extend", clipID(id))
	}
	c.m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: id, Text: text})
}

func (p *mapper) toolInputAvailable(c *fields) {
	id := c.str("toolCallId")
	name := c.str("toolName")
	c.toolCall()
	if id.Kind() != decode.KindString {
		return
	}
	t := p.tool(id)
	switch {
	case emptyStr(id):
		c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
	case t != nil && t.open:
		if name.Kind() == decode.KindString && t.name != "" && !name.StrEq(t.name) {
			c.m.Raise("tool-mismatch", invariants.SevError, "tool call %s began as %q and its input arrives as %s",
				clipID(id), decode.Clip(t.name, 60), clipID(name))
		} else if dyn := isTrue(c.f.Get("dynamic")); t.started && dyn != t.dynamic {
			c.m.Raise("tool-mismatch", invariants.SevError, "tool call %s began with dynamic %t and its input arrives with dynamic %t: the client looks for a %s part, makes a second one, and leaves the first in input-streaming",
				clipID(id), t.dynamic, dyn, partKind(dyn))
		}
		t.ready = true
		c.m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: id, Name: name})
	case t != nil:
		// The call already ended: the engine's tool-duplicate.
		c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
	default:
		nameless(c, name)
		p.addTool(id, name, false).ready = true
		c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
		c.m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: id})
	}
}

func (p *mapper) toolInputError(c *fields) {
	id := c.str("toolCallId")
	name := c.str("toolName")
	text := c.str("errorText")
	c.toolCall()
	if id.Kind() == decode.KindString {
		t := p.tool(id)
		switch {
		case t != nil && t.open:
			t.open, t.inputErr = false, true
			c.m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Name: name, Outcome: invariants.TurnFailed, Text: text})
		case t != nil || emptyStr(id):
			c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
		default:
			// An invalid call that never streamed: its only chunk.
			t := p.addTool(id, name, false)
			t.open, t.inputErr = false, true
			c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
			c.m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Outcome: invariants.TurnFailed, Text: text})
		}
	}
	c.m.Add(invariants.Move{Kind: invariants.MoveError, Text: text})
}

func (p *mapper) toolApprovalRequest(c *fields) {
	c.str("approvalId")
	id := c.str("toolCallId")
	c.optBool("isAutomatic")
	c.optStr("signature")
	if id.Kind() != decode.KindString {
		return
	}
	// The client looks the call up and throws when it has none; the call
	// waits for the user with its input complete (unanswered at finish is
	// legal: the answer comes with the next request).
	if t := p.tool(id); t != nil && t.open {
		t.ready = true
	} else if t == nil && p.late() {
		p.lateToolOrphan(c, id)
	}
	c.m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: id})
}

func (p *mapper) toolOutput(c *fields, kind int) {
	id := c.str("toolCallId")
	var text decode.Raw
	outcome := invariants.TurnCompleted
	switch kind {
	case outputAvailable:
		c.optBool("providerExecuted", "dynamic", "preliminary")
		c.providerMetadata()
		c.optObject("toolMetadata")
	case outputError:
		text = c.str("errorText")
		c.optBool("providerExecuted", "dynamic")
		c.providerMetadata()
		c.optObject("toolMetadata")
		outcome = invariants.TurnFailed
	case outputDenied:
		outcome = invariants.TurnCancelled
	}
	if id.Kind() == decode.KindString {
		p.output(c, id, kind, outcome, text)
	}
	if kind == outputError {
		c.m.Add(invariants.Move{Kind: invariants.MoveError, Text: text})
	}
}

func (p *mapper) output(c *fields, id decode.Raw, kind int, outcome string, text decode.Raw) {
	t := p.tool(id)
	prelim, _ := c.f.Get("preliminary").Bool()
	prelim = prelim && kind == outputAvailable
	if t == nil && p.fresh && !emptyStr(id) {
		// A continuation stream answers a call of the message the client
		// holds (an approved or denied call, executed now): the call is
		// not this stream's, so it opens here.
		t = p.addTool(id, nil, false)
		t.ready = true
		c.m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id})
	}
	if t == nil && p.late() {
		p.lateToolOrphan(c, id)
	}
	if t != nil && !t.open && t.inputErr && kind == outputError {
		// The SDK's tool-output-error after an invalid call's
		// tool-input-error: the same failure, on the part that holds it.
		t.inputErr = false
		return
	}
	if prelim {
		// A preliminary result: the tool runs; the final one closes it.
		if t != nil && t.open {
			t.ready = true
		}
		c.m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: id})
		return
	}
	if t != nil {
		t.open = false
	}
	c.m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Outcome: outcome, Text: text})
}

// lateToolOrphan: after the terminal the engine no longer checks calls,
// but the client still throws on a chunk for a call it does not know
// (getToolInvocation, partialToolCalls).
func (p *mapper) lateToolOrphan(c *fields, id decode.Raw) {
	label, _ := c.typ.Str()
	c.m.Raise("tool-orphan", invariants.SevError, "%s after the terminal for tool call %s, which this stream never opened: the client throws", decode.Clip(label, 40), clipID(id))
}

// isTrue: the JSON literal true (an optional flag: absent is false).
func isTrue(r decode.Raw) bool { return string(r) == "true" }

// partKind names the message part the client keeps a call in.
func partKind(dynamic bool) string {
	if dynamic {
		return "dynamic-tool"
	}
	return "tool-NAME"
}

// clipID renders an id or name for a message.
func clipID(r decode.Raw) string {
	if s, ok := r.Str(); ok {
		return "\"" + decode.Clip(s, 60) + "\""
	}
	return decode.Clip(string(r), 60)
}
