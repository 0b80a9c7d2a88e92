package mcp

import (
	"bytes"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// Bounds on what one stream's mapper tracks, so a stream that names a new
// id on every frame stays in flat memory (ids-bounded says when one is hit).
const (
	maxIDs      = 4096 // response ids answered (the request unknown)
	maxTokens   = 256  // progress tokens
	maxEventIDs = 4096 // SSE event ids remembered (the latest ones)
)

// msg is one JSON-RPC message: a decoded frame, or an element of a batch.
type msg interface{ Get(key string) decode.Raw }

// rpc is the members of one JSON-RPC message the mapper reads (nil when
// absent), found in one pass (rpc.go).
type rpc struct {
	jsonrpc, id, method, params, result, err decode.Raw
	extra                                    []byte // the first other member's key (nil: none)
}

// mapper keeps one stream's state: the exchange it answers, the revision,
// which ids were answered, the progress per token, the event ids seen.
type mapper struct {
	started bool
	x       exchange
	rev     string
	frames  int // frames mapped
	legacy  bool
	ended   bool // the terminal was given
	// outstanding requests of the POST body not yet answered (aware).
	outstanding int
	responses   int
	answered    map[string]struct{} // ids answered when the request is unknown
	// outcome of the turn so far; code and text of its first error.
	outcome    string
	code, text decode.Raw
	tokIdx     map[string]int
	tokVal     []float64
	events     eventIDs // the SSE event ids seen
	bounded    bool
	endpoint   bool
	batched    bool // a batch array was seen (payload-malformed said once)
	sawID      bool // an event carried an SSE id: the client can resume the stream
	strictSaid bool // payload-malformed said for a member the TS schema rejects
	// last is the method of the last notification or request mapped: a
	// stream repeats one (progress), so its lookup is a compare.
	last methodInfo
}

func newMapper() invariants.Mapper {
	return &mapper{outcome: invariants.TurnCompleted}
}

var (
	litResponse  = invariants.Lit("response")
	litStreamEnd = invariants.Lit("end of stream")
	litToolsCall = invariants.Lit("tools/call")
	litResumable = invariants.Lit("closed after an event id (resumable)")
)

// begin reads the exchange and opens the turn on the stream's first frame.
func (p *mapper) begin(m *invariants.Mapping) {
	p.frames++
	if p.started {
		return
	}
	p.started = true
	p.x = readExchange(m.Exchange())
	m.Add(invariants.Move{Kind: invariants.MoveTurnStart})
	if rev := p.x.revision(); rev != "" {
		p.setRev(m, rev)
	}
	if p.x.headerRev != "" && p.x.metaRev != "" && p.x.headerRev != p.x.metaRev {
		m.Raise("protocol-version-mismatch", invariants.SevWarn,
			"the MCP-Protocol-Version header says %q but the request's _meta says %q: the server must reject the request with 400, yet it streamed an answer",
			decode.Clip(p.x.headerRev, 40), decode.Clip(p.x.metaRev, 40))
	}
	if p.x.sessionReq != "" && p.x.sessionResp != "" && p.x.sessionReq != p.x.sessionResp {
		m.Raise("session-id-mismatch", invariants.SevWarn,
			"the response's Mcp-Session-Id %q is not the request's %q: a session id is assigned once, at initialization (the SDKs ignore this one)",
			decode.Clip(p.x.sessionResp, 40), decode.Clip(p.x.sessionReq, 40))
	}
	seen := map[string]bool{}
	for i := range p.x.requests {
		r := &p.x.requests[i]
		if seen[r.id] {
			continue
		}
		seen[r.id] = true
		p.outstanding++
		if r.method == "tools/call" {
			name := litToolsCall
			if r.tool != "" {
				name = invariants.Lit(r.tool)
			}
			m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: r.idRaw, Name: name})
		}
	}
}

// setRev names the revision the stream is read as (its flavor).
func (p *mapper) setRev(m *invariants.Mapping, rev string) {
	if p.rev != "" {
		return
	}
	for _, fl := range Dialect.FlavorList {
		if fl.Name == rev {
			p.rev = rev
			m.SetFlavor(rev)
			return
		}
	}
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	p.begin(m)
	p.eventID(f, m)
	if f.HasType && f.Event.Type != "" && f.Event.Type != "message" {
		// Both SDKs dispatch only message events (TS client: event.event
		// === "message" or none; Python: sse.event == "message").
		if f.Get("jsonrpc") == nil {
			// No JSON-RPC message lost: a keep-alive of another name
			// ({"ts":…}, {}) that both SDKs drop unread.
			p.otherEvent(f, m)
			return
		}
		m.Raise("event-name", invariants.SevError, "a JSON-RPC %s in an SSE event named %q: the official SDKs read only message events and lose it",
			label(f), decode.Clip(f.Event.Type, 40))
	}
	g := frameRPC(f)
	p.message(&g, m)
}

