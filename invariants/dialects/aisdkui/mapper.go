package aisdkui

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// stepKey is the key of the step span: steps do not nest, so one key makes a
// start-step inside an open step span-duplicate and a finish-step without
// one span-orphan.
var stepKey = invariants.Lit("step")

var dataPrefix = []byte("data-")

// legacyV5 names the older shape: the chunks and values of the v5 schema
// (packages/ai/src/ui-message-stream/ui-message-chunks.ts on the v5.0
// branch) that later schemas reject.
const legacyV5 = "AI SDK UI message stream v5"

type mapper struct {
	parts     []part
	tools     []tool
	toolIndex map[string]int
	spare     tool // the untracked call past maxTools (track.go)
	refused   int  // calls not tracked since the last sweep
	step      int  // start-step chunks seen
	sawStart  bool // a start chunk opened or named the turn
	// stepFrame: one more than the frame of the start-step whose step is
	// open (0: no step open). The client keeps no step state: finish-step
	// only drops its active text and reasoning parts, so a finish-step
	// with no step open is harmless (pydantic-ai's adapter sends one when
	// a run fails before the model answered).
	stepFrame int
	// fresh: no model content of this stream yet (no start-step, text or
	// reasoning part). A continuation stream (after a tool approval, or a
	// client-side tool result) opens with chunks for calls of the message
	// the client already holds — outputs, and re-announced inputs
	// (pydantic-ai's adapter, @ai-sdk/langchain) — before its first step:
	// an output for a call unknown to this stream is then no orphan.
	fresh   bool
	ended   bool // finish or abort seen (or the stream settled at its end)
	aborted bool // the terminal was abort
	done    bool // [DONE] seen
	// lateAt: one more than the frame of the first chunk after the
	// terminal that was reported (0: none yet); endAt: the terminal's
	// frame.
	lateAt, endAt int
	// startID: the messageId of the first start, a copy (nil: none).
	startID []byte
	// errText: the errorText of the latest error chunk before any
	// terminal, a copy (nil: none). useChat throws on an error chunk
	// (Chat.makeRequest's onError rethrows): when no finish follows it —
	// streamText failing before its first step, or a continuation step
	// failing to start — the error was the message's end (end.go).
	errText []byte
}

func newMapper() *mapper { return &mapper{fresh: true} }

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	typ := f.Get("type")
	m.Type = typ
	if typ.Kind() != decode.KindString {
		m.Malformed("chunk", "type is "+invariants.KindName(typ)+", want a string")
		return
	}
	c := fields{f: f, m: m, typ: typ}
	// The type's bytes, unquoted without allocating (an escaped type, which
	// no server sends, is decoded).
	name := []byte(typ[1 : len(typ)-1])
	if bytes.IndexByte(name, '\\') >= 0 {
		s, _ := typ.Str()
		name = []byte(s)
	}
	if p.ended && !p.done {
		p.afterEnd(&c, name)
	}
	p.mapType(&c, name)
}

// afterEnd reads a chunk that follows the terminal (finish or abort) and
// comes before [DONE]. The client does not stop at finish or abort: it
// applies what follows to the same message (processUIMessageStream has no
// case for abort and only records finish), and what follows is usually a
// second stream merged into createUIMessageStream without sendStart /
// sendFinish: false. So the chunks belong to the stream (the ended turn
// takes no moves) and the first one is one after-terminal warn. Not:
// message-metadata (the SDK's own tests delay it past finish: silent), a
// finish-step after abort (pydantic-ai's adapter: silent), an error chunk
// (useChat rethrows it and the finished message ends in status "error":
// the engine's after-terminal error). Deltas and outputs the client
// cannot place still throw there: lateSpanOrphan and lateToolOrphan say so.
func (p *mapper) afterEnd(c *fields, name []byte) {
	switch string(name) {
	case "message-metadata":
		c.m.Stream = true
		return
	case "error":
		return
	case "finish-step":
		if p.aborted {
			c.m.Stream = true
			return
		}
	}
	c.m.Stream = true
	if p.lateAt != 0 {
		return
	}
	p.lateAt = c.f.Index + 1
	label, _ := c.typ.Str()
	if string(name) == "finish" || string(name) == "abort" {
		// The first late chunk is a second terminal: terminal-duplicate
		// says it (the client only records the later finishReason).
		c.m.Raise("terminal-duplicate", invariants.SevWarn, "a second terminal (%s) after the one at frame %d: the client only records the later finishReason, but one message has one end (two merged streams both sending finish?)", decode.Clip(label, 40), p.endAt)
	} else {
		c.m.Raise("after-terminal", invariants.SevWarn, "%s after the message's terminal at frame %d: useChat still applies it to the same message, but the stream should end there (a stream merged into createUIMessageStream without sendStart / sendFinish: false?)", decode.Clip(label, 40), p.endAt)
	}
}

