package anthropic

import (
	"framescope/decode"
	"framescope/invariants"
)

// mapper keeps what one stream's rules need beyond the Engine's own state:
// the stop reason message_delta announced, whether the message began and
// ended, and the open tool blocks (their ids and input scans).
type mapper struct {
	begun   bool // a frame other than ping was mapped: the message began
	ended   bool // a terminal (message_stop or error) was mapped
	stop    int  // index in stopReasons; stopNone, stopOther
	noEvent bool // sse-event-missing was raised (once per stream)
	tools   []toolBlock
	cuts    []cutTool // tool inputs cut short, decided at message_stop
}

const (
	stopNone  = -1 // no message_delta carried a stop_reason yet
	stopOther = -2 // a stop_reason outside the known values
)

func newMapper() invariants.Mapper {
	// Room for a few tool blocks and their ids up front: a message rarely
	// has more open at once, and starting one then allocates nothing.
	tools := make([]toolBlock, 4)
	for i := range tools {
		tools[i].id = make([]byte, 0, 48)
	}
	return &mapper{stop: stopNone, tools: tools[:0]}
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	typ := f.Get("type")
	m.Type = typ
	ev := eventOf(typ)
	if typ == nil && f.HasType {
		// The SDKs fill a missing type from the SSE event: name, but
		// the reference puts it in the data: map it, and say so.
		if ev = eventNamed(f.Event.Type); ev != evUnknown {
			m.Malformed(ev.String(), "the data has no type (only the SSE event: names it)")
		}
	}
	if !f.HasType && !p.noEvent {
		p.noEvent = true
		m.Raise("sse-event-missing", invariants.SevWarn,
			"the frame has no SSE event: field; the Anthropic SDKs route events by it and drop this one (said once per stream)")
	}
	first := !p.begun
	if ev != evPing {
		p.begun = true
	}
	switch ev {
	case evMessageStart:
		p.messageStart(f, m)
	case evBlockStart:
		p.blockStart(f, m)
	case evBlockDelta:
		p.blockDelta(f, m)
	case evBlockStop:
		p.blockStop(f, m)
	case evMessageDelta:
		p.messageDelta(f, m)
		readUsage(f, m)
	case evMessageStop:
		p.messageStop(f, m, typ)
	case evError:
		p.errorEvent(f, m, typ, first)
	case evPing:
		m.Add(invariants.Move{Kind: invariants.MoveHeartbeat})
		if first {
			// A ping before message_start belongs to the stream: the
			// SDKs drop pings before they read the message.
			m.Stream = true
		}
	default:
		m.Unknown = true
	}
}

// messageStart opens the turn, keyed by the message id.
func (p *mapper) messageStart(f *decode.Frame, m *invariants.Mapping) {
	msg := f.Get("message")
	id := msg.Get("id")
	switch {
	case msg.Kind() != decode.KindObject:
		m.Malformed("message_start", "message is "+invariants.KindName(msg)+", want an object")
	case id.Kind() != decode.KindString:
		m.Malformed("message_start", "message.id is "+invariants.KindName(id)+", want a string")
		id = nil
	default:
		// The SDK accumulators build on the message: content_block_start
		// appends to message.content and message_delta writes into
		// message.usage (TS MessageStream #accumulateMessage, Python
		// accumulate_event); without them the client throws.
		if c := msg.Get("content"); c.Kind() != decode.KindArray {
			m.Malformed("message_start", "message.content is "+invariants.KindName(c)+", want an array (the SDKs append the blocks to it)")
		} else if u := msg.Get("usage"); u.Kind() != decode.KindObject {
			m.Malformed("message_start", "message.usage is "+invariants.KindName(u)+", want an object (the SDKs write message_delta's usage into it)")
		}
	}
	m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: id})
}

// messageDelta records the stop reason message_stop will end the turn with.
func (p *mapper) messageDelta(f *decode.Frame, m *invariants.Mapping) {
	d := f.Get("delta")
	if d.Kind() != decode.KindObject {
		m.Malformed("message_delta", "delta is "+invariants.KindName(d)+", want an object")
		return
	}
	// usage is required (RawMessageDeltaEvent.usage): both SDK
	// accumulators read event.usage.output_tokens unguarded, so a
	// message_delta without it throws in the client.
	if u := f.Get("usage"); u.Kind() != decode.KindObject {
		m.Malformed("message_delta", "usage is "+invariants.KindName(u)+", want an object (the SDKs read usage.output_tokens from every message_delta)")
	}
	sr := d.Get("stop_reason")
	switch sr.Kind() {
	case decode.KindNone, decode.KindNull:
		return
	case decode.KindString:
	default:
		m.Malformed("message_delta", "delta.stop_reason is "+invariants.KindName(sr)+", want a string or null")
		return
	}
	for i := range stopReasons {
		if sr.StrEq(stopReasons[i].name) {
			p.stop = i
			return
		}
	}
	p.stop = stopOther
	if !p.ended {
		s, _ := sr.Str()
		m.Raise("event-unknown", invariants.SevInfo, "stop_reason %q is not one the reference lists; the turn is read as completed", decode.Clip(s, 60))
	}
}

// messageStop is the terminal; its outcome is the stop reason's.
func (p *mapper) messageStop(f *decode.Frame, m *invariants.Mapping, typ decode.Raw) {
	mv := invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnCompleted, Name: nameOr(typ, litMessageStop)}
	switch {
	case p.stop >= 0:
		mv.Outcome, mv.Code = stopReasons[p.stop].outcome, stopReasons[p.stop].code
	case p.stop == stopNone && !p.ended:
		m.Raise("stop-reason-missing", invariants.SevWarn,
			"message_stop but no message_delta carried a stop_reason; a client cannot tell why the message ended")
	}
	if len(p.cuts) > 0 {
		p.settleCut(m, mv.Outcome == invariants.TurnIncomplete)
	}
	m.Add(mv)
	p.end()
}

// errorEvent is a failed terminal. An error before message_start opens the
// turn itself: the server may fail before the message begins (that is no
// start-missing).
func (p *mapper) errorEvent(f *decode.Frame, m *invariants.Mapping, typ decode.Raw, first bool) {
	e := f.Get("error")
	code, msg := e.Get("type"), e.Get("message")
	switch {
	case e.Kind() != decode.KindObject:
		m.Malformed("error", "error is "+invariants.KindName(e)+", want an object with type and message")
	case code.Kind() != decode.KindString || msg.Kind() != decode.KindString:
		m.Malformed("error", "error.type is "+invariants.KindName(code)+" and error.message is "+invariants.KindName(msg)+", want two strings")
	}
	if first {
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart})
	}
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: nameOr(typ, litError), Code: code, Text: msg})
	p.cuts = p.cuts[:0] // the failure explains an input cut short
	p.end()
}

// end forgets the open tool blocks: the Engine settled them at the terminal.
func (p *mapper) end() {
	p.ended = true
	p.tools = p.tools[:0]
}

func nameOr(typ, lit decode.Raw) decode.Raw {
	if typ.Kind() == decode.KindString {
		return typ
	}
	return lit
}
