package gemini

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// shape is which of the two streaming shapes the stream turned out to be.
type shape uint8

const (
	shapeNone shape = iota
	shapeGC         // streamGenerateContent chunks
	shapeIA         // Interactions API events
)

// mapper keeps one stream's state beyond the Engine's: its shape, the
// envelope to hold fixed, the candidates seen and finished, the tool call
// streaming its arguments (Vertex willContinue), the open code executions,
// the function_call steps by index, and the last event_id.
type mapper struct {
	shape     shape
	begun     bool
	ended     bool
	mixed     bool // shape-mixed raised (once per stream)
	framing   bool // sse-field-unexpected raised (once per stream)
	late      bool // a chunk after an error or a blocked prompt raised after-terminal (warn, once)
	finUsage  bool // a chunk from the latest finishing one on carried usageMetadata
	unknownFR bool // event-unknown raised for a finishReason (once per stream)
	respID    []byte
	model     []byte
	drifted   [2]bool
	seen      uint64 // candidate indexes seen (index < 64)
	finished  uint64 // candidate indexes with a finishReason
	outcome   string
	code      decode.Raw // the first non-STOP finishReason (a Lit)
	calls     int        // function calls opened (synthetic keys)
	streaming []byte     // the key of the call whose arguments stream (willContinue)
	execs     []decode.Raw
	steps     []stepTool
	lastEvent []byte
	haveEvent bool
	resumed   bool       // a GET resuming an interaction after last_event_id
	cand      candFields // the candidate being mapped (reused: no allocation per chunk)
}

// stepTool is a function_call step: its index and call id.
type stepTool struct {
	index int64
	id    []byte
}

func newMapper() invariants.Mapper { return &mapper{outcome: invariants.TurnCompleted} }

// Constants the mapper puts in moves.
var (
	litFinish        = invariants.Lit("finishReason")
	litBlocked       = invariants.Lit("promptFeedback.blockReason")
	litError         = invariants.Lit("error")
	litCodeExecution = invariants.Lit("code_execution")
)

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	readUsage(f, m, f.Get("event_type"))
	if et := f.Get("event_type"); et != nil {
		m.Type = et
		if p.shape == shapeGC {
			p.mixedShape(m, "an Interactions event ("+clipStr(et)+") in a streamGenerateContent stream")
			return
		}
		p.shape = shapeIA
		if f.HasType && et.Kind() == decode.KindString && !et.StrEq(f.Event.Type) {
			// The docs' event: repeats event_type; both clients read only
			// the data (python _gaos InteractionSSEStreamEvent by
			// event_type, JS wrapEventStreamResponse flattened: the parsed
			// data alone), so a mismatch breaks nothing: warn.
			m.Raise("sse-event-mismatch", invariants.SevWarn, "SSE event: %q but event_type is %s: the SDKs read event_type and ignore event:",
				decode.Clip(f.Event.Type, 40), clipStr(et))
		}
		p.interaction(f, m, et)
		return
	}
	if p.shape == shapeIA {
		p.mixedShape(m, "a frame without event_type in an Interactions stream")
		return
	}
	p.shape = shapeGC
	if !p.framing {
		if what := generateFraming(f); what != "" {
			p.framing = true
			m.Raise("sse-field-unexpected", invariants.SevError, "%s in a streamGenerateContent event: google-genai python reads only \"data: \" lines (json.loads fails on the rest), @google/genai only an event that is one data: line (said once per stream)", what)
		}
	}
	p.chunk(f, m)
}

func (p *mapper) mixedShape(m *invariants.Mapping, what string) {
	if !p.mixed {
		p.mixed = true
		m.Raise("shape-mixed", invariants.SevError, "%s: the SDK reads a stream as one shape and cannot parse this frame (said once per stream)", what)
	}
}

func clipStr(r decode.Raw) string {
	s, _ := r.Str()
	return strconv.Quote(decode.Clip(s, 40))
}

// ---- streamGenerateContent ----