// late reports whether the chunk being mapped follows the terminal (the
// engine, which ended the turn, no longer checks its moves).
func (p *mapper) late() bool { return p.ended && !p.done }

// mapType maps one chunk by its type (switch string(bytes) allocates
// nothing).
func (p *mapper) mapType(c *fields, name []byte) {
	f, m := c.f, c.m
	switch string(name) {
	case "text-delta":
		p.delta(c, invariants.MoveText, invariants.SpanPart)
	case "reasoning-delta":
		p.delta(c, invariants.MoveReasoning, invariants.SpanReasoning)
	case "tool-input-delta":
		p.toolInputDelta(c)
	case "start":
		p.start(c)
	case "finish":
		p.finish(c)
		readUsage(f, m)
	case "abort":
		c.optStr("reason")
		if !p.ended {
			// streamText's abort (stream-text.ts) enqueues the abort chunk
			// and closes the stream: the step and the parts it was
			// streaming are never ended, by design. They close with it for
			// the engine; the mapper keeps the parts, as the client does
			// (abort resets nothing), for what may follow.
			p.endParts(m)
			p.closeStep(m)
			p.aborted, p.endAt = true, f.Index
		}
		p.terminal(m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnCancelled, Name: f.Get("type"), Text: f.Get("reason")})
	case "error":
		// An error the client shows (onError), not a terminal: the SDK goes
		// on to finish-step, finish and [DONE].
		text := c.str("errorText")
		if !p.ended && text.Kind() == decode.KindString {
			p.errText = append(p.errText[:0], text...)
		}
		m.Add(invariants.Move{Kind: invariants.MoveError, Text: text})
	case "message-metadata":
		// The SDK's own tests send it after finish ("message metadata
		// delayed after finish"): there it belongs to the stream, not to
		// the ended turn, so it is not after-terminal (afterEnd).
		readUsage(f, m)
	case "start-step":
		p.fresh = false
		p.step++
		if p.stepFrame == 0 && !p.ended {
			p.stepFrame = f.Index + 1
		}
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStep, Key: stepKey, Name: f.Get("type")})
	case "finish-step":
		if p.aborted {
			// pydantic-ai's adapter closes its step after the abort chunk
			// (after_stream: abort, finish-step, [DONE]); the client does
			// nothing with it. It belongs to the stream, not to the ended
			// turn (afterEnd).
			return
		}
		// The client drops its active text and reasoning parts here: they
		// close with the step, before it. Without an open step that is all
		// it does: harmless before any step (pydantic-ai's adapter ends a
		// run that failed before the model answered with start, error,
		// finish-step, finish). After an earlier step it means this step's
		// start-step is missing, so the message lacks the step-start part
		// that convertToModelMessages splits steps at: warn.
		if p.stepFrame == 0 && p.step > 0 && !p.ended {
			m.Raise("span-orphan", invariants.SevWarn, "finish-step without an open step: its start-step is missing, so the client's message has no step-start boundary for it (convertToModelMessages folds it into the step before)")
		}
		p.closeParts(m)
		p.closeStep(m)
	case "reset-step":
		p.resetStep(m)
	case "text-start", "reasoning-start":
		p.fresh = false
		kind := invariants.SpanPart
		if string(name) == "reasoning-start" {
			kind = invariants.SpanReasoning
		}
		id := c.str("id")
		c.providerMetadata()
		if id.Kind() == decode.KindString {
			p.openPart(kind, id)
			m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: kind, Key: id, Name: f.Get("type")})
		}
	case "text-end", "reasoning-end":
		kind := invariants.SpanPart
		if string(name) == "reasoning-end" {
			kind = invariants.SpanReasoning
		}
		id := c.str("id")
		c.providerMetadata()
		if id.Kind() == decode.KindString {
			p.lateSpanOrphan(c, kind, id)
			p.closePart(kind, id)
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: kind, Key: id})
		}
	case "tool-input-start":
		p.toolInputStart(c)
	case "tool-input-available":
		p.toolInputAvailable(c)
	case "tool-input-error":
		p.toolInputError(c)
	case "tool-approval-request":
		p.toolApprovalRequest(c)
	case "tool-approval-response":
		// Its approvalId may name a request of an earlier message (the
		// provider answers approvals the client sent back), so it is not
		// matched against this stream's requests.
		c.str("approvalId")
		c.boolean("approved")
		c.optStr("reason")
		c.optBool("providerExecuted")
		c.providerMetadata()
	case "tool-output-available":
		p.toolOutput(c, outputAvailable)
	case "tool-output-error":
		p.toolOutput(c, outputError)
	case "tool-output-denied":
		p.toolOutput(c, outputDenied)
	case "source-url":
		c.str("sourceId")
		c.str("url")
		c.optStr("title")
		c.providerMetadata()
	case "source-document":
		c.str("sourceId")
		c.str("mediaType")
		c.str("title")
		c.optStr("filename")
		c.providerMetadata()
	case "file", "reasoning-file":
		c.str("url")
		c.str("mediaType")
		c.providerMetadata()
	case "custom":
		c.str("kind")
		c.providerMetadata()
	case "reasoning-part-finish", "reasoning":
		// v5.0's schema (ai@5.0.0 to 5.0.4x) still listed them; its client
		// let them through and did nothing with them. Later schemas
		// dropped them.
		if string(name) == "reasoning" {
			c.str("text")
			c.providerMetadata()
		}
		m.Legacy(legacyV5)
	default:
		if bytes.HasPrefix(name, dataPrefix) {
			// data-* parts: any data; id and transient are optional.
			c.optStr("id")
			c.optBool("transient")
			return
		}
		// Outside uiMessageChunkSchema's union: the client's transport
		// fails the chunk and throws (default-chat-transport.ts), so useChat
		// ends the request in status "error". The SDK's authors keep it so:
		// newer fields on known chunks are tolerated, "unknown chunk types
		// remain rejected" (vercel/ai #17010, #17474, #17520).
		c.m.Raise("event-unknown", invariants.SevError, "%s is not a UI message chunk type: the client's schema rejects it and useChat stops with an error", clipID(c.typ))
	}
}

