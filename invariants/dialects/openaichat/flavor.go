package openaichat

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// The provider flavors the mapper recognises (Mapping.SetFlavor). Each is
// named by a mark only that provider puts on its chunks; a stream with no
// such mark gets no flavor (plain OpenAI, with the tolerances every SDK
// has) rather than a guess.
const (
	flavorOpenAI     = "openai"
	flavorAzure      = "azure"
	flavorGroq       = "groq"
	flavorXAI        = "xai"
	flavorMistral    = "mistral"
	flavorOpenRouter = "openrouter"
	flavorPerplexity = "perplexity"
	flavorDeepSeek   = "deepseek"
	flavorTogether   = "together"
	flavorFireworks  = "fireworks"
	flavorVLLM       = "vllm"
	flavorOllama     = "ollama"
	flavorLMStudio   = "lmstudio"
	flavorMoonshot   = "moonshot"
)

// flavors is Spec.FlavorList: what names each flavor, and what it changes.
var flavors = []invariants.Flavor{
	{Name: flavorOpenAI, Provider: "OpenAI", Recognised: "an obfuscation member on a chunk (OpenAI's stream obfuscation, on by default since 2025)"},
	{Name: flavorAzure, Provider: "Azure OpenAI", Recognised: "prompt_filter_results (or prompt_annotations) on a chunk, or content_filter_results on a choice",
		Changes: "none beyond the common tolerances: its annotation chunks (empty id, model, object; no delta) are legal for every stream (Azure content-filter-streaming docs)"},
	{Name: flavorGroq, Provider: "Groq", Recognised: "x_groq on a chunk",
		Changes: "a switch of id or model raises nothing: the compound models stream their inner completions under their own ids (Groq compound docs); openai-python and openai-node keep the first chunk's"},
	{Name: flavorXAI, Provider: "xAI", Recognised: "usage.num_sources_used or usage.cost_in_usd_ticks, or a bare grok- model id",
		Changes: "none: created re-stamped per chunk is accepted for every stream (vercel/ai packages/xai/src/__fixtures__/xai-text.chunks.txt)"},
	{Name: flavorMistral, Provider: "Mistral AI", Recognised: "delta.content as an array of parts, or a bare mistral-/magistral-/codestral-/ministral-/devstral-/pixtral- model id with a 32-hex id",
		Changes: "a tool call delta without index is keyed by its position (Mistral sends each call whole, with no index: the AI SDK's Mistral chunk schema); content as parts ({type: thinking|text}) is read for every stream, thinking as reasoning (Mistral reasoning docs)"},
	{Name: flavorOpenRouter, Provider: "OpenRouter", Recognised: "a top-level provider string on a chunk",
		Changes: "none: the finish_reason repeated on its usage chunk is accepted for every stream (the SDKs overwrite finish_reason)"},
	{Name: flavorPerplexity, Provider: "Perplexity", Recognised: "citations or search_results on a chunk, or object chat.completion.done",
		Changes: "none: its last chunk, object chat.completion.done with finish_reason, is read as a chunk for every stream"},
	{Name: flavorDeepSeek, Provider: "DeepSeek", Recognised: "usage.prompt_cache_hit_tokens"},
	{Name: flavorTogether, Provider: "Together AI", Recognised: "delta.token_id on a choice"},
	{Name: flavorFireworks, Provider: "Fireworks AI", Recognised: "a model id under accounts/fireworks/"},
	{Name: flavorVLLM, Provider: "vLLM", Recognised: "x_vllm on a chunk, or stop_reason on a choice"},
	{Name: flavorOllama, Provider: "Ollama (OpenAI endpoint)", Recognised: "system_fingerprint fp_ollama"},
	{Name: flavorLMStudio, Provider: "LM Studio", Recognised: "system_fingerprint equal to the model id"},
	{Name: flavorMoonshot, Provider: "Moonshot AI (Kimi)", Recognised: "a system_fingerprint fpv0_…, or usage inside a choice"},
}

// recognise names the flavor one chunk's marks say, "" when none.
// Allocation-free: it compares JSON literals.
func recognise(f *decode.Frame, choices decode.Raw) string {
	switch {
	case f.Get("x_groq") != nil:
		return flavorGroq
	case f.Get("provider").Kind() == decode.KindString:
		return flavorOpenRouter
	case f.Get("prompt_filter_results") != nil || f.Get("prompt_annotations") != nil:
		return flavorAzure
	case f.Get("citations") != nil || f.Get("search_results") != nil || f.Get("object").StrEq("chat.completion.done"):
		return flavorPerplexity
	case f.Get("x_vllm") != nil:
		return flavorVLLM
	case f.Get("obfuscation") != nil:
		return flavorOpenAI
	}
	model, fp := f.Get("model"), f.Get("system_fingerprint")
	switch {
	case bytes.HasPrefix(model, []byte(`"accounts/fireworks/`)):
		return flavorFireworks
	case fp.StrEq("fp_ollama"):
		return flavorOllama
	case bytes.HasPrefix(fp, []byte(`"fpv0_`)):
		return flavorMoonshot
	case fp.IsNonEmptyStr() && bytes.Equal(fp, model):
		return flavorLMStudio
	}
	if u := f.Get("usage"); u.Kind() == decode.KindObject {
		switch {
		case u.Get("prompt_cache_hit_tokens") != nil:
			return flavorDeepSeek
		case u.Get("num_sources_used") != nil || u.Get("cost_in_usd_ticks") != nil:
			return flavorXAI
		}
	}
	if fl := recogniseChoice(choices); fl != "" {
		return fl
	}
	switch {
	case bytes.HasPrefix(model, []byte(`"grok-`)):
		return flavorXAI
	case mistralModel(model) && hex32(f.Get("id")):
		return flavorMistral
	}
	return ""
}

// recogniseChoice reads the first choice's marks.
func recogniseChoice(choices decode.Raw) string {
	var c decode.Raw
	choices.Elements(func(v decode.Raw) bool {
		c = v
		return false
	})
	if c.Kind() != decode.KindObject {
		return ""
	}
	var f [4]decode.Raw
	c.GetAll(f[:], "content_filter_results", "stop_reason", "usage", "delta")
	switch {
	case f[0] != nil:
		return flavorAzure
	case f[1] != nil:
		return flavorVLLM
	case f[2].Kind() == decode.KindObject:
		return flavorMoonshot
	}
	if d := f[3]; d.Kind() == decode.KindObject {
		if d.Get("token_id") != nil {
			return flavorTogether
		}
		if d.Get("content").Kind() == decode.KindArray {
			return flavorMistral
		}
	}
	return ""
}

var mistralPrefixes = [][]byte{[]byte(`"mistral-`), []byte(`"magistral-`), []byte(`"codestral-`), []byte(`"ministral-`), []byte(`"devstral-`), []byte(`"pixtral-`)}

// mistralModel: one of Mistral's own model ids (a bare name; other hosts
// name Mistral's open models with an organisation prefix or a tag).
func mistralModel(model decode.Raw) bool {
	if bytes.IndexByte(model, '/') >= 0 || bytes.IndexByte(model, ':') >= 0 {
		return false
	}
	for _, p := range mistralPrefixes {
		if bytes.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// hex32: Mistral's completion ids are 32 lowercase hex digits.
func hex32(id decode.Raw) bool {
	if len(id) != 34 || id[0] != '"' {
		return false
	}
	for _, c := range id[1:33] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