// finish reasons (Candidate.finishReason) and the outcome each gives.
var finishReasons = map[string]string{
	"STOP":                      invariants.TurnCompleted,
	"MAX_TOKENS":                invariants.TurnIncomplete,
	"SAFETY":                    invariants.TurnRefused,
	"RECITATION":                invariants.TurnRefused,
	"LANGUAGE":                  invariants.TurnRefused,
	"BLOCKLIST":                 invariants.TurnRefused,
	"PROHIBITED_CONTENT":        invariants.TurnRefused,
	"SPII":                      invariants.TurnRefused,
	"IMAGE_SAFETY":              invariants.TurnRefused,
	"IMAGE_PROHIBITED_CONTENT":  invariants.TurnRefused,
	"IMAGE_RECITATION":          invariants.TurnRefused,
	"MALFORMED_FUNCTION_CALL":   invariants.TurnFailed,
	"UNEXPECTED_TOOL_CALL":      invariants.TurnFailed,
	"TOO_MANY_TOOL_CALLS":       invariants.TurnFailed,
	"MISSING_THOUGHT_SIGNATURE": invariants.TurnFailed,
	"MALFORMED_RESPONSE":        invariants.TurnFailed,
	"OTHER":                     invariants.TurnFailed,
	"IMAGE_OTHER":               invariants.TurnFailed,
	"NO_IMAGE":                  invariants.TurnFailed,
	"FINISH_REASON_UNSPECIFIED": invariants.TurnFailed,
}

// chunkTop is what the mapper reads of a GenerateContentResponse's
// top-level members, found in one pass over the frame's members.
type chunkTop struct {
	candidates, usage, model, respID, err, feedback decode.Raw
}

func readTop(f *decode.Frame) chunkTop {
	var v [6]decode.Raw
	topNames.PickMembers(f.Members, v[:])
	return chunkTop{candidates: v[0], usage: v[1], model: v[2], respID: v[3], err: v[4], feedback: v[5]}
}

// topNames are chunkTop's members, in its order.
var topNames = decode.Names("candidates", "usageMetadata", "modelVersion", "responseId", "error", "promptFeedback")

// chunk maps one GenerateContentResponse.
func (p *mapper) chunk(f *decode.Frame, m *invariants.Mapping) {
	t := readTop(f)
	if p.ended && t.candidates == nil && t.err == nil && t.feedback == nil && t.usage.Kind() == decode.KindObject {
		// A usage-only chunk after the finish reports the response's
		// usage; the SDKs yield it as one more response, nothing breaks:
		// it belongs to the stream, not after the turn's terminal.
		m.Stream = true
		p.envelope(m, t.respID, t.model, false)
		return
	}
	if p.ended && t.err == nil {
		// More after the chunk that ended the turn: an error object or a
		// blocked prompt (promptFeedback.blockReason). A finishReason
		// does not end it (EndStream). Both SDKs yield a chunk after a
		// blocked prompt as one more response and the caller's loop
		// renders its text, nothing throws: one after-terminal warn for
		// the stream, the chunks belong to the stream. An error chunk
		// there still throws in python (APIError after the turn ended):
		// the Engine's after-terminal error says it.
		m.Stream = true
		if !p.late {
			p.late = true
			m.Raise("after-terminal", invariants.SevWarn, "a chunk after the chunk that ended the turn (an error or a blocked prompt): the SDKs yield it as one more response (its text still renders), but nothing should follow it (said once per stream)")
		}
		return
	}
	first := !p.begun
	p.begun = true
	rid := t.respID
	if first {
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: strOrNil(rid)})
	}
	p.envelope(m, rid, t.model, first)
	if e := t.err; e != nil && t.candidates == nil {
		// The SDKs throw an ApiError on an error object in the stream.
		code := e.Get("status")
		if code.Kind() != decode.KindString {
			code = e.Get("code")
		}
		if e.Kind() != decode.KindObject {
			m.Malformed("error", "error is "+invariants.KindName(e)+", want an object with code, message and status")
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError, Code: code, Text: strOrNil(e.Get("message")), Final: true})
		p.ended = true
		return
	}
	if pf := t.feedback; pf != nil {
		if pf.Kind() != decode.KindObject {
			m.Malformed("chunk", "promptFeedback is "+invariants.KindName(pf)+", want an object")
		} else if br := pf.Get("blockReason"); br != nil {
			if br.Kind() != decode.KindString {
				m.Malformed("chunk", "promptFeedback.blockReason is "+invariants.KindName(br)+", want a string")
			}
			m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnRefused, Name: litBlocked, Code: br})
			p.ended = true
			return
		}
	}
	if u := t.usage; u != nil && u.Kind() != decode.KindObject {
		m.Malformed("chunk", "usageMetadata is "+invariants.KindName(u)+", want an object")
	}
	cands := t.candidates
	switch cands.Kind() {
	case decode.KindNone:
		return
	case decode.KindArray:
	default:
		m.Malformed("chunk", "candidates is "+invariants.KindName(cands)+", want an array")
		return
	}
	// One pass over the candidates: each is read (its parts' members
	// found) and then mapped, before the next is read.
	finishing := false
	it := cands.Elements()
	pos := int64(0)
	for v, open, ok := it.NextOpen(); ok; v, open, ok = it.NextOpen() {
		if n := readCandidate(v, &p.cand); open {
			it.Resume(n)
		}
		if p.candidate(m, &p.cand, pos) != nil {
			finishing = true
		}
		pos++
	}
	if finishing {
		p.finUsage = false
	}
	if p.finished != 0 && t.usage != nil {
		p.finUsage = true
	}
}

