package ollama

import (
	"bytes"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// maxToolCalls bounds the tool calls one stream's turn tracks: a stream
// that opens a new call on every line would grow the Engine's tool table
// without end (tool-flood, said once).
const maxToolCalls = 1024

// mapper keeps one stream's state: whether the turn began and ended, the
// model to hold fixed, and the tool calls opened (for synthetic keys and
// the flood bound).
type mapper struct {
	begun, ended bool
	model        []byte
	drifted      bool
	noRole       bool // a message without role was reported
	calls        int
	flooded      bool
	// keys of the calls opened (copies, at most maxToolCalls): a turn
	// that does not complete closes them with its outcome, since Ollama
	// sends whole calls and the turn, not a call, is what failed.
	keys [][]byte
}

func newMapper() invariants.Mapper { return &mapper{} }

// Constants the mapper puts in moves.
var (
	litDone  = invariants.Lit("done")
	litError = invariants.Lit("error")
)

// doneReasons are the done_reason values the server sends
// (llm/server.go DoneReason: stop, length; server/routes.go: load and
// unload for a request that only loads or unloads the model), and the
// outcome each gives.
var doneReasons = map[string]string{
	"stop":   invariants.TurnCompleted,
	"length": invariants.TurnIncomplete,
	"load":   invariants.TurnCompleted,
	"unload": invariants.TurnCompleted,
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	if e := f.Get("error"); e != nil && f.Get("done") == nil {
		p.errorLine(m, e)
		return
	}
	// The Engine opens the stream's one turn on its first frame (a line
	// that is not JSON included): no turn-start move of ours.
	p.begun = true
	p.envelope(m, f.Get("model"))
	msg := f.Get("message")
	done := false
	switch d := f.Get("done"); d.Kind() {
	case decode.KindBool:
		done, _ = d.Bool()
	case decode.KindNone:
		if msg == nil && f.Get("response") == nil {
			// Neither a chat nor a generate frame (a pull's
			// {"status": …} progress line): the SDKs yield it as a
			// response with nothing in it.
			m.Unknown = true
			return
		}
		// Both SDKs read a missing done as false (ollama-python: done is
		// Optional; ollama-js: undefined is falsy): the contract's
		// departure is tolerated, a warn.
		m.Raise("payload-malformed", invariants.SevWarn, "%s: done is missing, want a boolean on every frame", label(f))
	default:
		// ollama-js tests message.done for truth: "false" ends its
		// iteration at once.
		m.Malformed(label(f), "done is "+invariants.KindName(d)+", want a boolean")
	}
	readTiming(f, m, done)
	if msg != nil {
		p.message(f, m, msg)
	} else {
		// /api/generate: the delta is on the frame itself, and so are
		// the tool calls a model with a builtin parser makes (api/types.go
		// GenerateResponse.ToolCalls, sent on the done frame).
		p.delta(m, f.Get("thinking"), "thinking", invariants.MoveReasoning)
		p.delta(m, f.Get("response"), "response", invariants.MoveText)
		p.toolCalls(m, f.Get("tool_calls"), "tool_calls")
	}
	if done && !p.ended {
		p.done(f, m)
	}
}

// errorLine: {"error": "…"} is how the server reports a failure once the
// stream began (server/routes.go: ch <- gin.H{"error": …}). Both SDKs
// raise it; after frames of the turn that is error-midstream.
func (p *mapper) errorLine(m *invariants.Mapping, e decode.Raw) {
	if e.Kind() != decode.KindString {
		m.Malformed("error", "error is "+invariants.KindName(e)+", want a string")
	}
	if p.ended {
		return // after the done frame: the Engine raises after-terminal
	}
	if p.begun {
		m.Raise("error-midstream", invariants.SevError, "an error line after the stream began (%s): the SDKs raise it and the partial answer is lost", clipStr(e))
	}
	p.begun, p.ended = true, true
	p.closeCalls(m, invariants.TurnFailed)
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError, Text: e, Final: true})
}

// message maps /api/chat's message: thinking, content, whole tool calls.
func (p *mapper) message(f *decode.Frame, m *invariants.Mapping, msg decode.Raw) {
	if msg.Kind() != decode.KindObject {
		m.Malformed(label(f), "message is "+invariants.KindName(msg)+", want an object")
		return
	}
	// One pass over the message for its members (the hot path).
	var v [4]decode.Raw
	msg.GetAll(v[:], "thinking", "content", "tool_calls", "role")
	if v[3].Kind() != decode.KindString && !p.noRole {
		// ollama-python's Message.role is a required str: the line
		// fails validation and the iteration raises. The server always
		// sends it (api/types.go Message.Role has no omitempty). Said
		// once per stream: a server that omits it omits it everywhere,
		// and the client stops at the first.
		p.noRole = true
		m.Malformed(label(f), "message.role is "+invariants.KindName(v[3])+", want a string (said once per stream)")
	}
	p.delta(m, v[0], "thinking", invariants.MoveReasoning)
	p.delta(m, v[1], "content", invariants.MoveText)
	p.toolCalls(m, v[2], "message.tool_calls")
}

