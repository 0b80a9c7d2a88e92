package openaichat

import (
	"framescope/decode"
	"framescope/invariants"
)

// mapChoice maps one element of a chunk's choices: its delta (text,
// refusal, reasoning, tool calls), then its finish_reason.
func (p *mapper) mapChoice(c decode.Raw, frame int, m *invariants.Mapping) {
	if c.Kind() != decode.KindObject {
		m.Malformed("choices", "an element is "+invariants.KindName(c)+", want an object")
		return
	}
	// One pass over the choice for the three members read.
	var f [3]decode.Raw
	c.GetAll(f[:], "index", "delta", "finish_reason")
	idx, delta, fr := f[0], f[1], f[2]
	n, ok := invariants.Int(idx)
	if !ok || n < 0 {
		m.Malformed("choices", "index is "+invariants.KindName(idx)+", want an integer ≥ 0")
		return
	}
	st := p.findChoice(n)
	if st == nil {
		return
	}
	// Azure's content-filter annotations carry no delta at all, so a
	// missing delta is legal; one of the wrong type is not.
	if k := delta.Kind(); k != decode.KindObject && k != decode.KindNone && k != decode.KindNull {
		m.Malformed("choices", "delta is "+invariants.KindName(delta)+", want an object")
		delta = nil
	}
	if k := fr.Kind(); k != decode.KindString && k != decode.KindNone && k != decode.KindNull {
		m.Malformed("choices", "finish_reason is "+invariants.KindName(fr)+", want a string or null")
		fr = nil
	}
	var d deltaFields
	if delta.Kind() == decode.KindObject {
		delta.GetAll(d[:], deltaKeys...)
	}

	if st.finish != finishNone {
		// The choice already ended: content for it is after its terminal
		// (an annotation or an empty delta is not content).
		if d.hasContent() {
			m.Raise("after-terminal", invariants.SevError, "choice %d sends content after its finish_reason %s at frame %d",
				n, finishNames[st.finish], st.frame)
		}
	} else {
		p.mapDelta(&d, idx, n, m)
	}

	if !fr.IsNonEmptyStr() {
		return
	}
	if st.finish != finishNone {
		s, _ := fr.Str()
		m.Raise("terminal-duplicate", invariants.SevError, "choice %d gets a second finish_reason %q; its first (%s) came at frame %d",
			n, decode.Clip(s, 40), finishNames[st.finish], st.frame)
		return
	}
	st.finish, st.frame = reasonOf(fr), frame
	if toolsReady(st.finish) {
		p.toolsDone(n, m)
	}
}

// deltaFields are a delta's members, read in one pass (deltaKeys order).
type deltaFields [6]decode.Raw

var deltaKeys = []string{"content", "refusal", "reasoning_content", "reasoning", "tool_calls", "function_call"}

const (
	dContent = iota
	dRefusal
	dReasoningContent
	dReasoning
	dToolCalls
	dFunctionCall
)

// mapDelta turns a delta into moves; the choice index is every move's key,
// so the n answers of an n > 1 request stay apart.
func (p *mapper) mapDelta(d *deltaFields, idx decode.Raw, n int64, m *invariants.Mapping) {
	if s := text(d[dContent], "content", m); s != nil {
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: idx, Text: s})
	}
	if s := text(d[dRefusal], "refusal", m); s != nil {
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: idx, Name: litRefusal, Text: s})
	}
	// Reasoning is no OpenAI field: DeepSeek and vLLM send
	// reasoning_content, OpenRouter and Ollama reasoning.
	if s := text(d[dReasoningContent], "reasoning_content", m); s != nil {
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Key: idx, Text: s})
	}
	if s := text(d[dReasoning], "reasoning", m); s != nil {
		m.Add(invariants.Move{Kind: invariants.MoveReasoning, Key: idx, Text: s})
	}
	switch tc := d[dToolCalls]; tc.Kind() {
	case decode.KindArray:
		tc.Elements(func(t decode.Raw) bool {
			p.mapToolDelta(t, n, m)
			return true
		})
	case decode.KindNone, decode.KindNull:
	default:
		m.Malformed("delta", "tool_calls is "+invariants.KindName(tc)+", want an array")
	}
	switch fc := d[dFunctionCall]; fc.Kind() {
	case decode.KindObject:
		p.mapFunctionCall(fc, n, m)
	case decode.KindNone, decode.KindNull:
	default:
		m.Malformed("delta", "function_call is "+invariants.KindName(fc)+", want an object")
	}
}

// text returns a delta's non-empty string member; nil when absent, null
// or empty (the role chunk sends content ""), payload-malformed when it
// is not a string.
func text(v decode.Raw, key string, m *invariants.Mapping) decode.Raw {
	switch v.Kind() {
	case decode.KindString:
		if len(v) > 2 {
			return v
		}
	case decode.KindNone, decode.KindNull:
	default:
		m.Malformed("delta", key+" is "+invariants.KindName(v)+", want a string")
	}
	return nil
}

// hasContent: the delta carries something a client would add to the
// choice's message.
func (d *deltaFields) hasContent() bool {
	for _, v := range d[:dToolCalls] {
		if v.IsNonEmptyStr() {
			return true
		}
	}
	return d[dToolCalls].Len() > 0 || d[dFunctionCall].Kind() == decode.KindObject
}

func reasonOf(fr decode.Raw) uint8 {
	switch {
	case fr.StrEq("stop"):
		return finishStop
	case fr.StrEq("length"):
		return finishLength
	case fr.StrEq("tool_calls"):
		return finishToolCalls
	case fr.StrEq("content_filter"):
		return finishContentFilter
	case fr.StrEq("function_call"):
		return finishFunctionCall
	case fr.StrEq("error"):
		return finishError
	}
	return finishOther
}