// EndStream ends a streamGenerateContent turn: a finishReason is the
// candidate's state on that chunk, not the stream's end. The API keeps
// answering after it by design (server-side tools run by the API: MCP,
// code execution, search put STOP on the functionCall chunk and go on;
// older models put STOP on every chunk), and both SDKs read on to the end
// of the body (python-genai _api_client.py _iter_response_stream,
// go-genai api_client.go iterateResponseStream (Scan to EOF),
// js-genai processStreamResponse: each yields every chunk until EOF). So
// the turn ends when the stream does, once every candidate seen has had a
// finishReason; without one terminal-missing says so.
func (p *mapper) EndStream(m *invariants.Mapping) {
	if p.shape != shapeGC || p.ended || p.finished == 0 || p.finished&p.seen != p.seen {
		return
	}
	if !p.finUsage {
		m.Raise("usage-missing", invariants.SevInfo, "no chunk from the finishing one on carries usageMetadata: the turn's token usage is unknown")
	}
	mv := invariants.Move{Kind: invariants.MoveTerminal, Outcome: p.outcome, Name: litFinish}
	if p.outcome != invariants.TurnCompleted {
		mv.Code = p.code
	}
	m.Add(mv)
	p.ended = true
}

// envelope holds responseId and modelVersion fixed (envelope-drift, warn:
// the SDKs keep each chunk's own and never compare).
func (p *mapper) envelope(m *invariants.Mapping, rid, model decode.Raw, first bool) {
	check := func(i int, name string, v decode.Raw, keep *[]byte) {
		b, ok := v.StrBytes()
		if !ok {
			return
		}
		if first || *keep == nil {
			*keep = append([]byte(nil), b...)
			return
		}
		if !bytes.Equal(*keep, b) && !p.drifted[i] {
			p.drifted[i] = true
			m.Raise("envelope-drift", invariants.SevWarn, "%s changed from %q to %q mid-stream", name, decode.Clip(string(*keep), 40), decode.Clip(string(b), 40))
		}
	}
	check(0, "responseId", rid, &p.respID)
	check(1, "modelVersion", model, &p.model)
}