// start names the message. It opens the turn when it comes first; in a
// merged stream whose first chunks came from another writer it only names
// the turn already open; a second start is start-duplicate.
func (p *mapper) start(c *fields) {
	id := c.f.Get("messageId")
	c.optStr("messageId")
	var key decode.Raw
	if id.Kind() == decode.KindString {
		key = id
	}
	if p.sawStart {
		p.secondStart(c, key)
		return
	}
	if key != nil {
		p.startID = append([]byte{}, key...)
	}
	if c.m.TurnOpen() {
		p.sawStart = true
		c.m.Add(invariants.Move{Kind: invariants.MoveTurnKey, Key: key})
		return
	}
	p.sawStart = true
	c.m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: key})
}

// secondStart: a start after the first one (two streams merged into
// createUIMessageStream, the second without sendStart: false). The client
// only takes its messageId and metadata: a start that keeps the message's
// id is harmless (warn: one message has one start; after the terminal,
// afterEnd's one warn says it). A start with another messageId renames
// the message mid-stream: useChat's next write no longer finds it as the
// last message (Chat.makeRequest compares ids; the list holds a copy with
// the old id) and pushes it again, so it shows twice: error.
func (p *mapper) secondStart(c *fields, key decode.Raw) {
	switch {
	case key != nil && string(key) != string(p.startID):
		first := "a client-made id"
		if p.startID != nil {
			first = clipID(decode.Raw(p.startID))
		}
		c.m.Raise("start-duplicate", invariants.SevError, "a second start renames the message (%s to %s): useChat pushes it again, so the message shows twice", first, clipID(key))
	case !p.late():
		c.m.Raise("start-duplicate", invariants.SevWarn, "a second start inside the message (a stream merged without sendStart: false?): the client ignores it, but one message has one start")
	}
}

