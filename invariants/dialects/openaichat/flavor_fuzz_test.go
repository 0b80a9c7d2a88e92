package openaichat

import (
	"reflect"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// recognise is the flavor recognition in one place, in its order — the
// chunk's own marks, its first choice's, a model id's — read with the
// lookups one by one (Get): the oracle for the mapper, which splits it between
// readFlavor and mapChoice so a choice is walked once.
func recognise(f *decode.Frame, choices decode.Raw) string {
	var k chunkMarks
	k.readSlow(f)
	if fl := recogniseChunk(&k); fl != "" {
		return fl
	}
	if fl := recogniseChoiceByGet(choices); fl != "" {
		return fl
	}
	if fl := recogniseModel(&k); fl != "" {
		return fl
	}
	if guessChunk(&k) != "" || guessChoiceByGet(choices) {
		return flavorCompatible
	}
	return ""
}

// guessChoiceByGet: the first choice carries a copied mark (guessChoice).
func guessChoiceByGet(choices decode.Raw) bool {
	var c decode.Raw
	vIt := choices.Elements()
	for v, ok := vIt.Next(); ok; v, ok = vIt.Next() {
		c = v
		break
	}
	return c.Kind() == decode.KindObject && (c.Get("content_filter_results") != nil || c.Get("stop_reason") != nil)
}

// recogniseChoiceByGet reads the first choice's marks.
func recogniseChoiceByGet(choices decode.Raw) string {
	var c decode.Raw
	vIt := choices.Elements()
	for v, ok := vIt.Next(); ok; v, ok = vIt.Next() {
		c = v
		break
	}
	if c.Kind() != decode.KindObject {
		return ""
	}
	switch {
	case c.Get("usage").Kind() == decode.KindObject:
		return flavorMoonshot
	}
	if d := c.Get("delta"); d.Kind() == decode.KindObject {
		if d.Get("token_id") != nil {
			return flavorTogether
		}
		if d.Get("content").Kind() == decode.KindArray {
			return flavorMistral
		}
	}
	return ""
}

// The one-pass read of a chunk's marks says what Frame.Get says.
func FuzzRecogniseOnePass(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"x"}}]}`,
		`{"x_groq":{"id":"r"},"choices":[{"index":0,"delta":{},"stop_reason":null}]}`,
		`{"model":"grok-3","choices":[{"index":0,"content_filter_results":{},"delta":{"content":"x"}}]}`,
		`{"choices":[{"delta":{"token_id":5,"content":[1]}}],"usage":{"prompt_cache_hit_tokens":1}}`,
		`{"choices":[{"usage":{"completion_tokens":1},"delta":{"content":[{"type":"text"}]}}],"system_fingerprint":"fpv0_x"}`,
		`{"\u0078_groq":1,"model":"m","model":"mistral-small","id":"0123456789abcdef0123456789abcdef","choices":[]}`,
		`{"prompt_filter_results":1,"prompt_annotations":2,"search_results":3,"\u0063itations":4}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := decode.DecodeFrame(&decode.Event{Data: data, Raw: data}, 0)
		if !fr.Decoded() {
			return
		}
		var fast, slow chunkMarks
		fast.read(fr)
		slow.readSlow(fr)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("one pass %+v, by Get %+v", fast, slow)
		}
	})
}

// The mapper names a chunk's flavor as recognise does, though it reads
// the first choice's marks in mapChoice.
func FuzzMapperFlavorIsRecognise(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","object":"chat.completion.chunk","model":"grok-3","choices":[{"index":0,"content_filter_results":{},"delta":{"content":"x"}}]}`,
		`{"id":"a","object":"chat.completion.chunk","model":"grok-3","choices":[{"index":0,"delta":{"content":"x"}}]}`,
		`{"id":"0123456789abcdef0123456789abcdef","object":"chat.completion.chunk","model":"mistral-small","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}}]}`,
		`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"token_id":3,"content":"x"}}]}`,
		`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[{"index":"bad","usage":{"completion_tokens":1}}]}`,
		`{"id":"a","object":"chat.completion.chunk","model":"m","choices":[]}`,
		`{"id":"a","object":"chat.completion.chunk","model":"grok-4","choices":{"index":0}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := decode.DecodeFrame(&decode.Event{Data: data, Raw: data}, 0)
		if !fr.Decoded() || !fr.Get("object").StrEq("chat.completion.chunk") || fr.Get("error") != nil {
			return
		}
		chk := Dialect.NewChecker(invariantsOptions())
		chk.Observe(fr)
		got := chk.(invariants.Flavored).Flavor()
		if want := recognise(fr, fr.Get("choices")); got != want {
			t.Fatalf("mapper's flavor %q, recognise %q", got, want)
		}
	})
}

// readSlow is chunkMarks.read through Frame.Get, name by name: the
// oracle for the one-pass read.
func (k *chunkMarks) readSlow(f *decode.Frame) {
	k.xGroq, k.provider, k.object, k.xVLLM = f.Get("x_groq"), f.Get("provider"), f.Get("object"), f.Get("x_vllm")
	k.promptFilter = orRaw(f.Get("prompt_filter_results"), f.Get("prompt_annotations"))
	k.citations = orRaw(f.Get("citations"), f.Get("search_results"))
	k.obfuscation, k.model, k.fingerprint = f.Get("obfuscation"), f.Get("model"), f.Get("system_fingerprint")
	k.usage, k.id, k.created, k.timeInfo = f.Get("usage"), f.Get("id"), f.Get("created"), f.Get("time_info")
}