// candidate maps one candidate read by readCandidate; it returns its
// finishReason when it has one.
func (p *mapper) candidate(m *invariants.Mapping, cf *candFields, pos int64) decode.Raw {
	if cf.raw.Kind() != decode.KindObject {
		m.Malformed("chunk", "a candidate is "+invariants.KindName(cf.raw)+", want an object")
		return nil
	}
	idx := pos
	if i := cf.index; i != nil {
		if v, ok := i.Int(); ok && v >= 0 {
			idx = v
		} else {
			m.Malformed("chunk", "candidates[].index is "+invariants.KindName(i)+", want a non-negative integer")
		}
	}
	bit := uint64(1) << (uint64(idx) % 64)
	p.seen |= bit
	if content := cf.content; content != nil {
		parts := cf.parts
		switch {
		case content.Kind() != decode.KindObject:
			m.Malformed("chunk", "candidates[].content is "+invariants.KindName(content)+", want an object")
		case parts.Kind() == decode.KindArray && cf.over:
			// More parts than readCandidate keeps: read each again.
			partIt := parts.Elements()
			for part, ok := partIt.Next(); ok; part, ok = partIt.Next() {
				var pf partFields
				readPart(part, &pf)
				p.part(m, &pf)
			}
		case parts.Kind() == decode.KindArray:
			for i := range cf.nparts {
				p.part(m, &cf.part[i])
			}
		case parts != nil:
			m.Malformed("chunk", "candidates[].content.parts is "+invariants.KindName(parts)+", want an array")
		}
	}
	fr := cf.finish
	switch fr.Kind() {
	case decode.KindNone, decode.KindNull:
		return nil
	case decode.KindString:
	default:
		m.Malformed("chunk", "candidates[].finishReason is "+invariants.KindName(fr)+", want a string")
		return nil
	}
	p.finished |= bit
	s, _ := fr.Str()
	outcome, known := finishReasons[s]
	if !known {
		outcome = invariants.TurnCompleted
		if !p.ended && !p.unknownFR {
			p.unknownFR = true
			m.Raise("event-unknown", invariants.SevInfo, "finishReason %q is not one the reference lists; the turn is read as completed", decode.Clip(s, 60))
		}
	}
	if outcome != invariants.TurnCompleted && p.outcome == invariants.TurnCompleted {
		p.outcome, p.code = outcome, invariants.Lit(s)
	}
	return fr
}

// part maps one Part: text (thought: reasoning), a functionCall, code
// execution; the others (inlineData, fileData, functionResponse,
// thoughtSignature alone, server tool parts) move nothing.
func (p *mapper) part(m *invariants.Mapping, pf *partFields) {
	if pf.raw.Kind() != decode.KindObject {
		m.Malformed("chunk", "a part is "+invariants.KindName(pf.raw)+", want an object")
		return
	}
	if t := pf.text; t != nil {
		if t.Kind() != decode.KindString {
			m.Malformed("chunk", "parts[].text is "+invariants.KindName(t)+", want a string")
			return
		}
		kind := invariants.MoveText
		if th, _ := pf.thought.Bool(); th {
			kind = invariants.MoveReasoning
		}
		m.Add(invariants.Move{Kind: kind, Text: t})
		return
	}
	if fc := pf.call; fc != nil {
		p.functionCall(m, fc)
		return
	}
	if ec := pf.code; ec != nil {
		p.calls++
		key := invariants.Lit("code " + strconv.Itoa(p.calls))
		p.execs = append(p.execs, key)
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: key, Name: litCodeExecution})
		if code := ec.Get("code"); code.Kind() == decode.KindString {
			m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: key, Text: code})
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
		return
	}
	if res := pf.result; res != nil {
		outcome := invariants.TurnCompleted
		if o := res.Get("outcome"); o != nil && !o.StrEq("OUTCOME_OK") {
			outcome = invariants.TurnFailed
		}
		key := litCodeExecution
		if n := len(p.execs); n > 0 {
			key = p.execs[n-1]
			p.execs = p.execs[:n-1]
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key, Outcome: outcome})
	}
}

