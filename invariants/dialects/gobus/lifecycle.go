package gobus

import (
	"framescope/decode"
	"framescope/invariants"
)

// The runtime's own lifecycle paths, read against agently-core at
// 7a3a757343bf011b9b4342420705900d8c86ce80, send frames that a turn model
// built from the seed alone would flag on healthy streams. The mapper keeps
// what it needs to tell them apart: per turnId, whether the turn is open,
// ended by turn_canceled, or only queued; per tool call, whether it is open
// and whether it is an async operation (its frames carry operationId).
//
//   - Cancel. registerTurnCancel (service/agent/run_queue.go) patches the
//     turn "canceled" at once (turn_canceled), and the Query that ran the
//     turn winds down and finalizes it again (finalizeTurn, run_turn.go):
//     a second turn_canceled, with the in-flight model and tool calls
//     ending between the two. The reducer keeps a failed or canceled turn
//     as it is (finalizeTurn in sdk/canonical_helpers.go) and applies the
//     wind-down to its steps: nothing renders wrongly. Frames of a turn
//     after its turn_canceled belong to the stream.
//   - Re-entry. A Query started again with the same MessageID
//     (continueQueueConversation in sdk/embedded_queue.go after a tool
//     approval; a resumed run) goes through startTurn and publishes
//     turn_started for a turn that went waiting_for_user without a
//     terminal. The reducer marks the turn running again. start-duplicate
//     at info, no second start.
//   - A queued turn that fails before it starts (drainQueuedTurns: its
//     starter message is gone) gets turn_failed without turn_started; the
//     reducer finalizes the queued turn turn_queued created. No
//     start-missing: the frame belongs to the stream.
//   - Tool calls stated twice. PatchToolCall publishes tool_call_started
//     and tool_call_completed (internal/service/conversation/service.go
//     toolCallEvent); the skill service's nested calls publish their own
//     tool_call_started and tool_call_completed / _failed under the same
//     toolCallId (service/skill/service.go publishNestedToolLifecycleEvent).
//     A second start naming the same tool, and a second end, are
//     re-statements the reducer upserts by toolCallId; a start naming
//     another tool is a second invocation (tool-duplicate).
//   - Async tools (service/shared/toolexec/async_tools.go). The async
//     manager publishes tool_call_started again for the call that started
//     the operation, then tool_call_waiting / _delta / _completed / _failed
//     / _canceled from its poller, with operationId set, while the call's
//     own tool_call_completed (PatchToolCall) comes when the starting tool
//     returns; a poller may report after the turn's terminal. The reducer
//     upserts the step by toolCallId and takes the latest status. So a
//     repeated start or an update for an async call that is no longer open
//     (and any async update after the turn ended) makes no move.

// turnRec is what the mapper knows of one turnId.
type turnRec struct {
	open, ended, canceled, queued bool
	gen                           uint32 // counts the turn's starts: a call record of an earlier start is stale
	tools                         map[string]*toolRec
	spans                         map[string]*spanRec
	owner                         *mapper // counts the records (maxTrackedAll)
}

// spanRec is an open-or-closed model call, skill or elicitation of a turn.
type spanRec struct {
	open bool
	kind invariants.SpanKind
	gen  uint32
}

// toolRec is what the mapper knows of one tool call of a turn.
type toolRec struct {
	seen, open, async bool
	gen               uint32
	name              []byte // the toolName of its first start
}

// maxTracked bounds the turns (and the calls of one turn) the mapper
// remembers; past it the memory starts over. maxTrackedAll bounds the
// records of every turn together (an id flood of many turns with many
// calls each stays bounded too): past it all of them start over.
const (
	maxTracked    = 4096
	maxTrackedAll = 1 << 16
)

// recorded counts one more record; past maxTrackedAll the memory of
// every turn starts over.
func (p *mapper) recorded() {
	p.tracked++
	if p.tracked > maxTrackedAll {
		clear(p.turns)
		p.tracked = 0
	}
}

func (p *mapper) turn(id decode.Raw) *turnRec {
	if p.turns == nil {
		p.turns = map[string]*turnRec{}
	}
	if r := p.turns[string(id)]; r != nil {
		return r
	}
	if len(p.turns) >= maxTracked {
		clear(p.turns)
	}
	p.recorded()
	r := &turnRec{owner: p}
	p.turns[string(id)] = r
	return r
}

func (r *turnRec) tool(id decode.Raw) *toolRec { return record(r, &r.tools, id) }
func (r *turnRec) span(id decode.Raw) *spanRec { return record(r, &r.spans, id) }

// callRec is a call record of a turn: toolRec or spanRec.
type callRec[T any] interface {
	*T
	generation() uint32
	restart(gen uint32) // forget all but the buffers, as of the turn's start gen
}

// record finds (or makes) the record of id in a turn's map: one made for
// an earlier start of the turn starts over.
func record[T any, P callRec[T]](r *turnRec, recs *map[string]P, id decode.Raw) P {
	if *recs == nil {
		*recs = map[string]P{}
	}
	if t := (*recs)[string(id)]; t != nil {
		if t.generation() != r.gen {
			t.restart(r.gen)
		}
		return t
	}
	if len(*recs) >= maxTracked {
		clear(*recs)
	}
	r.owner.recorded()
	t := P(new(T))
	t.restart(r.gen)
	(*recs)[string(id)] = t
	return t
}