// MapText reads a frame that is not a JSON object: the legacy endpoint
// event, a 2025-11-25 priming event (an id, empty data), a batch array,
// an event the SDKs ignore; anything else is frame-json.
func (p *mapper) MapText(f *decode.Frame, m *invariants.Mapping) {
	first := p.frames == 0
	p.begin(m)
	p.eventID(f, m)
	data := bytes.TrimSpace(f.Data)
	batch := parseBatch(data)
	switch {
	case f.HasType && f.Event.Type == "endpoint":
		// 2024-11-05 §HTTP with SSE: the first event, its data the URI.
		if !first || p.endpoint {
			m.Raise("endpoint-order", invariants.SevError, "an endpoint event at frame %d: it must be the stream's first and only one", f.Index)
			return
		}
		p.endpoint, p.legacy = true, true
		p.setRev(m, rev20241105)
		m.Legacy("the HTTP+SSE transport of 2024-11-05 (a GET stream opened by an endpoint event)")
		if len(data) == 0 {
			m.Malformed("endpoint", "the endpoint event carries no URI")
		} else if o, bad := foreignEndpoint(p.x.url, data); bad {
			m.Raise("endpoint-origin", invariants.SevError, "the endpoint %q resolves to origin %s, not the stream's: both SDKs refuse it (\"Endpoint origin does not match connection origin\") and the client never starts",
				decode.Clip(string(data), 80), decode.Clip(o, 80))
		}
		return
	case len(data) == 0:
		// 2025-11-25 §Resumability: a priming event (an id and empty data)
		// that clients skip.
		m.Add(invariants.Move{Kind: invariants.MoveHeartbeat})
		return
	case f.HasType && f.Event.Type != "" && f.Event.Type != "message":
		p.otherEvent(f, m)
		return
	case batch != nil:
		// A JSON-RPC batch (2025-03-26 allowed them in a stream). Neither
		// SDK reads one: TS JSONRPCMessageSchema.parse(JSON.parse(data))
		// throws (onerror, the messages lost), python's
		// jsonrpc_message_adapter.validate_json fails and answers the
		// request with PARSE_ERROR. Error; info under 2025-03-26, whose
		// transport allowed it (valid, but no official SDK client reads
		// it); once per stream.
		if !p.batched {
			p.batched = true
			sev := invariants.SevError
			if p.rev == rev20250326 {
				sev = invariants.SevInfo
			}
			m.Raise("payload-malformed", sev, "batch: a JSON-RPC batch array in one event: neither official SDK parses an array (TS schema parse throws, python answers the request with PARSE_ERROR); only 2025-03-26 allowed batches (said once per stream)")
		}
		elIt := batch.Elements()
		for el, ok := elIt.Next(); ok; el, ok = elIt.Next() {
			if el.Kind() != decode.KindObject {
				m.Malformed("batch", "an element is "+invariants.KindName(el)+", want a JSON-RPC object")
				continue
			}
			g := rawRPC(el)
			p.message(&g, m)
		}
		return
	}
	if f.Problem == decode.ProblemNotJSON {
		m.Raise("frame-json", invariants.SevError, "data is not JSON (%s)", f.ProblemDetail())
	} else {
		m.Raise("frame-json", invariants.SevError, "%s", f.ProblemDetail())
	}
}

// otherEvent reads an event of another name than message whose data is no
// JSON-RPC message: the SDKs ignore it (ping is a keep-alive).
func (p *mapper) otherEvent(f *decode.Frame, m *invariants.Mapping) {
	if f.Event.Type == "ping" {
		m.Add(invariants.Move{Kind: invariants.MoveHeartbeat})
		return
	}
	m.Unknown = true
}

