package a2a

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// mapper keeps one stream's state beyond the Engine's: the version and
// JSON-RPC id to hold fixed, the task's ids, whether the turn is a task or
// a message, the interrupted state the stream may end at, the artifacts
// (open or closed by lastChunk) and the tool calls still unanswered.
type mapper struct {
	begun, ended bool
	// midTask: a v0.3 stream that began with an update (tasks/resubscribe,
	// or ADK's submitted status): artifacts sent before it are unknown.
	midTask       bool
	task          bool   // the turn is a task (a Task or an update came)
	version       string // flavorV03 or flavorV10, "" before the first event
	mixed         bool   // version-mixed raised
	rpcID         []byte
	haveRPC       bool
	drifted       bool
	noID          bool // a response without id was reported
	strictRaised  bool // a v1.0 member outside the proto was reported
	taskID, ctxID []byte
	idRaised      [2]bool
	pending       string // an interrupted state's outcome the stream may end at
	arts          idSet
	tools         idSet
	flooded       bool
	calls         int   // tool calls without an id (synthetic keys)
	ev            event // the frame being mapped (kept here: it is large)
	top           top
}

func newMapper() invariants.Mapper { return &mapper{} }

// Constants the mapper puts in moves.
var (
	litError    = invariants.Lit("error")
	litMessage  = invariants.Lit("message")
	litStatus   = invariants.Lit("status-update")
	litTask     = invariants.Lit("task")
	litEnd      = invariants.Lit("end of stream")
	litArtifact = invariants.Lit("artifact")
)

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	ev, t := &p.ev, &p.top
	ev.classify(f, t)
	if t.jsonrpc != nil {
		p.envelope(t, m)
	}
	switch ev.kind {
	case evNone:
		if r := t.result; r != nil && t.jsonrpc != nil {
			m.Malformed("result", "result is "+invariants.KindName(r)+", want an object")
			m.Stream = true // no event: it opens no turn
			return
		}
		m.Unknown, m.Stream = true, true
		return
	case evUnknown:
		m.Unknown, m.Stream = true, true
		return
	case evError:
		p.rpcError(m, ev.body)
		return
	}
	p.versionOf(ev, m)
	p.strictFields(m, ev)
	switch ev.kind {
	case evTask:
		p.taskEvent(m, ev)
	case evStatus:
		p.statusEvent(m, ev)
	case evArtifact:
		p.artifactEvent(m, ev)
	case evMessage:
		p.messageEvent(m, ev)
	}
}

// envelope checks the JSON-RPC response envelope (JSON-RPC 2.0 §5): the
// version is "2.0", and every response of the stream answers the same
// request id (envelope-drift, error: a2a-js's JSON-RPC transports compare
// every event's id with the request's and throw on a mismatch). An error
// response is not compared: the client throws at it whatever its id (a
// server that lost the request id answers null), and its failed terminal
// says so.
func (p *mapper) envelope(t *top, m *invariants.Mapping) {
	if v := t.jsonrpc; !v.StrEq("2.0") {
		m.Malformed("response", "jsonrpc is "+decode.Clip(string(v), 20)+", want \"2.0\"")
	}
	id := t.id
	if t.err != nil && t.result == nil {
		return
	}
	if id == nil {
		// JSON-RPC 2.0 §5: id is REQUIRED on a response. a2a-js compares
		// it with the request's (undefined !== id) and throws.
		if !p.noID {
			p.noID = true
			m.Malformed("response", "the JSON-RPC response has no id: a2a-js throws \"JSON-RPC response ID mismatch in SSE event\" (said once per stream)")
		}
		return
	}
	if !p.haveRPC {
		p.rpcID, p.haveRPC = append(p.rpcID[:0], id...), true
		return
	}
	if !bytes.Equal(p.rpcID, id) && !p.drifted {
		p.drifted = true
		m.Raise("envelope-drift", invariants.SevError, "the JSON-RPC id changed from %s to %s mid-stream: a2a-js throws \"JSON-RPC response ID mismatch in SSE event\" (said once per stream)", decode.Clip(string(p.rpcID), 40), decode.Clip(string(id), 40))
	}
}

