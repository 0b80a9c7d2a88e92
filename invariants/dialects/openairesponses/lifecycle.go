package openairesponses

import (
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// lifecycle maps the events that carry the response object: created opens
// the turn, queued / in_progress are waiting lines, completed / failed /
// incomplete end it.
func (p *mapper) lifecycle(f *decode.Frame, m *invariants.Mapping, ev *event) {
	resp := f.Get("response")
	var id decode.Raw
	if resp.Kind() != decode.KindObject {
		p.malformed(m, ev.name, "response is "+invariants.KindName(resp)+", want the response object")
	} else if id = resp.Get("id"); id.Kind() != decode.KindString {
		p.malformed(m, ev.name, "response.id is "+invariants.KindName(id)+", want a string")
		id = nil
	}
	if ev.act == actStart {
		p.flavor(m, resp, id)
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: id})
		if id != nil && !p.hasRID {
			p.rid, p.hasRID = append(p.rid[:0], id...), true
		}
		return
	}
	p.drift(m, ev, id)
	if id != nil {
		// A resumed stream learns its response id here.
		m.Add(invariants.Move{Kind: invariants.MoveTurnKey, Key: id})
	}
	switch ev.act {
	case actProgress:
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: ev.line})
	case actCompleted:
		p.flavorAtEnd(m, resp)
		p.settleCompleted(m, ev, resp.Get("output"))
		p.terminal(m, invariants.TurnCompleted, f.Get("type"), nil, nil)
	case actFailed:
		p.settleListed(m)
		e := resp.Get("error")
		p.terminal(m, invariants.TurnFailed, f.Get("type"), e.Get("code"), e.Get("message"))
	case actIncomplete:
		p.settleListed(m)
		p.terminal(m, invariants.TurnIncomplete, f.Get("type"), resp.Get("incomplete_details").Get("reason"), nil)
	}
}

// list remembers an mcp_list_tools item whose listing completed or failed.
func (p *mapper) list(oi int64) {
	for _, o := range p.listed {
		if o == oi {
			return
		}
	}
	p.listed = append(p.listed, oi)
}

// settleCompleted closes, at response.completed, the output items and
// parts still open that the event's response.output carries: their
// output_item.done / content_part.done never came (nor, then, their
// output_text.done), yet no client loses them. openai-node's accumulator
// replaces its snapshot with response.completed's response
// (src/internal/responses/response-accumulator.ts
// accumulateResponseWithContext: a lifecycle event's response is the new
// snapshot; src/lib/responses/ResponseStream.ts finalResponse) and
// openai-python's ResponseStreamState builds the final response from it
// (src/openai/lib/streaming/responses/_responses.py accumulate_event,
// _completed_response): neither needs the done events. One warn a stream
// names them (one defect, one alarm). It departs from the reference,
// which closes every item and part with its done event, and a client
// that renders from those events misses them.
//
// An item or part the output does not carry (the output is shorter, the
// element is not an object, or an item of another type is at its index)
// stays open: the Engine's span-unclosed error, for the client really
// loses it. Items carried close their tool call as their done event
// would (a client tool is ready, a hosted one ends with the item's
// status).
//
// mcp_list_tools items closed only by their mcp_list_tools.completed are
// one case: with several MCP servers OpenAI sends output_item.done for
// the last one only (recorded: pydantic/pydantic-ai
// test_openai_responses_model_mcp_list_tools_stream_backfills_missing_results.yaml,
// whose client backfills them from response.completed).
func (p *mapper) settleCompleted(m *invariants.Mapping, ev *event, output decode.Raw) {
	p.listed = p.listed[:0]
	p.lbuf = p.lbuf[:0]
	var items, parts int
	var named []byte
	oi := int64(-1)
	itemIt := output.Elements()
	for item, more := itemIt.Next(); more; item, more = itemIt.Next() {
		oi++
		if item.Kind() != decode.KindObject {
			continue
		}
		closed := 0
		for _, sub := range [...]struct {
			field string
			kind  invariants.SpanKind
		}{{"content", invariants.SpanPart}, {"summary", invariants.SpanReasoning}} {
			idx := int64(-1)
			partIt := item.Get(sub.field).Elements()
			for part, ok := partIt.Next(); ok; part, ok = partIt.Next() {
				idx++
				key := p.stableKey(oi, idx, true)
				if _, open := m.SpanName(sub.kind, key); open && part.Kind() == decode.KindObject {
					m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: sub.kind, Key: key})
					closed++
				}
			}
		}
		parts += closed
		key := p.stableKey(oi, 0, false)
		name, open := m.SpanName(invariants.SpanItem, key)
		if open && (name == "" || item.Get("type").StrEq(name)) {
			if s := p.find(oi); s != nil && s.tool {
				p.toolCarried(m, s, item)
			}
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: key})
			p.free(oi)
			closed++
		} else if closed == 0 {
			continue
		}
		items++
		if items <= 3 {
			if len(named) > 0 {
				named = append(named, ", "...)
			}
			named = strconv.AppendInt(append(named, "item "...), oi, 10)
			if t, ok := item.Get("type").Str(); ok {
				named = append(append(append(named, " ("...), decode.Clip(t, 40)...), ')')
			}
		} else if items == 4 {
			named = append(named, ", …"...)
		}
	}
	if items == 0 {
		return
	}
	what := invariants.Plural(items, "output item")
	if parts > 0 {
		what += " (" + invariants.Plural(parts, "part") + ")"
	}
	m.Raise("span-unclosed", invariants.SevWarn, "%s closed only by %s: %s; their output_item.done / content_part.done never came, but openai-python and openai-node take the final response from %s, whose output carries them",
		what, ev.name, named, ev.name)
}