// eventID: SSE ids are unique within a stream, and a resumed stream
// starts after the client's Last-Event-ID (Transports §Resumability).
func (p *mapper) eventID(f *decode.Frame, m *invariants.Mapping) {
	if !f.HasID || f.ID == "" {
		return
	}
	p.sawID = true
	if p.x.lastEventID != "" && f.ID == p.x.lastEventID {
		m.Raise("resume-replay", invariants.SevWarn, "event id %q is the Last-Event-ID the client resumed from: the server sends again an event the client has", decode.Clip(f.ID, 60))
		return
	}
	if p.events.repeat(f.ID) {
		m.Raise("event-id-duplicate", invariants.SevWarn, "event id %q repeats within the stream: resuming from it replays the wrong events", decode.Clip(f.ID, 60))
	}
}

// longLived: the stream carries a session's messages, not one POST's
// answer (the legacy transport, a GET stream): ids and tokens keep coming
// for as long as the session lasts, so the old ones are forgotten instead
// of raising ids-bounded.
func (p *mapper) longLived() bool { return p.legacy || p.x.method == "GET" }

func (p *mapper) bound(m *invariants.Mapping, what string) {
	if !p.bounded {
		p.bounded = true
		m.Raise("ids-bounded", invariants.SevInfo, "more than the tracked number of %s: later ones are not checked for repeats", what)
	}
}

// message maps one JSON-RPC message (JSON-RPC 2.0 §4, §5).
func (p *mapper) message(g *rpc, m *invariants.Mapping) {
	if !g.jsonrpc.StrEq("2.0") {
		m.Malformed(msgLabel(g), `jsonrpc is not "2.0": the SDKs' schema rejects the message`)
	} else if !p.strictSaid {
		// The TS client's JSONRPCMessageSchema is a union of
		// z.object(...).strict() shapes (packages/core/src/schemas.ts): a
		// member beside the JSON-RPC ones, or "id": null on a request or
		// notification, fails the parse (onerror; the message is lost).
		// Python's models ignore extras. Once per stream.
		switch {
		case g.extra != nil:
			p.strictSaid = true
			m.Malformed(msgLabel(g), "member "+strconv.Quote(decode.Clip(string(g.extra), 40))+" beside jsonrpc, id, method, params, result, error: the TS SDK's strict schema rejects the message (onerror, it is lost); python ignores it (said once per stream)")
		case g.method != nil && g.id.Kind() == decode.KindNull:
			p.strictSaid = true
			m.Malformed(msgLabel(g), `"id": null on a request or notification: the TS SDK's strict schema rejects the message (a notification has no id, a request a string or integer one); said once per stream`)
		}
	}
	id := g.id
	if meth := g.method; meth != nil {
		nb, ok := meth.StrBytes()
		if !ok {
			m.Malformed("message", "method is "+invariants.KindName(meth)+", want a string")
			return
		}
		known := true
		if p.last.name == "" || string(nb) != p.last.name {
			var mi methodInfo
			if mi, known = methodInfos[string(nb)]; known { // no copy: a map lookup
				p.last = mi
			}
		}
		isReq, name := p.last.isReq, p.last.name
		if !known {
			isReq, name = false, ""
		}
		if id != nil && id.Kind() != decode.KindNull {
			if !known || !isReq {
				m.Unknown = true
				return
			}
			if p.rev == rev20260728 {
				m.Raise("server-request-removed", invariants.SevError, "a %s request on a 2026-07-28 stream: the revision has no server→client requests (an input_required result asks instead)", decode.Clip(name, 40))
				return
			}
			// The server asks the client (sampling, elicitation, roots):
			// the client answers with a POST of its own.
			m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: meth})
			return
		}
		if !known || isReq {
			m.Unknown = true
			return
		}
		switch name {
		case "notifications/progress":
			p.progress(g.params, m)
		case "notifications/message":
			if d := g.params.Get("data"); d.Kind() == decode.KindString {
				m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: d})
			}
		}
		return
	}
	res, er := g.result, g.err
	switch {
	case res != nil && er != nil:
		m.Malformed("response", "it carries both result and error")
		return
	case res == nil && er == nil:
		m.Malformed("message", "neither a request, a notification nor a response (no method, result or error)")
		return
	case er != nil && (er.Kind() != decode.KindObject || er.Get("code").Kind() != decode.KindNumber || er.Get("message").Kind() != decode.KindString):
		m.Malformed("error", "error wants an object with a number code and a string message")
	case res != nil && res.Kind() != decode.KindObject:
		m.Malformed("response", "result is "+invariants.KindName(res)+", want an object")
		return
	}
	p.response(id, res, er, m)
}