// finish ends the message; its finishReason gives the outcome (none:
// completed). tool-calls is a success: the client runs its own tools and
// sends the next request.
func (p *mapper) finish(c *fields) {
	reason := c.f.Get("finishReason")
	outcome := invariants.TurnCompleted
	if reason != nil {
		switch {
		case reason.StrEq("error"):
			outcome = invariants.TurnFailed
		case reason.StrEq("length"):
			outcome = invariants.TurnIncomplete
		case reason.StrEq("content-filter"):
			outcome = invariants.TurnRefused
		case knownReason(reason):
		case reason.StrEq("unknown"):
			// v5 (ai@5.0.9x and later v5 releases) had "unknown" in the
			// enum, for a provider's unknown finish reason; v6 folded it
			// into "other". The message finished.
			c.m.Legacy(legacyV5)
		case reason.Kind() == decode.KindString:
			c.bad = true
			c.m.Malformed("finish", "finishReason "+clipID(reason)+" is not one of stop, length, content-filter, tool-calls, error, other")
		default:
			c.fault("finishReason", reason, "a string (stop, length, content-filter, tool-calls, error or other)")
		}
	}
	if !p.ended {
		p.endAt = c.f.Index
	}
	if p.stepFrame != 0 && !p.ended {
		// finish with its step still open: the client keeps no step state
		// and does not notice, but the contract ends every step with
		// finish-step (streamText always does) — warn, once, whatever the
		// outcome.
		c.m.Raise("span-unclosed", invariants.SevWarn, "step (opened at frame %d) is still open at finish: no finish-step ended it; useChat keeps no step state and does not notice", p.stepFrame-1)
		p.closeStep(c.m)
	}
	p.terminal(c.m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: c.f.Get("type"), Code: reason})
}

// closeStep ends the open step, if any (finish-step; abort and finish
// before their terminal).
func (p *mapper) closeStep(m *invariants.Mapping) {
	if p.stepFrame == 0 {
		return
	}
	p.stepFrame = 0
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStep, Key: stepKey})
}

func knownReason(r decode.Raw) bool {
	for _, s := range finishReasons {
		if r.StrEq(s) {
			return true
		}
	}
	return false
}

// terminal ends the turn. Before an end other than a success, the calls
// whose input is complete are closed first: only a call whose input never
// became available is tool-unfinished (docs/dialects/ai-sdk-ui.md), whatever the
// outcome; a success leaves them to the engine, which accepts them.
func (p *mapper) terminal(m *invariants.Mapping, mv invariants.Move) {
	if !p.ended && mv.Outcome != invariants.TurnCompleted {
		for i := range p.tools {
			if t := &p.tools[i]; t.open && t.ready {
				t.open = false
				m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: t.id, Outcome: mv.Outcome})
			}
		}
	}
	p.ended = true
	m.Add(mv)
}

// resetStep: a retried step invalidates what the current step streamed —
// its open text and reasoning parts and its tool calls (the client removes
// every part since the latest start-step, or all of them without one). The
// step itself stays open.
func (p *mapper) resetStep(m *invariants.Mapping) {
	p.closeParts(m)
	for i := range p.tools {
		if t := &p.tools[i]; t.open && t.step == p.step {
			t.open = false
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: t.id, Outcome: invariants.TurnCancelled})
		}
	}
}

func (p *mapper) delta(c *fields, kind invariants.MoveKind, span invariants.SpanKind) {
	p.fresh = false
	id := c.str("id")
	text := c.str("delta")
	c.providerMetadata()
	mv := invariants.Move{Kind: kind, Text: text}
	if id.Kind() == decode.KindString {
		mv.Span, mv.Key = span, id
		p.lateSpanOrphan(c, span, id)
	}
	c.m.Add(mv)
}

// lateSpanOrphan: after the terminal the engine no longer checks parts, but
// the client still throws on a delta or end for a part it has not open
// ("Received text-delta for missing text part").
func (p *mapper) lateSpanOrphan(c *fields, kind invariants.SpanKind, id decode.Raw) {
	if p.late() && !p.partOpen(kind, id) {
		label, _ := c.typ.Str()
		c.m.Raise("span-orphan", invariants.SevError, "%s after the terminal for %s %s that is not open: the client throws", decode.Clip(label, 40), kind, clipID(id))
	}
}
