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
		p.settleListed(m)
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

// settleListed closes, at the terminal, the mcp_list_tools items whose
// listing completed (or failed) but that got no output_item.done. With
// several MCP servers OpenAI sends output_item.done for the last
// mcp_list_tools item only; the others' results arrive in the terminal's
// response.output (recorded: pydantic/pydantic-ai
// test_openai_responses_model_mcp_list_tools_stream_backfills_missing_results.yaml,
// whose client backfills them from there). openai-python needs no
// output_item.done: its snapshot appends at output_item.added.
func (p *mapper) settleListed(m *invariants.Mapping) {
	p.lbuf = p.lbuf[:0]
	for _, oi := range p.listed {
		start := len(p.lbuf)
		p.lbuf = strconv.AppendInt(p.lbuf, oi, 10)
		key := decode.Raw(p.lbuf[start:len(p.lbuf):len(p.lbuf)])
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
