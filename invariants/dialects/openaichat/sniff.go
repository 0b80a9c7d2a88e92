package openaichat

import (
	"framescope/decode"
	"framescope/invariants"
)

// sniff: object "chat.completion.chunk" is the signature. Azure opens its
// stream with a prompt-filter chunk whose id, model and object are empty:
// with prompt_filter_results (or the older prompt_annotations) it is
// Azure's and says Yes; an empty-object chunk without them (Azure's
// content-filter annotations) only says Maybe. A bare {"error": …} object
// is how OpenAI reports a mid-stream failure (vLLM: object "error"), but
// it is no signature. A chunk without object whose choices[0] has an
// object delta is one too (some OpenAI-compatible servers omit object).
// Hugging Face TGI 1.4 to 2.0.x stamps its chat chunks object
// "text_completion" (router/src/lib.rs ChatCompletionChunk::new, fixed to
// chat.completion.chunk in 2.1.0, #2089); the OpenAI SDKs never read
// object, so a text_completion with choices[].delta is a chat chunk too
// (a legacy completion's choices carry text, not delta).
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	obj := f.Get("object")
	if obj.StrEq("chat.completion.chunk") || obj.StrEq("chat.completion.done") {
		return invariants.Yes // chat.completion.done: Perplexity's last chunk
	}
	if obj.StrEq("error") && f.Get("message") != nil {
		return invariants.Maybe // vLLM's error object (it has a type member too)
	}
	if foreign.In(f) {
		return invariants.No
	}
	switch {
	case obj.StrEq("text_completion") && firstDelta(f.Get("choices")):
		return invariants.Yes
	case obj.StrEq("") && f.Get("choices").Kind() == decode.KindArray:
		if f.Get("prompt_filter_results") != nil || f.Get("prompt_annotations") != nil {
			return invariants.Yes
		}
		return invariants.Maybe
	case obj == nil && firstDelta(f.Get("choices")):
		// Servers that leave object out still stream choices[].delta: no
		// other dialect has that shape (its foreign keys were ruled out).
		return invariants.Yes
	case obj == nil && truthy(f.Get("error")):
		return invariants.Maybe
	}
	return invariants.No
}

// label names a frame for the timeline and messages: its object, "error"
// for an error object, and Azure's two empty-object chunks by what they
// carry.
func label(f *decode.Frame) string {
	if truthy(f.Get("error")) {
		return "error"
	}
	obj := f.Get("object")
	if obj.StrEq("chat.completion.chunk") {
		return "chat.completion.chunk"
	}
	if s, ok := obj.NonEmptyStr(); ok {
		return s
	}
	if f.Get("prompt_filter_results") != nil || f.Get("prompt_annotations") != nil {
		return "prompt_filter_results"
	}
	if obj != nil && f.Get("choices") != nil {
		return "content_filter_results"
	}
	return ""
}

// truthy reads a value as the OpenAI SDKs do before raising a streaming
// error (Python truthiness): absent, null, false, 0, "", {} and [] are not.
func truthy(r decode.Raw) bool {
	switch r.Kind() {
	case decode.KindNone, decode.KindNull:
		return false
	case decode.KindBool:
		v, _ := r.Bool()
		return v
	case decode.KindString:
		return len(r) > 2
	case decode.KindNumber:
		for _, c := range r {
			if c >= '1' && c <= '9' {
				return true
			}
		}
		return false
	}
	// An object or array: truthy unless empty.
	for _, c := range r[1:] {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '}', ']':
			return false
		}
		return true
	}
	return false
}

// firstDelta: choices is an array whose first element has an object delta.
func firstDelta(choices decode.Raw) bool {
	if choices.Kind() != decode.KindArray {
		return false
	}
	yes := false
	cIt := choices.Elements()
	for c, ok := cIt.Next(); ok; c, ok = cIt.Next() {
		yes = c.Kind() == decode.KindObject && c.Get("delta").Kind() == decode.KindObject
		break
	}
	return yes
}