// functionCall opens a call the client runs: its id (or a name of our own:
// the Gemini API often sends none), name and args, ready at once unless
// willContinue streams its arguments in the next chunks (Vertex AI's
// streamFunctionCallArguments: partialArgs, then a functionCall without
// willContinue).
func (p *mapper) functionCall(m *invariants.Mapping, fc decode.Raw) {
	if fc.Kind() != decode.KindObject {
		m.Malformed("chunk", "parts[].functionCall is "+invariants.KindName(fc)+", want an object")
		return
	}
	name := fc.Get("name")
	more, _ := fc.Get("willContinue").Bool()
	if p.streaming != nil && name == nil {
		key := decode.Raw(p.streaming)
		if pa := fc.Get("partialArgs"); pa != nil {
			m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: key, Text: pa})
		}
		if !more {
			m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
			p.streaming = nil
		}
		return
	}
	if !name.IsNonEmptyStr() {
		m.Raise("tool-malformed", invariants.SevError, "a functionCall part without a name (%s): the SDK cannot dispatch it", invariants.KindName(name))
		return
	}
	var key decode.Raw
	if id := fc.Get("id"); id.IsNonEmptyStr() {
		key = id
	} else {
		p.calls++
		key = invariants.Lit("call " + strconv.Itoa(p.calls))
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: key, Name: name})
	if args := fc.Get("args"); args != nil {
		if args.Kind() != decode.KindObject {
			m.Malformed("chunk", "functionCall.args is "+invariants.KindName(args)+", want an object")
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: key, Text: args})
	}
	if more {
		p.streaming = append(p.streaming[:0], key...)
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
}

func strOrNil(r decode.Raw) decode.Raw {
	if r.Kind() == decode.KindString {
		return r
	}
	return nil
}

// ---- Interactions API ----

// litLegacy names the deprecated Interactions shape (legacy-shape).
const litLegacy = "the Interactions API's content-based events (interaction.start, content.start/delta/stop, interaction.complete), used when steps are disabled"

// interaction statuses and the outcome each gives the turn at its end.
// requires_action ends the response with function calls for the client to
// run (as a tool-use stop): completed.
var statuses = map[string]string{
	"completed":       invariants.TurnCompleted,
	"requires_action": invariants.TurnCompleted,
	"failed":          invariants.TurnFailed,
	"cancelled":       invariants.TurnCancelled,
	"incomplete":      invariants.TurnIncomplete,
	"budget_exceeded": invariants.TurnIncomplete,
}

func (p *mapper) interaction(f *decode.Frame, m *invariants.Mapping, et decode.Raw) {
	ev := iaEventOf(et)
	if et.Kind() != decode.KindString {
		m.Malformed("frame", "event_type is "+invariants.KindName(et)+", want a string")
	}
	if ev.legacy() {
		m.Legacy(litLegacy)
	}
	p.eventID(f, m)
	first := !p.begun
	p.begun = true
	if first {
		p.resumed = resumedInteraction(m.Exchange())
		if p.resumed && ev != iaCreated && ev != iaLegacyStart && ev != iaError {
			// The events after last_event_id: the turn was opened on
			// the stream the client resumes.
			m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: strOrNil(f.Get("interaction_id"))})
		}
	}
	switch ev {
	case iaCreated, iaLegacyStart:
		in := f.Get("interaction")
		id := in.Get("id")
		switch {
		case in.Kind() != decode.KindObject:
			m.Malformed(iaNames[ev], "interaction is "+invariants.KindName(in)+", want an object")
		case id.Kind() != decode.KindString:
			m.Malformed(iaNames[ev], "interaction.id is "+invariants.KindName(id)+", want a string")
			id = nil
		}
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: id})
	case iaStatus:
		st := f.Get("status")
		if st.Kind() != decode.KindString {
			m.Malformed(iaNames[ev], "status is "+invariants.KindName(st)+", want a string")
			return
		}
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: st})
	case iaStepStart, iaContentStart:
		p.stepStart(f, m, ev)
	case iaStepDelta, iaContentDelta:
		p.stepDelta(f, m, ev)
	case iaStepStop, iaContentStop:
		idx, ok := p.index(f, m, ev)
		if !ok {
			return
		}
		p.resumedStep(f, m)
		if id := p.stepToolAt(idx, true); id != nil {
			m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: id})
		}
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStep, Key: f.Get("index")})
	case iaCompleted, iaLegacyComplete:
		in := f.Get("interaction")
		st := in.Get("status")
		outcome := invariants.TurnCompleted
		switch {
		case in.Kind() != decode.KindObject:
			m.Malformed(iaNames[ev], "interaction is "+invariants.KindName(in)+", want an object")
		case st.Kind() == decode.KindString:
			s, _ := st.Str()
			if o, ok := statuses[s]; ok {
				outcome = o
			} else {
				m.Raise("event-unknown", invariants.SevInfo, "interaction.status %q is not one the reference lists; the turn is read as completed", decode.Clip(s, 60))
			}
		case st != nil:
			m.Malformed(iaNames[ev], "interaction.status is "+invariants.KindName(st)+", want a string")
		}
		mv := invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: et}
		if outcome != invariants.TurnCompleted {
			mv.Code = st
		}
		m.Add(mv)
		p.ended = true
	case iaError:
		e := f.Get("error")
		if e.Kind() != decode.KindObject {
			m.Malformed("error", "error is "+invariants.KindName(e)+", want an object with code and message")
		}
		if first {
			m.Add(invariants.Move{Kind: invariants.MoveTurnStart})
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError,
			Code: strOrNil(e.Get("code")), Text: strOrNil(e.Get("message")), Final: true})
		p.ended = true
	default:
		m.Unknown = true
	}
}

