package a2a

import (
	"framescope/decode"
	"framescope/invariants"
)

// taskEvent: a Task opens the turn (§3.1.2, §3.1.6: the first event of a
// task stream); later, v1.0 reads it as a snapshot (§11.7: a final Task
// snapshot MAY close the stream) while v0.3's SDK raises on it.
func (p *mapper) taskEvent(m *invariants.Mapping, ev *event) {
	id := ev.v[fID]
	if id.Kind() != decode.KindString {
		m.Malformed("task", "id is "+invariants.KindName(id)+", want a string")
	}
	if !p.begun {
		p.start(m, true, id)
		p.task = true
		p.ids(m, "a task", id, ev.v[fCtxID])
		p.status(m, ev, nil, litTask)
		p.snapshotArtifacts(m, ev.v[fArtifacts])
		return
	}
	if p.version == flavorV03 {
		m.Raise(ruleTaskRepeated, invariants.SevError, "a second Task event: a2a-python's ClientTaskManager raises \"Task is already set\"")
		m.Stream = p.ended // one defect, one alarm: not after-terminal too
		return
	}
	p.ids(m, "a task snapshot", id, ev.v[fCtxID])
	if p.ended {
		m.Stream = true // the closing snapshot belongs to the stream
		return
	}
	p.status(m, ev, nil, litTask)
}

// statusEvent: a TaskStatusUpdateEvent (§4.2.1) moves the task; its
// status message is what the client shows.
func (p *mapper) statusEvent(m *invariants.Mapping, ev *event) {
	p.start(m, false, ev.v[fTaskID])
	p.task = true
	p.ids(m, "a status update", ev.v[fTaskID], ev.v[fCtxID])
	var final decode.Raw
	if p.version == flavorV03 {
		final = ev.v[fFinal]
		if final == nil {
			final = decode.Raw("false")
		}
	}
	p.status(m, ev, final, litStatus)
}

// status maps a TaskStatus: its state is progress, its message's parts
// the client text and tool calls, and the state or v0.3's final flag may
// end the turn.
func (p *mapper) status(m *invariants.Mapping, ev *event, final decode.Raw, name decode.Raw) {
	if st := ev.v[fStatus]; st.Kind() != decode.KindObject {
		m.Malformed(string(names[evStatus]), "status is "+invariants.KindName(st)+", want an object")
		return
	}
	sv := &ev.status
	state := sv[0]
	ph, outcome := stateOf(state)
	if state.Kind() != decode.KindString {
		m.Malformed("status", "status.state is "+invariants.KindName(state)+", want a string")
	} else {
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: state})
		if ph == phaseUnknown {
			m.Raise("event-unknown", invariants.SevInfo, "task state %s is not one A2A lists; read as a working task", decode.Clip(string(state), 60))
			ph = phaseActive
		}
	}
	if p.ended {
		return // after-terminal from the Engine; nothing more to read
	}
	if msg := sv[1]; msg.Kind() == decode.KindObject {
		// A submitted status may echo the user's own message (ADK's
		// executor does): not the agent's text.
		if r := msg.Get("role"); !r.StrEq("user") && !r.StrEq("ROLE_USER") {
			parts := msg.Get("parts")
			if parts == nil {
				parts = msg.Get("content") // the v0.3 proto's name
			}
			p.parts(m, parts, nil)
		}
	}
	fin, hasFinal := false, final != nil
	if hasFinal {
		var ok bool
		if fin, ok = final.Bool(); !ok {
			m.Malformed("status-update", "final is "+invariants.KindName(final)+", want a boolean")
			hasFinal = false
		}
	}
	switch ph {
	case phaseTerminal:
		if hasFinal && !fin {
			m.Raise(ruleFinalFlag, invariants.SevWarn, "state %s is terminal but final is false: a client waiting for final reads on until the stream closes", decode.Clip(string(state), 40))
		}
		p.terminal(m, outcome, name, state)
	case phaseInterrupted:
		if fin {
			p.terminal(m, outcome, name, state)
			return
		}
		p.pending = outcome
	default:
		p.pending = ""
		if fin {
			m.Raise(ruleFinalFlag, invariants.SevWarn, "final on state %s: the stream ends with the task still running", decode.Clip(string(state), 40))
			p.terminal(m, invariants.TurnIncomplete, name, state)
		}
	}
}

// terminal ends the turn: artifacts left without lastChunk are complete
// (the SDK keeps them), unanswered tool calls wait on the user.
func (p *mapper) terminal(m *invariants.Mapping, outcome string, name, code decode.Raw) {
	p.closeAll(m, outcome)
	mv := invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: name}
	if outcome != invariants.TurnCompleted {
		mv.Code = code
	}
	m.Add(mv)
	p.ended, p.pending = true, ""
}

// closeAll closes the open artifacts, and at an interrupted or failed end
// the tool calls still unanswered (ADK's long-running calls wait on the
// user at input-required).
func (p *mapper) closeAll(m *invariants.Mapping, outcome string) {
	for i, id := range p.arts.ids {
		if p.arts.open[i] {
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: decode.Raw(id)})
		}
	}
	p.arts.ids, p.arts.open = p.arts.ids[:0], p.arts.open[:0]
	if outcome != invariants.TurnCompleted {
		for _, id := range p.tools.ids {
			if m.ToolIsOpen(decode.Raw(id)) {
				m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: decode.Raw(id), Outcome: outcome})
			}
		}
	}
	p.tools.ids, p.tools.open = p.tools.ids[:0], p.tools.open[:0]
}

