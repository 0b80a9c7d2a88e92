package openaichat

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// mapChoice maps one element of a chunk's choices: its delta (text,
// refusal, reasoning, tool calls), then its finish_reason.
//
// recognise: the stream's flavor is still open and c is the chunk's first
// choice, whose marks may name it (choiceFlavor, then the model id's):
// read in the same pass, before the delta is mapped (Mistral's tool calls
// are keyed by the flavor).
func (p *mapper) mapChoice(c decode.Raw, frame int, m *invariants.Mapping, recognise bool, marks *chunkMarks) {
	if c.Kind() != decode.KindObject {
		m.Malformed("choices", "an element is "+invariants.KindName(c)+", want an object")
		return
	}
	// One pass over the choice for the members read.
	var f [6]decode.Raw
	c.GetAll(f[:], "index", "delta", "finish_reason", "content_filter_results", "stop_reason", "usage")
	idx, delta, fr := f[0], f[1], f[2]
	var d deltaFields
	if delta.Kind() == decode.KindObject {
		delta.GetAll(d[:], deltaKeys...)
	}
	if recognise {
		fl := choiceFlavor(f[5], d[dTokenID], d[dContent])
		if fl == "" {
			fl = recogniseModel(marks)
		}
		if fl == "" {
			p.guessFlavor(guessChoice(f[3], f[4]), m)
		}
		p.settleFlavor(fl, m)
	}
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
	}
	if k := fr.Kind(); k != decode.KindString && k != decode.KindNone && k != decode.KindNull {
		m.Malformed("choices", "finish_reason is "+invariants.KindName(fr)+", want a string or null")
		fr = nil
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
	if d[dRole].IsNonEmptyStr() {
		st.role = true
	}
	if delta.Kind() == decode.KindObject {
		st.readAudio(&d, frame)
	}

	if !fr.IsNonEmptyStr() {
		return
	}
	reason := reasonOf(fr)
	if st.finish != finishNone {
		// The SDKs overwrite a choice's finish_reason with each non-null
		// one (openai-python's ChatCompletionStreamState, openai-node's
		// ChatCompletionStream): the same reason again (OpenRouter repeats
		// it on its usage chunk) changes nothing; another one changes what
		// the client reports, a departure it tolerates (warn), and the
		// latest is the one it keeps.
		if reason == st.finish && (reason != finishOther || bytes.Equal(fr, st.other)) {
			return
		}
		s, _ := fr.Str()
		m.Raise("terminal-duplicate", invariants.SevWarn, "choice %d gets a second finish_reason %q; its first (%s) came at frame %d, and the clients keep the second",
			n, decode.Clip(s, 40), finishNames[st.finish], st.frame)
	}
	st.finish, st.frame = reason, frame
	if reason == finishOther {
		st.other = append(st.other[:0], fr...)
	}
	if toolsReady(st.finish) {
		p.checkCalls(n, m)
		p.toolsDone(n, m)
	}
}

// deltaFields are a delta's members, read in one pass (deltaKeys order).
type deltaFields [9]decode.Raw

var deltaKeys = []string{"content", "refusal", "reasoning_content", "reasoning", "tool_calls", "function_call", "token_id", "role", "audio"}

const (
	dContent = iota
	dRefusal
	dReasoningContent
	dReasoning
	dToolCalls
	dFunctionCall
	dTokenID // Together's; read for the flavor only
	dRole    // read only to know the choice had one (role-missing)
	dAudio   // audio output (gpt-4o-audio): read for its end marker
)

