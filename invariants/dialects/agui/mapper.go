package agui

import (
	"framescope/decode"
	"framescope/invariants"
)

// Constant keys and names, built once: mapping a frame allocates nothing.
var (
	// The deprecated THINKING_* events carry no id: one thinking step and
	// one thinking message at a time (verifyEvents keeps two flags).
	thinkingKey    = invariants.Lit("THINKING_START")
	thinkingMsgKey = invariants.Lit("THINKING_TEXT_MESSAGE")
	nameReasoning  = invariants.Lit("reasoning")
	nameAssistant  = invariants.Lit("assistant")
)

// legacyThinking names the older shape: the THINKING_* events that
// @ag-ui/core 0.0.45 renamed REASONING_* (still in EventType, deprecated;
// the client's BackwardCompatibility_0_0_45 middleware maps them).
const legacyThinking = "AG-UI THINKING_* events (before 0.0.45; now REASONING_*)"

// mapper maps one stream. It keeps what the client's pipeline keeps across
// events: the chunk transformer's pending message or tool call, and the
// verifier's run state.
type mapper struct {
	chunk chunkState
	open  openSet
	run   runState
	sep   separatorState
	frame int  // index of the frame being mapped
	seen  bool // a frame was mapped before: the engine has a turn
	first bool // the frame being mapped is the stream's first mapped one
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	p.frame = f.Index
	p.checkSeparator(f, m)
	typ := f.Get("type")
	m.Type = typ
	if typ.StrEq("META") || typ.StrEq("META_EVENT") {
		// The drafts' meta event (docs/drafts/meta-events.mdx: "META";
		// the community Java SDK's META_EVENT) is run-independent: it may
		// come before, between or after runs, so it belongs to the stream.
		// It is outside EventType (the TypeScript client's parse rejects
		// it): event-unknown, info, as for any type the enum lacks.
		m.Stream, m.Unknown = true, true
		return
	}
	p.first, p.seen = !p.seen, true
	if p.first {
		// The stream's first frame opens a run: RUN_STARTED, or a stray
		// event the engine opens a turn for (start-missing).
		p.run.live = true
	}
	readStamp(f, m)
	t := kindOf(typ)
	if t == evNone {
		if typ.Kind() != decode.KindString {
			// Every AG-UI event is discriminated by its type.
			m.Malformed("event", "type is "+invariants.KindName(typ)+", want an AG-UI event type")
		} else {
			m.Unknown = true
		}
		return
	}
	ok := checkPayload(f, t, m)
	if closesChunk(t) {
		p.chunk.close(p, m)
	}
	switch t {
	case evRunStarted:
		p.runStarted(f, m)
	case evRunFinished:
		readUsage(f, m)
		p.runFinished(f, m, typ, ok)
	case evRunError:
		readUsage(f, m)
		p.runError(f, m, typ)

	case evStepStarted:
		p.add(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStep, Key: str(f.Get("stepName")), Name: str(f.Get("stepName"))})
	case evStepFinished:
		p.add(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStep, Key: str(f.Get("stepName"))})

	case evTextStart:
		p.add(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanMessage, Key: str(f.Get("messageId")), Name: str(f.Get("role"))})
	case evTextContent:
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanMessage, Key: str(f.Get("messageId")), Text: str(f.Get("delta"))})
	case evTextEnd:
		p.add(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanMessage, Key: str(f.Get("messageId"))})
	case evTextChunk:
		p.chunk.text(p, f, m)

	case evToolStart:
		p.toolStart(f, m)
	case evToolArgs:
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: str(f.Get("toolCallId")), Text: str(f.Get("delta"))})
	case evToolEnd:
		p.add(m, invariants.Move{Kind: invariants.MoveToolClose, Key: str(f.Get("toolCallId"))})
	case evToolChunk:
		p.chunk.tool(p, f, m)
	case evToolResult:
		// Not checked: verifyEvents does not track results, and a result
		// may answer a call of an earlier run.

	case evReasoningStart:
		p.softOpen(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStep, Key: str(f.Get("messageId")), Name: nameReasoning})
	case evReasoningEnd:
		p.softClose(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStep, Key: str(f.Get("messageId"))})
	case evReasoningMsgStart:
		p.softOpen(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanReasoning, Key: str(f.Get("messageId")), Name: nameReasoning})
	case evReasoningMsgContent:
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanReasoning, Key: str(f.Get("messageId")), Text: str(f.Get("delta"))})
	case evReasoningMsgEnd:
		p.softClose(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanReasoning, Key: str(f.Get("messageId"))})
	case evReasoningMsgChunk:
		p.chunk.reasoning(p, f, m)

	case evThinkingStart:
		m.Legacy(legacyThinking)
		p.addSoft(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStep, Key: thinkingKey, Name: nameReasoning})
	case evThinkingEnd:
		m.Legacy(legacyThinking)
		p.addSoft(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStep, Key: thinkingKey})
	case evThinkingMsgStart:
		m.Legacy(legacyThinking)
		// verifyEvents: a thinking message needs an open thinking step.
		if m.TurnOpen() {
			if _, open := m.SpanName(invariants.SpanStep, thinkingKey); !open {
				m.Raise("span-orphan", invariants.SevError, "THINKING_TEXT_MESSAGE_START outside a thinking step (no open THINKING_START)")
			}
		}
		p.addSoft(m, invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanReasoning, Key: thinkingMsgKey, Name: nameReasoning})
	case evThinkingMsgContent:
		m.Legacy(legacyThinking)
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanReasoning, Key: thinkingMsgKey, Text: str(f.Get("delta"))})
	case evThinkingMsgEnd:
		m.Legacy(legacyThinking)
		p.addSoft(m, invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanReasoning, Key: thinkingMsgKey})
	}
	// STATE_*, MESSAGES_SNAPSHOT, ACTIVITY_*, RAW, CUSTOM and
	// REASONING_ENCRYPTED_VALUE make no move: they are checked for their
	// payload only.
}