// artifactEvent: a TaskArtifactUpdateEvent (§4.2.2) is a chunk of a
// component named by artifactId: append extends the artifact a previous
// chunk started, lastChunk closes it; without append a chunk starts (or
// replaces) it.
func (p *mapper) artifactEvent(m *invariants.Mapping, ev *event) {
	p.start(m, false, ev.v[fTaskID])
	p.task = true
	p.ids(m, "an artifact update", ev.v[fTaskID], ev.v[fCtxID])
	if p.ended {
		return
	}
	id, name, parts := ev.artifact[0], ev.artifact[1], ev.artifact[2]
	if !name.IsNonEmptyStr() {
		name = litArtifact
	}
	if !id.IsNonEmptyStr() {
		m.Malformed("artifact-update", "artifact.artifactId is "+invariants.KindName(id)+", want a non-empty string")
		p.parts(m, parts, nil) // the client still shows its text
		return
	}
	appendChunk, _ := ev.v[fAppend].Bool()
	last, _ := ev.v[fLast].Bool()
	i := p.arts.find(id)
	tracked := true
	switch {
	case appendChunk && i >= 0 && !p.arts.open[i]:
		m.Raise(ruleAfterLastChunk, invariants.SevWarn, "artifact %s gets an append chunk after its lastChunk", decode.Clip(string(id), 60))
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: name})
		p.arts.open[i] = true
	case appendChunk && i < 0 && p.midTask:
		// A v0.3 stream joined mid-task (tasks/resubscribe sends no Task
		// snapshot in v0.3): the artifact began before the stream did.
		if tracked = p.track(m, id); tracked {
			m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: name})
		}
	case appendChunk:
		// Open: the chunk extends it. Never started: its text move is
		// span-orphan (the SDK drops an append for an unknown artifact).
	case i >= 0 && p.arts.open[i]:
		// A chunk without append replaces the artifact (the SDK does).
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: id})
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: name})
	case i >= 0:
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: name})
		p.arts.open[i] = true
	default:
		if tracked = p.track(m, id); tracked {
			m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: name})
		}
	}
	if !tracked {
		p.parts(m, parts, nil)
		return
	}
	if appendChunk && p.arts.find(id) < 0 {
		// One delta for the span that was never opened: the Engine's
		// span-orphan, once for the chunk (the SDK drops it whole).
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanItem, Key: id})
		return
	}
	p.parts(m, parts, id)
	if last {
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: id})
		if j := p.arts.find(id); j >= 0 {
			p.arts.open[j] = false
		}
	}
}

// track adds a new artifact id; past the bound it raises artifact-flood
// (once) and reports false.
func (p *mapper) track(m *invariants.Mapping, id decode.Raw) bool {
	if p.arts.add(id) {
		return true
	}
	if !p.flooded {
		p.flooded = true
		m.Raise(ruleArtifactFlood, invariants.SevWarn, "more than %d artifacts in one stream: the checker stops tracking new ones (said once)", maxTracked)
	}
	return false
}

// artifactName is what the components pane names an artifact by.
func artifactName(art decode.Raw) decode.Raw {
	if n := art.Get("name"); n.IsNonEmptyStr() {
		return n
	}
	return litArtifact
}

// snapshotArtifacts: a Task that opens the stream may already hold
// artifacts (a resubscription): each is a component later chunks may
// append to.
func (p *mapper) snapshotArtifacts(m *invariants.Mapping, arts decode.Raw) {
	aIt := arts.Elements()
	for a, ok := aIt.Next(); ok; a, ok = aIt.Next() {
		id := a.Get("artifactId")
		if !id.IsNonEmptyStr() {
			continue
		}
		if p.arts.find(id) >= 0 || !p.arts.add(id) {
			continue
		}
		// Open: later chunks may append to it; the terminal closes it.
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: artifactName(a)})
		p.parts(m, a.Get("parts"), id)
	}
}

// messageEvent: a Message opens and ends a message-only stream (§3.1.2:
// exactly one Message, then the stream closes); in a task stream the SDK
// stops reading at it (message-in-task).
func (p *mapper) messageEvent(m *invariants.Mapping, ev *event) {
	if !p.begun {
		p.start(m, true, ev.v[fMessageID])
		p.ids(m, "a message", ev.v[fTaskID], ev.v[fCtxID])
		p.parts(m, ev.v[fParts], nil)
		p.terminal(m, invariants.TurnCompleted, litMessage, nil)
		return
	}
	if p.ended {
		return // after-terminal from the Engine
	}
	p.ids(m, "a message", ev.v[fTaskID], ev.v[fCtxID])
	m.Raise(ruleMessageInTask, invariants.SevWarn, "a Message in a task stream: the SDK returns at it and reads no further")
	p.parts(m, ev.v[fParts], nil)
	p.terminal(m, invariants.TurnCompleted, litMessage, nil)
}

// EndStream: a stream that closed cleanly at an interrupted state ended
// its turn there (§11.7: the stream closes at a terminal or interrupted
// state); the artifacts still open are complete.
func (p *mapper) EndStream(m *invariants.Mapping) {
	if p.ended || !p.begun {
		return
	}
	if p.pending != "" && m.EndedAtEOF() {
		p.terminal(m, p.pending, litEnd, nil)
		return
	}
	for i, id := range p.arts.ids {
		if p.arts.open[i] {
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: decode.Raw(id)})
		}
	}
	p.arts.ids, p.arts.open = p.arts.ids[:0], p.arts.open[:0]
}