// mapDelta turns a delta into moves; the choice index is every move's key,
// so the n answers of an n > 1 request stay apart.
func (p *mapper) mapDelta(d *deltaFields, idx decode.Raw, n int64, m *invariants.Mapping) {
	if c := d[dContent]; c.Kind() == decode.KindArray {
		contentParts(c, idx, m)
	} else if s := text(c, "content", m); s != nil {
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
		pos := int64(0)
		tIt := tc.Elements()
		for t, ok := tIt.Next(); ok; t, ok = tIt.Next() {
			p.mapToolDelta(t, n, pos, m)
			pos++
		}
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

// contentParts maps delta.content sent as an array of parts, as Mistral's
// reasoning models do: {type: "text", text} is text, {type: "thinking",
// thinking: [{type: "text", text}…]} is reasoning (Mistral's reasoning
// docs; the AI SDK's Mistral chunk schema takes a string or such an
// array). Other part types (references, images) carry no text here.
func contentParts(c, idx decode.Raw, m *invariants.Mapping) {
	partIt := c.Elements()
	for part, more := partIt.Next(); more; part, more = partIt.Next() {
		if part.Kind() != decode.KindObject {
			m.Malformed("delta", "a content part is "+invariants.KindName(part)+", want an object")
			continue
		}
		var f [3]decode.Raw
		part.GetAll(f[:], "type", "text", "thinking")
		switch {
		case f[0].StrEq("text"):
			if s := text(f[1], "content part text", m); s != nil {
				m.Add(invariants.Move{Kind: invariants.MoveText, Key: idx, Text: s})
			}
		case f[0].StrEq("thinking"):
			switch th := f[2]; th.Kind() {
			case decode.KindArray:
				tIt := th.Elements()
				for t, ok := tIt.Next(); ok; t, ok = tIt.Next() {
					if t.Kind() == decode.KindObject && t.Get("type").StrEq("text") {
						if s := text(t.Get("text"), "thinking part text", m); s != nil {
							m.Add(invariants.Move{Kind: invariants.MoveReasoning, Key: idx, Text: s})
						}
					}
				}
			case decode.KindString:
				if len(th) > 2 {
					m.Add(invariants.Move{Kind: invariants.MoveReasoning, Key: idx, Text: th})
				}
			case decode.KindNone, decode.KindNull:
			default:
				m.Malformed("delta", "a thinking part's thinking is "+invariants.KindName(th)+", want an array of parts")
			}
		}
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
	if d[dContent].Len() > 0 {
		return true // content as parts
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
	case fr.StrEq("insufficient_system_resource"):
		// DeepSeek's: the inference system dropped the request mid-answer.
		return finishError
	}
	return finishOther
}

// Audio parts a choice's deltas have carried (audio.id, data, transcript,
// expires_at): openai-node's ChatCompletionStream reads a complete audio
// that ends on an expires_at-only delta as finish_reason "stop".
const (
	audioID uint8 = 1 << iota
	audioData
	audioTranscript
	audioExpires
	audioComplete = audioID | audioData | audioTranscript | audioExpires
)

// readAudio follows a delta's audio. OpenAI's audio streams can end with a
// delta that carries only audio.expires_at and no finish_reason at all;
// openai-node (src/lib/ChatCompletionStream.ts, since "handle audio
// completion markers", July 2026) then finishes the choice with "stop"
// when its audio has id, data, transcript and expires_at. Any later delta
// of the choice undoes the marker, as there.
func (c *choice) readAudio(d *deltaFields, frame int) {
	c.audioEnd = -1
	a := d[dAudio]
	if a.Kind() != decode.KindObject {
		return
	}
	var f [4]decode.Raw
	a.GetAll(f[:], "id", "data", "transcript", "expires_at")
	for i, bit := range [4]uint8{audioID, audioData, audioTranscript, audioExpires} {
		if k := f[i].Kind(); k != decode.KindNone && k != decode.KindNull {
			c.audio |= bit
		}
	}
	if c.audio&audioExpires == 0 || !absent(f[0], f[1], f[2]) {
		return
	}
	if absent(d[dContent], d[dRefusal], d[dReasoningContent], d[dReasoning], d[dToolCalls], d[dFunctionCall], d[dRole]) {
		c.audioEnd = frame
	}
}

// absent: each value is missing or null.
func absent(vs ...decode.Raw) bool {
	for _, v := range vs {
		if k := v.Kind(); k != decode.KindNone && k != decode.KindNull {
			return false
		}
	}
	return true
}