// eventID: event_id is the token a client resumes from; it must not repeat
// the previous one, and numeric ids must grow.
func (p *mapper) eventID(f *decode.Frame, m *invariants.Mapping) {
	id, ok := f.Get("event_id").StrBytes()
	if !ok {
		return
	}
	if p.haveEvent {
		switch {
		case bytes.Equal(id, p.lastEvent):
			m.Raise("event-id-order", invariants.SevWarn, "event_id %q repeats the previous event's", decode.Clip(string(id), 40))
		case numericLess(id, p.lastEvent):
			m.Raise("event-id-order", invariants.SevWarn, "event_id %q after %q goes backwards", decode.Clip(string(id), 40), decode.Clip(string(p.lastEvent), 40))
		}
	}
	p.lastEvent, p.haveEvent = append(p.lastEvent[:0], id...), true
}

// numericLess: both ids are decimal integers and a < b.
func numericLess(a, b []byte) bool {
	x, err1 := strconv.ParseUint(string(a), 10, 63)
	y, err2 := strconv.ParseUint(string(b), 10, 63)
	return err1 == nil && err2 == nil && x < y
}

func (p *mapper) index(f *decode.Frame, m *invariants.Mapping, ev iaEvent) (int64, bool) {
	i := f.Get("index")
	v, ok := i.Int()
	if !ok || v < 0 {
		m.Malformed(iaNames[ev], "index is "+invariants.KindName(i)+", want a non-negative integer")
		return 0, false
	}
	return v, true
}

// stepStart opens a step (a legacy content block) by index; a
// function_call step also opens the call the client runs.
func (p *mapper) stepStart(f *decode.Frame, m *invariants.Mapping, ev iaEvent) {
	idx, ok := p.index(f, m, ev)
	if !ok {
		return
	}
	member := "step"
	if ev == iaContentStart {
		member = "content"
	}
	st := f.Get(member)
	typ := st.Get("type")
	if st.Kind() != decode.KindObject || typ.Kind() != decode.KindString {
		m.Malformed(iaNames[ev], member+".type is "+invariants.KindName(typ)+", want a string")
		typ = nil
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStep, Key: f.Get("index"), Name: typ})
	if typ.StrEq("function_call") {
		id, name := st.Get("id"), st.Get("name")
		if !name.IsNonEmptyStr() {
			m.Raise("tool-malformed", invariants.SevError, "a function_call %s without a name: the SDK cannot dispatch it", member)
			return
		}
		if !id.IsNonEmptyStr() {
			id = nil // tool-malformed from the Engine: the client answers by id
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: name})
		if id != nil {
			p.steps = append(p.steps, stepTool{index: idx, id: append([]byte(nil), id...)})
			if args := st.Get("arguments"); args.Kind() == decode.KindObject && len(bytes.TrimSpace(args[1:len(args)-1])) != 0 {
				m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: id, Text: args})
			}
		}
	}
}

