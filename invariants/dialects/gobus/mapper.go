package gobus

import (
	"framescope/decode"
	"framescope/invariants"
)

// Constants the moves carry, made once (mapping allocates nothing).
var (
	litEventSeq = invariants.Lit("eventSeq")
	litNoScope  = invariants.Lit("")
)

// mapper keeps almost no state: the Engine tracks turns, spans, tools and
// the eventSeq counter from the moves.
type mapper struct {
	deltas bool                // the latest turn streamed text_delta frames
	turns  map[string]*turnRec // lifecycle.go
	// tracked counts the records in turns and their calls (lifecycle.go).
	tracked int
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	typ := f.Get("type")
	m.Type = typ
	k := classify(typ)

	if at, ok := p.check(f, m, typ); ok {
		stamp(m, at)
	}
	p.seq(f, m, k)

	// Which turn: conversation-level events and events without a turnId
	// belong to the stream; the others to the turn their turnId names (a
	// turnId the stream never started opens it: start-missing).
	turnID := f.Get("turnId")
	switch {
	case k.streamLevel() || !turnID.IsNonEmptyStr():
		m.Stream = true
		if k == kTurnQueued && turnID.IsNonEmptyStr() {
			if r := p.turn(turnID); !r.open {
				r.queued = true
			}
		}
	case !p.lifecycle(f, m, k, turnID):
		// The runtime's own paths (lifecycle.go): the frame belongs to
		// the stream and makes no move.
		m.Stream = true
		return
	default:
		m.Turn = turnID
	}

	switch k {
	case kUnknown:
		if typ.Kind() == decode.KindString {
			m.Unknown = true
		}
	case kTurnStarted:
		p.deltas = false
		if !turnID.IsNonEmptyStr() {
			m.Malformed(label(f), "turnId is "+invariants.KindName(turnID)+", want the id of the turn it opens")
			return
		}
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: turnID})
	case kTurnCompleted, kTurnFailed, kTurnCanceled:
		if !turnID.IsNonEmptyStr() {
			// The reference reducer files it under an empty turn id: the
			// running turn never ends in the client.
			m.Malformed(label(f), "turnId is "+invariants.KindName(turnID)+", want the id of the turn it ends")
			return
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome(k), Name: typ, Text: f.Get("error")})
	case kTurnQueued:
		// Announces a turn behind the active one; turn_started opens it.
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: f.Get("content")})
	case kModelStarted, kModelCompleted:
		p.span(f, m, k == kModelStarted, invariants.SpanModelCall, modelKey(f), "messageId", modelName(f))
	case kSkillStarted, kSkillCompleted:
		p.span(f, m, k == kSkillStarted, invariants.SpanSkill, f.Get("skillExecutionId"), "skillExecutionId", f.Get("skillName"))
	case kElicitationRequested, kElicitationResolved:
		p.span(f, m, k == kElicitationRequested, invariants.SpanElicitation, f.Get("elicitationId"), "elicitationId", nil)
	case kTextDelta:
		// No event opens a message: text is grouped by messageId but no
		// span is required (Span none: no span-orphan).
		p.deltas = true
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: f.Get("messageId"), Text: f.Get("content")})
	case kAssistant:
		// The whole message row, idempotent by messageId: after streamed
		// deltas it repeats what the client already shows, so it is text
		// only for a turn that streamed none. A user's message
		// (patch.role "user", the same event type) is not the answer.
		if !p.deltas && !f.Get("patch").Get("role").StrEq("user") {
			m.Add(invariants.Move{Kind: invariants.MoveText, Key: f.Get("messageId"), Text: f.Get("content")})
		}
	case kReasoningDelta:
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Key: f.Get("messageId"), Text: f.Get("content")})
	case kNarration:
		text := f.Get("content")
		if text == nil {
			text = f.Get("narration")
		}
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: text})
	case kError:
		m.Add(invariants.Move{Kind: invariants.MoveError, Text: f.Get("error")})
	case kToolStarted:
		// An empty or missing toolCallId is tool-malformed (Engine).
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: f.Get("toolCallId"), Name: f.Get("toolName")})
	case kToolCallDelta, kToolWaiting:
		// Both need an open call (tool-orphan); neither ends it.
		if key, ok := toolKey(f, m); ok {
			mv := invariants.Move{Kind: invariants.MoveToolArgs, Key: key}
			if k == kToolCallDelta {
				mv.Text = f.Get("content")
			}
			m.Add(mv)
		}
	case kToolCompleted, kToolFailed, kToolCanceled:
		if key, ok := toolKey(f, m); ok {
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key, Name: f.Get("toolName"), Outcome: outcome(k)})
		}
	case kOverflow:
		p.overflow(f, m)
	}
}