// toolCalls maps a tool_calls array (message.tool_calls on /api/chat,
// tool_calls on /api/generate's frame).
func (p *mapper) toolCalls(m *invariants.Mapping, tc decode.Raw, where string) {
	// ollama-python validates /api/chat's calls (Message.ToolCall); neither
	// SDK types /api/generate's (GenerateResponse has no tool_calls in
	// ollama/_types.py nor in ollama-js src/interfaces.ts): a defect there
	// departs from the API's types, no client breaks on it.
	sev := invariants.SevError
	if where == "tool_calls" {
		sev = invariants.SevWarn
	}
	switch tc.Kind() {
	case decode.KindNone, decode.KindNull:
	case decode.KindArray:
		cIt := tc.Elements()
		for c, ok := cIt.Next(); ok; c, ok = cIt.Next() {
			p.toolCall(m, c, sev)
		}
	default:
		m.Raise("payload-malformed", sev, "tool_calls: %s is %s, want an array", where, invariants.KindName(tc))
	}
}

// delta maps a string member v (content, thinking, response: key) to a
// move; an empty string moves nothing (the done frame's content is "").
func (p *mapper) delta(m *invariants.Mapping, v decode.Raw, key string, kind invariants.MoveKind) {
	switch v.Kind() {
	case decode.KindNone, decode.KindNull:
	case decode.KindString:
		if v.IsNonEmptyStr() {
			m.Add(invariants.Move{Kind: kind, Text: v})
		}
	default:
		m.Malformed(key, key+" is "+invariants.KindName(v)+", want a string")
	}
}

// toolCall maps one whole tool call (api/types.go ToolCall: function with
// name and arguments, an object; id and function.index on newer servers):
// opened, its arguments, ready at once. The call has no id on older
// servers: it gets one of ours, "call N".
func (p *mapper) toolCall(m *invariants.Mapping, c decode.Raw, sev invariants.Severity) {
	if p.calls >= maxToolCalls {
		if !p.flooded {
			p.flooded = true
			m.Raise("tool-flood", invariants.SevWarn, "more than %d tool calls in one stream: the rest are not checked", maxToolCalls)
		}
		return
	}
	fn := c.Get("function")
	if c.Kind() != decode.KindObject || fn.Kind() != decode.KindObject {
		m.Raise("payload-malformed", sev, "tool_calls: a tool call is %s without a function object", invariants.KindName(c))
		return
	}
	p.calls++
	key := c.Get("id")
	if !key.IsNonEmptyStr() {
		key = invariants.Lit("call " + strconv.Itoa(p.calls))
	}
	name := fn.Get("name")
	if !name.IsNonEmptyStr() {
		// ollama-python's Function.name is a required str: the
		// response fails validation; ollama-js hands on a nameless call.
		m.Raise("tool-malformed", sev, "a tool call without a function name (%s)", invariants.KindName(name))
		name = nil
	}
	p.keys = append(p.keys, append([]byte(nil), key...))
	m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: key, Name: name})
	switch args := fn.Get("arguments"); args.Kind() {
	case decode.KindObject:
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: key, Text: args})
	case decode.KindNone, decode.KindNull:
		// ollama-python's Function.arguments is a required Mapping: a
		// call without it fails validation. The server always sends it
		// ({} for none: api/types.go ToolCallFunctionArguments.MarshalJSON).
		m.Raise("payload-malformed", sev, "tool_calls: function.arguments is %s, want an object", invariants.KindName(args))
	default:
		// ollama-python's Message.ToolCall.Function.arguments is a
		// Mapping: a JSON string there fails validation.
		m.Raise("payload-malformed", sev, "tool_calls: function.arguments is %s, want an object", invariants.KindName(args))
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
}

// done ends the turn: its done_reason gives the outcome. A second done
// frame is only after-terminal (one defect, one alarm).
func (p *mapper) done(f *decode.Frame, m *invariants.Mapping) {
	p.ended = true
	outcome := invariants.TurnCompleted
	dr := f.Get("done_reason")
	switch dr.Kind() {
	case decode.KindNone, decode.KindNull:
		m.Raise("done-reason", invariants.SevInfo, "the done frame has no done_reason (a server before v0.1.3x, ollama.com's turbo, or a runner whose connection closed): the turn is read as completed")
	case decode.KindString:
		s, _ := dr.Str()
		if o, ok := doneReasons[s]; ok {
			outcome = o
		} else {
			m.Raise("done-reason", invariants.SevInfo, "done_reason %q is not one the server sends (stop, length, load, unload): the turn is read as completed", decode.Clip(s, 60))
		}
	default:
		m.Malformed("done", "done_reason is "+invariants.KindName(dr)+", want a string")
	}
	mv := invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: litDone}
	if outcome != invariants.TurnCompleted {
		mv.Code = dr
		p.closeCalls(m, outcome)
	}
	m.Add(mv)
}

// closeCalls ends the turn's tool calls with the turn's outcome (one
// defect, one alarm: not also tool-unfinished for each call).
func (p *mapper) closeCalls(m *invariants.Mapping, outcome string) {
	for _, k := range p.keys {
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: k, Outcome: outcome})
	}
	p.keys = p.keys[:0]
}

// envelope holds model fixed (envelope-drift, warn: the SDKs yield each
// frame's own model and never compare).
func (p *mapper) envelope(m *invariants.Mapping, model decode.Raw) {
	b, ok := model.StrBytes()
	if !ok {
		return
	}
	if p.model == nil {
		p.model = append([]byte{}, b...)
		return
	}
	if !bytes.Equal(p.model, b) && !p.drifted {
		p.drifted = true
		m.Raise("envelope-drift", invariants.SevWarn, "model changed from %q to %q mid-stream", decode.Clip(string(p.model), 40), decode.Clip(string(b), 40))
	}
}

func clipStr(r decode.Raw) string {
	s, ok := r.Str()
	if !ok {
		return invariants.KindName(r)
	}
	return strconv.Quote(decode.Clip(s, 80))
}