// toolCarried ends the tool call of an item response.completed closes:
// as output_item.done would (itemDone, toolDone).
func (p *mapper) toolCarried(m *invariants.Mapping, s *slot, item decode.Raw) {
	key := decode.Raw(s.key)
	if !m.ToolIsOpen(key) {
		return
	}
	if s.hosted {
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key, Outcome: statusOutcome(item.Get("status"))})
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
}

// stableKey is an item's span key (its output_index) or a part's
// ([output_index,index]), written into lbuf where it stays valid while
// the frame's moves are (settleListed, settleCompleted).
func (p *mapper) stableKey(oi, idx int64, part bool) decode.Raw {
	start := len(p.lbuf)
	if part {
		p.lbuf = append(p.lbuf, '[')
	}
	p.lbuf = strconv.AppendInt(p.lbuf, oi, 10)
	if part {
		p.lbuf = strconv.AppendInt(append(p.lbuf, ','), idx, 10)
		p.lbuf = append(p.lbuf, ']')
	}
	return decode.Raw(p.lbuf[start:len(p.lbuf):len(p.lbuf)])
}

// settleListed closes, at response.failed or response.incomplete, the
// mcp_list_tools items whose listing completed (or failed) but that got
// no output_item.done (see settleCompleted): the failure is the turn's
// story, the listing is not part of it.
func (p *mapper) settleListed(m *invariants.Mapping) {
	p.lbuf = p.lbuf[:0]
	for _, oi := range p.listed {
		key := p.stableKey(oi, 0, false)
		if name, open := m.SpanName(invariants.SpanItem, key); open && name == "mcp_list_tools" {
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: key})
		}
	}
	p.listed = p.listed[:0]
}

// terminal ends the turn. After an unconfirmed error event the response
// has failed whatever the terminal says (afterError has raised the rest).
func (p *mapper) terminal(m *invariants.Mapping, outcome string, name, code, text decode.Raw) {
	if p.errAt >= 0 && !p.ended {
		outcome = invariants.TurnFailed
	}
	p.ended = true
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: name, Code: code, Text: text})
}

// drift: every lifecycle event repeats the response; its id should stay
// response.created's. openai-python and openai-node accumulate by
// output_index and take the final response from response.completed, so a
// changed id breaks no client: warn, once a stream (GitHub Copilot's
// Responses API, store:false, gives every event a new id: vercel/ai
// #18548).
func (p *mapper) drift(m *invariants.Mapping, ev *event, id decode.Raw) {
	if id == nil || !p.hasRID || string(id) == string(p.rid) || p.drifted {
		return
	}
	p.drifted = true
	m.Raise("envelope-drift", invariants.SevWarn, "%s carries response.id %s, but response.created said %s (later changes are not listed: the SDKs keep the first and read the final response from response.completed)",
		ev.name, clipRaw(id), clipRaw(p.rid))
}

// errorEvent maps the error event. The reference sends it with top-level
// code / message / param (ResponseErrorEvent); OpenAI has also been
// recorded sending them nested in an error object (vercel/ai fixture
// openai-error.1): both are read. It is not the terminal yet: OpenAI
// follows it with response.failed, which confirms it (EndStream ends the
// turn as failed when nothing does).
func (p *mapper) errorEvent(f *decode.Frame, m *invariants.Mapping, ev *event) {
	code, msg := f.Get("code"), f.Get("message")
	if nested := f.Get("error"); nested.Kind() == decode.KindObject && msg == nil {
		code, msg = nested.Get("code"), nested.Get("message")
	}
	if msg.Kind() != decode.KindString {
		p.malformed(m, ev.name, "message is "+invariants.KindName(msg)+", want a string (top level or in error)")
	}
	if code.Kind() != decode.KindString {
		code = nil
	}
	p.errAt = f.Index
	m.Add(invariants.Move{Kind: invariants.MoveError, Code: code, Text: msg})
}

// afterError judges a frame that follows an unconfirmed error event: only
// response.failed may (it is the terminal). Any other frame is
// after-terminal; a second error is also terminal-duplicate, as the Engine
// reports a second terminal. It reports whether the frame is still mapped.
func (p *mapper) afterError(f *decode.Frame, m *invariants.Mapping, ev *event) bool {
	if ev.act == actFailed {
		return true
	}
	m.Raise("after-terminal", invariants.SevError, "%s after the error event at frame %d (only response.failed may follow it)", ev.name, p.errAt)
	switch ev.act {
	case actError:
		m.Raise("terminal-duplicate", invariants.SevError, "second error event after the one at frame %d", p.errAt)
		return false
	case actCompleted, actIncomplete:
		return true // it still ends the stream, as failed (terminal)
	}
	return false
}