func msgLabel(g *rpc) string {
	if s, ok := g.method.Str(); ok {
		return s
	}
	if g.err != nil {
		return "error"
	}
	return "response"
}

// response maps a response: the answer to one request id.
func (p *mapper) response(id, res, er decode.Raw, m *invariants.Mapping) {
	if id.Kind() != decode.KindString && id.Kind() != decode.KindNumber {
		if er != nil && (id == nil || id.Kind() == decode.KindNull) {
			// JSON-RPC 2.0 §5: an error about no request (a parse error).
			m.Add(invariants.Move{Kind: invariants.MoveError, Code: er.Get("code"), Text: er.Get("message")})
			return
		}
		m.Malformed("response", "id is "+invariants.KindName(id)+", want a string or a number")
		return
	}
	outcome := invariants.TurnCompleted
	if er != nil {
		outcome = invariants.TurnFailed
	} else {
		if isErr, _ := res.Get("isError").Bool(); isErr {
			outcome = invariants.TurnFailed
		}
		if res.Get("task").Get("taskId").Kind() == decode.KindString {
			// A 2025-11-25 CreateTaskResult: the request was accepted as a
			// task whose result comes later (tasks/result): handed over.
			outcome = invariants.TurnInterrupted
		}
		rt := res.Get("resultType")
		switch {
		case rt.StrEq("input_required"):
			outcome = invariants.TurnInterrupted
			p.setRev(m, rev20260728)
		case rt.StrEq("complete"):
			p.setRev(m, rev20260728)
		case p.rev == rev20260728:
			what := "no resultType"
			if rt != nil {
				what = "resultType " + strconv.Quote(decode.Clip(string(rt), 40))
			}
			m.Raise("result-type", invariants.SevError, "a 2026-07-28 result with %s: want \"complete\" or \"input_required\"", what)
		}
		if pv, ok := res.Get("protocolVersion").Str(); ok {
			p.setRev(m, pv) // an initialize result names the revision
		}
		cIt := res.Get("content").Elements()
		for c, ok := cIt.Next(); ok; c, ok = cIt.Next() {
			if c.Get("type").StrEq("text") {
				if t := c.Get("text"); t.Kind() == decode.KindString {
					m.Add(invariants.Move{Kind: invariants.MoveText, Text: t})
				}
			}
		}
	}
	if p.x.aware {
		r := p.x.find(id)
		switch {
		case r == nil:
			m.Raise("response-unrequested", invariants.SevError, "a response for id %s, which the request did not send: the SDK finds no handler for it", decode.Clip(string(id), 40))
			return
		case !bytes.Equal(r.idRaw, id) && !r.answer && !p.ended:
			// "7" for 7: the SDKs correlate it (Number / int()), JSON-RPC
			// wants the request's id as sent.
			m.Raise("response-unrequested", invariants.SevWarn, "a response for id %s to the request sent with id %s: the SDKs coerce a numeric string and take it as that request's answer, but JSON-RPC wants the same id",
				decode.Clip(string(id), 40), decode.Clip(string(r.idRaw), 40))
		case r.answer:
			if !p.ended { // after the terminal, after-terminal says it
				m.Raise("response-duplicate", invariants.SevError, "a second response for id %s", decode.Clip(string(id), 40))
			}
			return
		}
		r.answer = true
		if r.method == "tools/call" {
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: r.idRaw, Outcome: outcome})
		}
		p.settle(outcome, er)
		p.outstanding--
		if p.outstanding == 0 && !p.ended {
			p.ended = true
			m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: p.outcome, Name: litResponse, Code: p.code, Text: p.text})
		}
		return
	}
	// The request is unknown: an id answered twice is still wrong.
	key := idKey(id)
	if _, dup := p.answered[key]; dup {
		m.Raise("response-duplicate", invariants.SevError, "a second response for id %s", decode.Clip(string(id), 40))
		return
	}
	if p.answered == nil {
		p.answered = make(map[string]struct{}, 8)
	}
	if len(p.answered) >= maxIDs {
		if p.longLived() {
			clear(p.answered) // a session's worth of answers: forget the old ones
		} else {
			p.bound(m, "response ids")
		}
	}
	if len(p.answered) < maxIDs {
		p.answered[key] = struct{}{}
	}
	p.responses++
	if res.Get("content").Kind() == decode.KindArray {
		// A CallToolResult: the tool's name is in the request framescope
		// does not have, so the call shows as tools/call.
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: id, Name: litToolsCall})
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Outcome: outcome})
	}
	p.settle(outcome, er)
}

