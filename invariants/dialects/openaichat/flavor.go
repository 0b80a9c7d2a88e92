package openaichat

import (
	"bytes"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// The provider flavors the mapper recognises (Mapping.SetFlavor). Each is
// named by a mark only that provider puts on its chunks (a documented
// field, header or id shape); a stream with no mark gets no flavor (plain
// OpenAI, with the tolerances every SDK has). A mark that other providers
// copy (Azure's content_filter_results on a choice, which Novita sends
// too; vLLM's stop_reason, which Hyperbolic, Nebius and Azure AI Inference
// send; DeepSeek's usage.prompt_cache_hit_tokens, which mocks copy) names
// no provider: the stream is openai-compatible (an unknown provider) and
// the mark is shown as a flavor-guess hint (info), never as the flavor.
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
	flavorWriter     = "writer"
	flavorTGI        = "tgi"
	flavorCerebras   = "cerebras"
	// flavorCompatible: an OpenAI-compatible provider no mark names.
	flavorCompatible = "openai-compatible"
)

// noDone: the flavors whose provider documents no data: [DONE] and whose
// own SDK ends at the end of the body. Writer: its chat streaming docs show
// none, and writerai's Stream.__stream__ (src/writerai/_streaming.py)
// parses every data event as JSON with no sentinel check. A completed
// stream that ends without [DONE] is then what the provider promises: no
// done-missing.
//
// TGI: its chat stream sent no [DONE] before 2.2.0
// (huggingface/text-generation-inference router/src/server.rs, added by
// #2221); a 2.2+ stream sends one and raises nothing either way.
func noDone(flavor string) bool { return flavor == flavorWriter || flavor == flavorTGI }

// openAIHelperError: the flavors read as OpenAI's own (its API or Azure
// OpenAI, or no provider mark at all), where openai-node's
// ChatCompletionStream is the client to satisfy. Under any other flavor the
// provider's own SDK and the common clients (openai-python, the AI SDK)
// read the stream; a defect only that helper throws on is a warn naming
// it.
func openAIHelperError(flavor string) bool {
	return flavor == "" || flavor == flavorOpenAI || flavor == flavorAzure
}