// EndStream closes a pending chunk message or tool call: the docs say the
// transformer ends it "when the stream completes".
func (p *mapper) EndStream(m *invariants.Mapping) {
	p.chunk.close(p, m)
}

// toolStart opens a call. Its id and name are what every later event and
// the client's tool pane key on, so a missing one is tool-malformed (the
// engine raises it for the id).
func (p *mapper) toolStart(f *decode.Frame, m *invariants.Mapping) {
	id, name := str(f.Get("toolCallId")), f.Get("toolCallName")
	if name.Kind() != decode.KindString && len(id) > 2 {
		m.Raise("tool-malformed", invariants.SevError, "TOOL_CALL_START %s: toolCallName is %s, want a string",
			clipRaw(id), invariants.KindName(name))
	}
	p.add(m, invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: str(name)})
}

// add adds a move and keeps the set of spans and calls this run opened
// (what an interrupt must find closed).
func (p *mapper) add(m *invariants.Mapping, mv invariants.Move) { p.addAs(m, mv, false) }

// addSoft adds a move of a reasoning or thinking span (soft: see openEntry).
func (p *mapper) addSoft(m *invariants.Mapping, mv invariants.Move) { p.addAs(m, mv, true) }

func (p *mapper) addAs(m *invariants.Mapping, mv invariants.Move, soft bool) {
	m.Add(mv)
	switch mv.Kind {
	case invariants.MoveSpanOpen:
		p.open.add(mv.Span, false, soft, mv.Key, p.frame)
	case invariants.MoveToolOpen:
		p.open.add(invariants.SpanNone, true, false, mv.Key, p.frame)
	case invariants.MoveSpanClose:
		p.open.remove(mv.Span, false, mv.Key)
	case invariants.MoveToolClose:
		p.open.remove(invariants.SpanNone, true, mv.Key)
	}
}

// str returns a JSON string value, nil for anything else (payload-malformed
// already said what is wrong).
func str(v decode.Raw) decode.Raw {
	if v.Kind() != decode.KindString {
		return nil
	}
	return v
}