// check raises the rules every frame is subject to: a type and members the
// Event struct can take, and the deprecated finalResponse.
func (p *mapper) check(f *decode.Frame, m *invariants.Mapping, typ decode.Raw) (createdAt invariants.Instant, ok bool) {
	field, got, w, createdAt, ok := badField(f, m)
	switch {
	case typ.Kind() != decode.KindString:
		m.Malformed("event", "type is "+invariants.KindName(typ)+", want a string from the EventType vocabulary")
	case field != "" && w == wTime && got.Kind() == decode.KindString:
		m.Malformed(label(f), field+" is "+decode.Clip(string(got), 48)+", want "+wantNames[w]+" (the client's json.Unmarshal drops the event)")
	case field != "":
		m.Malformed(label(f), field+" is "+invariants.KindName(got)+", want "+wantNames[w]+" (the client's json.Unmarshal drops the event)")
	}
	if v, ok := f.Get("finalResponse").Bool(); ok && v {
		m.Raise("field-deprecated", invariants.SevWarn, "%s sets finalResponse: true; it is deprecated and MUST NOT be set on live stream events (turn_completed ends a turn)", decode.Clip(label(f), 40))
	}
	return createdAt, ok
}

// seq moves eventSeq: one counter per conversation stream (conversationId,
// else streamId, as MemoryBus.Publish keys it), by one from frame to frame;
// a subscription filter may thin it, so a skipped value is a warn. A
// subscriber may join mid-stream: any first value. stream_overflow is
// exempt: its eventSeq is the resume point, not a frame of its own.
func (p *mapper) seq(f *decode.Frame, m *invariants.Mapping, k kind) {
	if k == kOverflow {
		return
	}
	n, ok := invariants.Int(f.Get("eventSeq"))
	if !ok {
		return
	}
	scope := f.Get("conversationId")
	if !scope.IsNonEmptyStr() {
		scope = f.Get("streamId")
	}
	if !scope.IsNonEmptyStr() {
		scope = litNoScope
	}
	m.Add(invariants.Move{Kind: invariants.MoveSeq, Key: scope, Name: litEventSeq, Seq: n, SeqFrom: -1, SeqGap: string(invariants.SevWarn)})
}

// span opens or closes a span; an event without its id cannot be paired.
func (p *mapper) span(f *decode.Frame, m *invariants.Mapping, open bool, kind invariants.SpanKind, key decode.Raw, idName string, spanName decode.Raw) {
	if !key.IsNonEmptyStr() {
		m.Malformed(label(f), idName+" is "+invariants.KindName(key)+", want the id that pairs it")
		return
	}
	if open {
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: kind, Key: key, Name: spanName})
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: kind, Key: key})
}

// overflow: the SSE handler found the subscription closed with
// ReasonOverflow and wrote this last frame. Open turns end without their
// terminal (info: nothing more is owed on this connection); any later frame
// is after-terminal.
func (p *mapper) overflow(f *decode.Frame, m *invariants.Mapping) {
	m.Add(invariants.Move{Kind: invariants.MoveCut})
	if n, ok := invariants.Int(f.Get("eventSeq")); ok {
		m.Raise("stream-overflow", invariants.SevWarn, "the bus cut the subscription (buffer overflow): events were lost; reconnect and resume after eventSeq %d", n)
		return
	}
	m.Raise("stream-overflow", invariants.SevWarn, "the bus cut the subscription (buffer overflow): events were lost; reconnect and resume")
}

// modelKey is model_started's / model_completed's pairing id: messageId
// (the assistant message the call writes), else assistantMessageId, else
// modelCallId. Since agently-core 49245eb (2026-04-21) emitCanonicalModelEvent
// (internal/service/conversation/service.go) sets modelCallId from the
// model call's TraceID, the provider's response id: empty on model_started
// (beginModelCall patches status "thinking" before any response exists)
// and set on model_completed, so it cannot pair them. The TypeScript
// chatStore (sdk/ts/src/chatStore/reducer.ts onModelStarted /
// onModelCompleted) pairs by messageId ("assistant-content events carry
// the assistant-bubble id in messageId") or modelCallId.
func modelKey(f *decode.Frame) decode.Raw {
	for _, k := range [...]string{"messageId", "assistantMessageId", "modelCallId"} {
		if v := f.Get(k); v.IsNonEmptyStr() {
			return v
		}
	}
	return f.Get("modelCallId")
}

func modelName(f *decode.Frame) decode.Raw {
	if n := f.Get("modelName"); n.IsNonEmptyStr() {
		return n
	}
	return f.Get("model").Get("model")
}

// toolKey is a tool event's call id: toolCallId, else operationId (the
// reference reducer's fallback for async updates).
func toolKey(f *decode.Frame, m *invariants.Mapping) (decode.Raw, bool) {
	if k := f.Get("toolCallId"); k.IsNonEmptyStr() {
		return k, true
	}
	if k := f.Get("operationId"); k.IsNonEmptyStr() {
		return k, true
	}
	m.Malformed(label(f), "toolCallId is "+invariants.KindName(f.Get("toolCallId"))+", want the id of the call it belongs to")
	return nil, false
}

func outcome(k kind) string {
	switch k {
	case kTurnFailed, kToolFailed:
		return invariants.TurnFailed
	case kTurnCanceled, kToolCanceled:
		return invariants.TurnCancelled
	}
	return invariants.TurnCompleted
}