// versionOf names the stream's version from its first event (v0.3's kind,
// or the proto's msg member; else v1.0's wrappers) and holds it.
func (p *mapper) versionOf(ev *event, m *invariants.Mapping) {
	v := flavorV10
	if ev.form == formKind || ev.wrapper == "msg" {
		v = flavorV03
	}
	switch {
	case p.version == "":
		p.version = v
		m.SetFlavor(v)
	case p.version != v && !p.mixed:
		p.mixed = true
		m.Raise(ruleVersionMixed, invariants.SevError, "a %s event in a %s stream: the SDK reads the stream with one version's model (said once per stream)", v, p.version)
	}
}

// rpcError: a JSON-RPC error response ends the stream; the SDK raises the
// error it maps the code to (a2a-python _create_jsonrpc_error).
func (p *mapper) rpcError(m *invariants.Mapping, e decode.Raw) {
	if e.Kind() != decode.KindObject {
		m.Malformed("error", "error is "+invariants.KindName(e)+", want an object with code and message")
	} else if e.Get("code").Kind() != decode.KindNumber {
		m.Malformed("error", "error.code is "+invariants.KindName(e.Get("code"))+", want an integer")
	}
	p.start(m, true, nil)
	if p.ended {
		return // after-terminal from the Engine
	}
	p.closeAll(m, invariants.TurnFailed)
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError,
		Code: e.Get("code"), Text: strOrNil(e.Get("message")), Final: true})
	p.ended = true
}

// start opens the turn on its first event: a Task or a Message opens it
// (§3.1.2); an update first opens it too, with start-missing (warn).
func (p *mapper) start(m *invariants.Mapping, opens bool, key decode.Raw) {
	if p.begun {
		return
	}
	p.begun = true
	if m.TurnOpen() {
		// A frame that was no event (broken JSON) opened the turn and
		// was alarmed for; this event only names it.
		if key.Kind() == decode.KindString {
			m.Add(invariants.Move{Kind: invariants.MoveTurnKey, Key: key})
		}
		return
	}
	if !opens && p.version == flavorV03 {
		p.midTask = true
	}
	if opens || p.version == flavorV03 {
		// v0.3 asks for no leading Task (its §7.2 lists the four result
		// kinds in any order) and its ClientTaskManager builds the task
		// from a first update; ADK's executor on a2a-python 0.3.x begins
		// with a submitted status-update. v1.0 §3.1.2 says MUST.
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: strOrNil(key)})
		return
	}
	m.Raise("start-missing", invariants.SevWarn, "the stream's first event is an update, not a Task or Message (§3.1.2: a task stream MUST begin with the Task): the SDK yields it, the client never sees the task's snapshot")
	m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: strOrNil(key)})
}

// ids holds the task's taskId and contextId fixed (§3.4.2: a task lives in
// one context): the first event names them, a later one that differs is
// id-mismatch, once per field.
func (p *mapper) ids(m *invariants.Mapping, what string, taskID, ctxID decode.Raw) {
	check := func(i int, field string, v decode.Raw, keep *[]byte) {
		b, ok := v.StrBytes()
		if !ok {
			return
		}
		if *keep == nil {
			*keep = append([]byte{}, b...)
			return
		}
		if !bytes.Equal(*keep, b) && !p.idRaised[i] {
			p.idRaised[i] = true
			m.Raise(ruleIDMismatch, invariants.SevError, "%s for %s %q, but the stream's task has %q: the SDK applies it to its task (said once per stream)",
				what, field, decode.Clip(string(b), 40), decode.Clip(string(*keep), 40))
		}
	}
	check(0, "taskId", taskID, &p.taskID)
	check(1, "contextId", ctxID, &p.ctxID)
}

func strOrNil(r decode.Raw) decode.Raw {
	if r.Kind() == decode.KindString {
		return r
	}
	return nil
}