// flavors is Spec.FlavorList: what names each flavor, and what it changes.
var flavors = []invariants.Flavor{
	{Name: flavorOpenAI, Provider: "OpenAI", Recognised: "an obfuscation member on a chunk (OpenAI's stream obfuscation, on by default since 2025)"},
	{Name: flavorAzure, Provider: "Azure OpenAI", Recognised: "prompt_filter_results (or prompt_annotations) on a chunk (Azure's prompt-filter chunk; content_filter_results on a choice alone is copied by others, e.g. Novita: openai-compatible)",
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
	{Name: flavorDeepSeek, Provider: "DeepSeek", Recognised: "usage.prompt_cache_hit_tokens with DeepSeek's system_fingerprint fp_…_prod… (the usage field alone: openai-compatible)"},
	{Name: flavorTogether, Provider: "Together AI", Recognised: "delta.token_id on a choice"},
	{Name: flavorFireworks, Provider: "Fireworks AI", Recognised: "a model id under accounts/fireworks/"},
	{Name: flavorVLLM, Provider: "vLLM", Recognised: "x_vllm on a chunk (stop_reason on a choice alone is sent by hosts built on vLLM too, e.g. Hyperbolic, Nebius, Azure AI Inference: openai-compatible)"},
	{Name: flavorOllama, Provider: "Ollama (OpenAI endpoint)", Recognised: "system_fingerprint fp_ollama"},
	{Name: flavorLMStudio, Provider: "LM Studio", Recognised: "system_fingerprint equal to the model id"},
	{Name: flavorMoonshot, Provider: "Moonshot AI (Kimi)", Recognised: "a system_fingerprint fpv0_…, or usage inside a choice"},
	{Name: flavorTGI, Provider: "Hugging Face Text Generation Inference", Recognised: "object text_completion on a chunk with choices[].delta (TGI 1.4 to 2.0.x), or a system_fingerprint VERSION-native / VERSION-sha-HEX (TGI's router/src/server.rs: version and docker label)",
		Changes: "object text_completion is read as a chunk (the OpenAI SDKs never read object); no done-missing (no [DONE] before TGI 2.2.0, #2221). TGI also sends id \"\" on every chunk, role on every delta, and finish_reason eos_token / stop_sequence (read as a stop)"},
	{Name: flavorCerebras, Provider: "Cerebras", Recognised: "a time_info object on a chunk (Cerebras/cerebras-cloud-sdk-python types/chat/completion_create_response.py ChatChunkResponse.time_info)"},
	{Name: flavorCompatible, Provider: "an unknown OpenAI-compatible provider", Recognised: "a mark other providers copy, alone (content_filter_results on a choice, stop_reason on a choice, usage.prompt_cache_hit_tokens without DeepSeek's fingerprint): flavor-guess (info) names it",
		Changes: "role-missing is a warn (not OpenAI's stream)"},
	{Name: flavorWriter, Provider: "Writer", Recognised: "a bare palmyra- model id (Writer's own model names: palmyra-x5, palmyra-x-004; hosts name them writer/… or writer.…)",
		Changes: "no done-missing: Writer sends no data: [DONE] and its SDK ends at the end of the body (writer/writer-python src/writerai/_streaming.py Stream.__stream__: no sentinel check)"},
}

// recogniseChunk names the flavor the chunk's own members say. It runs
// on every chunk of a stream no mark names (OpenAI's own, most often), so
// they are read in one pass (chunkMarks.read).
func recogniseChunk(k *chunkMarks) string {
	switch {
	case k.xGroq != nil:
		return flavorGroq
	case k.provider.Kind() == decode.KindString:
		return flavorOpenRouter
	case k.promptFilter != nil:
		return flavorAzure
	case k.citations != nil || k.object.StrEq("chat.completion.done"):
		return flavorPerplexity
	case k.object.StrEq("text_completion"):
		return flavorTGI // only a chunk with choices[].delta gets here (Map)
	case k.xVLLM != nil:
		return flavorVLLM
	case k.obfuscation != nil:
		return flavorOpenAI
	case k.timeInfo.Kind() == decode.KindObject:
		return flavorCerebras
	}
	model, fp := k.model, k.fingerprint
	switch {
	case bytes.HasPrefix(model, []byte(`"accounts/fireworks/`)):
		return flavorFireworks
	case fp.StrEq("fp_ollama"):
		return flavorOllama
	case bytes.HasPrefix(fp, []byte(`"fpv0_`)):
		return flavorMoonshot
	case fp.IsNonEmptyStr() && bytes.Equal(fp, model):
		return flavorLMStudio
	case tgiFingerprint(fp):
		return flavorTGI
	}
	if u := k.usage; u.Kind() == decode.KindObject {
		switch {
		case u.Get("prompt_cache_hit_tokens") != nil && deepseekFingerprint(fp):
			return flavorDeepSeek
		case u.Get("num_sources_used") != nil || u.Get("cost_in_usd_ticks") != nil:
			return flavorXAI
		}
	}
	return ""
}

// deepseekFingerprint: DeepSeek's API stamps fp_HEX_prodMMDD…
// ("fp_eaab8d114b_prod0820_fp8_kvcache"): with its usage field, the
// positive mark (a mock or a host copying the usage field has no such
// fingerprint).
func deepseekFingerprint(fp decode.Raw) bool {
	return bytes.HasPrefix(fp, []byte(`"fp_`)) && bytes.Contains(fp, []byte(`_prod`))
}

// guessChunk is the hint a chunk's copied marks give when no mark named
// its provider ("" none): the evidence for a guess, shown by flavor-guess.
func guessChunk(k *chunkMarks) string {
	if u := k.usage; u.Kind() == decode.KindObject && u.Get("prompt_cache_hit_tokens") != nil {
		return "usage.prompt_cache_hit_tokens (DeepSeek's usage field) without DeepSeek's system_fingerprint fp_…_prod…"
	}
	return ""
}

// guessChoice is the hint a first choice's copied marks give.
func guessChoice(filter, stopReason decode.Raw) string {
	switch {
	case filter != nil:
		return "content_filter_results on a choice (Azure OpenAI's, copied by Novita and other hosts) without Azure's prompt_filter_results chunk"
	case stopReason != nil:
		return "stop_reason on a choice (vLLM's server field, sent by Hyperbolic, Nebius, Azure AI Inference and other hosts built on it)"
	}
	return ""
}

// recogniseModel names the flavor a bare model id says, after the
// chunk's and its first choice's marks said none (Azure serves grok
// models too: its content-filter annotations come first).
func recogniseModel(k *chunkMarks) string {
	switch {
	case bytes.HasPrefix(k.model, []byte(`"grok-`)):
		return flavorXAI
	case hex32(k.id) && mistralModel(k.model): // the cheap test first: it runs on every chunk of an unnamed stream
		return flavorMistral
	case bytes.HasPrefix(k.model, []byte(`"palmyra-`)):
		return flavorWriter
	}
	return ""
}

// choiceFlavor names the flavor a choice's marks say, from its members
// (filter: content_filter_results, stopReason, usage) and its delta's
// (tokenID, content). Its copied marks (content_filter_results,
// stop_reason) name none: guessChoice.
func choiceFlavor(usage, tokenID, content decode.Raw) string {
	switch {
	case usage.Kind() == decode.KindObject:
		return flavorMoonshot
	case tokenID != nil:
		return flavorTogether
	case content.Kind() == decode.KindArray:
		return flavorMistral
	}
	return ""
}

// chunkMarks are the chunk's top-level members the mapper reads besides
// its choices: the flavor's marks, and created, usage and x_groq (the
// envelope check and the timing), read in one pass per chunk (Map).
type chunkMarks struct {
	xGroq, provider, promptFilter, citations, object, xVLLM, obfuscation decode.Raw
	model, fingerprint, usage, id, created, timeInfo                     decode.Raw
}

// marksNames are the chunk's members chunkMarks reads; a mark with two
// names is the first of them present (as with Get, one after the other).
var marksNames = decode.Names("x_groq", "provider", "prompt_filter_results", "prompt_annotations", "citations", "search_results",
	"object", "x_vllm", "obfuscation", "model", "system_fingerprint", "usage", "id", "created", "time_info")

// read takes the marks from f's members in one pass (the last of a
// repeated key wins, as Frame.Get; a key written with escapes is read
// decoded).
func (k *chunkMarks) read(f *decode.Frame) {
	var v [15]decode.Raw
	marksNames.PickMembers(f.Members, v[:])
	*k = chunkMarks{xGroq: v[0], provider: v[1], promptFilter: orRaw(v[2], v[3]), citations: orRaw(v[4], v[5]),
		object: v[6], xVLLM: v[7], obfuscation: v[8], model: v[9], fingerprint: v[10], usage: v[11], id: v[12], created: v[13],
		timeInfo: v[14]}
}

func orRaw(a, b decode.Raw) decode.Raw {
	if a != nil {
		return a
	}
	return b
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

// tgiFingerprint: TGI's system_fingerprint, "VERSION-LABEL" with LABEL the
// docker label ("sha-" and hex) or "native" (router/src/server.rs,
// format!("{}-{}", info.version, docker_label.unwrap_or("native"))):
// "2.0.4-sha-f426a33", "1.4.5-native".
func tgiFingerprint(fp decode.Raw) bool {
	s, ok := fp.NonEmptyStr()
	if !ok {
		return false
	}
	ver, label, ok := strings.Cut(s, "-")
	if !ok || strings.Count(ver, ".") != 2 || strings.Trim(ver, "0123456789.") != "" {
		return false
	}
	if label == "native" {
		return true
	}
	hex, ok := strings.CutPrefix(label, "sha-")
	return ok && len(hex) >= 7 && strings.Trim(hex, "0123456789abcdef") == ""
}