func (t *toolRec) generation() uint32 { return t.gen }
func (t *toolRec) restart(gen uint32) { *t = toolRec{gen: gen, name: t.name[:0]} }
func (t *spanRec) generation() uint32 { return t.gen }
func (t *spanRec) restart(gen uint32) { *t = spanRec{gen: gen} }

// windDown: at turn_canceled the runtime has yet to end the calls in
// flight (they end canceled after it, in the wind-down); the cancel ends
// them for the engine, as the reducer will once their frames come.
func (r *turnRec) windDown(m *invariants.Mapping) {
	for id, t := range r.tools {
		if t.gen == r.gen && t.open {
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: decode.Raw(id), Outcome: invariants.TurnCancelled})
		}
	}
	for id, sp := range r.spans {
		if sp.gen == r.gen && sp.open {
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: sp.kind, Key: decode.Raw(id)})
		}
	}
}

// lifecycle reads a turn frame against the runtime's paths above. It
// returns false when the frame makes no move (the caller maps it to the
// stream and stops); it may raise start-duplicate at info.
func (p *mapper) lifecycle(f *decode.Frame, m *invariants.Mapping, k kind, turnID decode.Raw) bool {
	r := p.turn(turnID)
	async := f.Get("operationId").IsNonEmptyStr()
	switch k {
	case kTurnStarted:
		if r.open {
			m.Raise("start-duplicate", invariants.SevInfo, "turn_started for the open turn %s: the runtime re-entered the turn (a run resumed after waiting for the user); the reducer marks it running again",
				decode.Clip(string(turnID), 40))
			return false
		}
		r.open, r.ended, r.canceled, r.queued = true, false, false, false
		r.gen++
		return true
	case kTurnCompleted, kTurnFailed, kTurnCanceled:
		switch {
		case r.canceled:
			return false
		case !r.open && r.queued:
			// A queued turn ended before it started.
			r.queued = false
			return false
		}
		if k == kTurnCanceled && r.open {
			r.windDown(m)
		}
		r.open, r.ended = false, true
		r.canceled = k == kTurnCanceled
		return true
	}
	if r.canceled || (r.ended && async) {
		// The wind-down of a canceled turn; an async update after the turn
		// ended.
		return false
	}
	if !r.open && !r.ended && !r.queued {
		// A turn the stream never started: the engine opens it
		// (start-missing); follow it as open.
		r.open = true
	}
	switch k {
	case kModelStarted, kModelCompleted, kSkillStarted, kSkillCompleted, kElicitationRequested, kElicitationResolved:
		var id decode.Raw
		sk := invariants.SpanModelCall
		switch k {
		case kModelStarted, kModelCompleted:
			id = modelKey(f)
		case kSkillStarted, kSkillCompleted:
			id, sk = f.Get("skillExecutionId"), invariants.SpanSkill
		default:
			id, sk = f.Get("elicitationId"), invariants.SpanElicitation
		}
		if id.IsNonEmptyStr() {
			sp := r.span(id)
			if k == kModelStarted && sp.open {
				// The call's status moves on (beginModelCall patches
				// "thinking", the first chunk "streaming"): PatchModelCall
				// publishes model_started for each; the chatStore matches
				// the open step by messageId.
				return false
			}
			sp.kind = sk
			sp.open = k == kModelStarted || k == kSkillStarted || k == kElicitationRequested
		}
		return true
	case kToolStarted:
		id := f.Get("toolCallId")
		if !id.IsNonEmptyStr() {
			return true
		}
		t := r.tool(id)
		name := f.Get("toolName")
		if t.seen && (!name.IsNonEmptyStr() || len(t.name) == 0 || string(t.name) == string(name)) {
			// The runtime states the start twice: PatchToolCall's
			// tool_call_started and the one the skill service
			// (publishNestedToolLifecycleEvent) or the async manager
			// publishes for the same call. Another tool under the same
			// id is a second invocation: tool-duplicate.
			t.async = t.async || async
			return false
		}
		t.seen, t.open = true, true
		t.async = t.async || async
		if name.IsNonEmptyStr() {
			t.name = append(t.name[:0], name...)
		}
		return true
	case kToolCallDelta, kToolWaiting, kToolCompleted, kToolFailed, kToolCanceled:
		id := f.Get("toolCallId")
		if !id.IsNonEmptyStr() {
			id = f.Get("operationId")
		}
		if !id.IsNonEmptyStr() {
			return true
		}
		t := r.tool(id)
		closing := k == kToolCompleted || k == kToolFailed || k == kToolCanceled
		if t.seen && !t.open && (closing || t.async || async) {
			// A second close re-states the end (PatchToolCall's
			// tool_call_completed, then the skill service's own
			// tool_call_completed / _failed); an async operation goes on
			// after the call that started it returned. The reducer keeps
			// the step ended or takes the operation's latest status.
			t.async = t.async || async
			return false
		}
		t.seen = true
		t.async = t.async || async
		if closing {
			t.open = false
		}
		return true
	}
	return true
}