// stepDelta: text (a model_output step), a thought summary (reasoning),
// function call arguments; a delta for a step not open is span-orphan.
func (p *mapper) stepDelta(f *decode.Frame, m *invariants.Mapping, ev iaEvent) {
	idx, ok := p.index(f, m, ev)
	if !ok {
		return
	}
	key := f.Get("index")
	if _, open := m.SpanName(invariants.SpanStep, key); !open && !p.resumedStep(f, m) {
		m.Raise("span-orphan", invariants.SevError, "%s for step %d that is not open", iaNames[ev], idx)
		return
	}
	d := f.Get("delta")
	typ := d.Get("type")
	if d.Kind() != decode.KindObject || typ.Kind() != decode.KindString {
		m.Malformed(iaNames[ev], "delta.type is "+invariants.KindName(typ)+", want a string")
		return
	}
	switch {
	case typ.StrEq("text"):
		t := d.Get("text")
		if t.Kind() != decode.KindString {
			m.Malformed(iaNames[ev], "delta.text is "+invariants.KindName(t)+", want a string")
			return
		}
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanStep, Key: key, Text: t})
	case typ.StrEq("thought_summary"):
		if t := d.Get("content").Get("text"); t.Kind() == decode.KindString {
			m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanStep, Key: key, Text: t})
		}
	case typ.StrEq("thought") && d.Get("summary").Kind() == decode.KindString:
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Span: invariants.SpanStep, Key: key, Text: d.Get("summary")})
	case typ.StrEq("arguments_delta"):
		id := p.stepToolAt(idx, false)
		if id == nil && p.resumed {
			return // its step.start came before last_event_id
		}
		if id == nil {
			m.Raise("tool-orphan", invariants.SevError, "arguments_delta for step %d, which is no open function_call step", idx)
			return
		}
		a := d.Get("arguments")
		if a.Kind() != decode.KindString {
			m.Malformed(iaNames[ev], "delta.arguments is "+invariants.KindName(a)+", want a string")
			return
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: id, Text: a})
	}
}

// stepToolAt is the call id of the function_call step at idx (nil: none);
// remove forgets it (its step stopped).
func (p *mapper) stepToolAt(idx int64, remove bool) decode.Raw {
	for i := len(p.steps) - 1; i >= 0; i-- {
		if p.steps[i].index == idx {
			id := decode.Raw(p.steps[i].id)
			if remove {
				p.steps = append(p.steps[:i], p.steps[i+1:]...)
			}
			return id
		}
	}
	return nil
}

// resumedInteraction: the exchange is a GET of an interaction with a
// last_event_id (python interactions.get(id, stream=True,
// last_event_id=…), JS interactions-get.ts): the server sends the events
// after that one, so the stream may begin mid-step.
func resumedInteraction(x *invariants.Exchange) bool {
	if x == nil || !strings.EqualFold(x.Method, "GET") {
		return false
	}
	u, err := url.Parse(x.URL)
	if err != nil || !strings.Contains(u.Path, "/interactions/") {
		return false
	}
	return u.Query().Get("last_event_id") != ""
}

// resumedStep opens, on a resumed stream, the step an event names whose
// step.start came before last_event_id (no span-orphan: the client has it).
// It reports whether it opened one.
func (p *mapper) resumedStep(f *decode.Frame, m *invariants.Mapping) bool {
	if !p.resumed {
		return false
	}
	key := f.Get("index")
	if _, open := m.SpanName(invariants.SpanStep, key); open {
		return false
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStep, Key: key})
	return true
}