// settle folds one response's outcome into the turn's: a failure wins,
// then a request for input.
func (p *mapper) settle(outcome string, er decode.Raw) {
	switch {
	case outcome == invariants.TurnFailed && p.outcome != invariants.TurnFailed:
		p.outcome = outcome
		if er != nil {
			p.code = copyRaw(er.Get("code"))
			p.text = copyRaw(er.Get("message"))
		}
	case outcome == invariants.TurnInterrupted && p.outcome == invariants.TurnCompleted:
		p.outcome = outcome
	}
}

func copyRaw(r decode.Raw) decode.Raw {
	if r == nil {
		return nil
	}
	return append(decode.Raw(nil), r...)
}

// progress checks notifications/progress (basic/utilities/progress): a
// token the request set, a value that increases.
func (p *mapper) progress(params decode.Raw, m *invariants.Mapping) {
	tok, val, text := progressFields(params)
	if (tok.Kind() != decode.KindString && tok.Kind() != decode.KindNumber) || val.Kind() != decode.KindNumber {
		m.Malformed("notifications/progress", "params.progressToken (string or number) and params.progress (number) are required")
		return
	}
	v, ok := smallUint(val)
	if !ok {
		var err error
		if v, err = strconv.ParseFloat(string(val), 64); err != nil {
			m.Malformed("notifications/progress", "params.progress is not a number")
			return
		}
	}
	if text.Kind() != decode.KindString {
		text = invariants.Lit("progress " + string(val))
	}
	m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: text})
	if p.x.aware && !p.x.tokens[idKey(tok)] {
		m.Raise("progress-token-unknown", invariants.SevWarn, "progress for token %s, which no request in the POST body set: the SDK drops it", decode.Clip(string(tok), 40))
		return
	}
	if i, ok := p.tokIdx[string(tok)]; ok {
		if v <= p.tokVal[i] {
			m.Raise("progress-order", invariants.SevWarn, "progress %s for token %s does not increase (it was %s)",
				decode.Clip(string(val), 24), decode.Clip(string(tok), 40), strconv.FormatFloat(p.tokVal[i], 'g', -1, 64))
		}
		p.tokVal[i] = v
		return
	}
	if len(p.tokVal) >= maxTokens {
		if !p.longLived() {
			p.bound(m, "progress tokens")
			return
		}
		clear(p.tokIdx)
		p.tokVal = p.tokVal[:0]
	}
	if p.tokIdx == nil {
		p.tokIdx = make(map[string]int, 4)
	}
	p.tokIdx[string(tok)] = len(p.tokVal)
	p.tokVal = append(p.tokVal, v)
}

// EndStream ends a stream whose request is unknown (a raw body, a GET
// listening or resumed stream, the legacy transport): the stream's end is
// its terminal when it answered something or was never owed an answer. A
// POST's stream ends with its last answer instead (after-terminal and
// terminal-missing say when not).
func (p *mapper) EndStream(m *invariants.Mapping) {
	if p.ended || !p.started || !m.EndedAtEOF() {
		return
	}
	if p.sawID && ((p.x.aware && p.outstanding > 0) || (!p.x.aware && p.responses == 0 && !p.longLived())) {
		// The server closed the stream before the response after an event
		// with an id (2025-11-25 §Sending Messages: SSE polling; any
		// revision's resumability): both SDKs resume with a GET and
		// Last-Event-ID (TS _handleSseStream: hasPrimingEvent &&
		// !receivedResponse; python: "reconnect if we received an event
		// with ID"), where the answer comes. The turn is handed over, not
		// cut: interrupted, and the calls still open with it.
		for i := range p.x.requests {
			if r := &p.x.requests[i]; !r.answer && r.method == "tools/call" {
				r.answer = true
				m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: r.idRaw, Outcome: invariants.TurnInterrupted})
			}
		}
		p.ended = true
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnInterrupted, Name: litResumable})
		return
	}
	if p.x.aware {
		return
	}
	if p.responses > 0 || p.legacy || (p.x.known && p.x.method == "GET") {
		p.ended = true
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: p.outcome, Name: litStreamEnd, Code: p.code, Text: p.text})
	}
}

// smallUint reads a progress value written as plain digits (the common
// case: a step count) without strconv; ok false for anything else.
func smallUint(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return float64(n), true
}
