package openairesponses

import (
	"framescope/decode"
	"framescope/invariants"
)

// Provider flavors: servers other than OpenAI's that serve the Responses
// API, recognised where their stream marks itself. LM Studio's streams
// (vercel/ai packages/open-responses/src/responses/__fixtures__/lmstudio-*)
// carry nothing of their own (resp_ ids, OpenAI's fields): they get no
// flavor. Each flavor changes no rule: the recorded streams of each check
// clean as the OpenAI wire.
var flavors = []invariants.Flavor{
	{Name: "openrouter", Provider: "OpenRouter",
		Recognised: `response.created's response.id is an OpenRouter generation id ("gen-…"); or usage.is_byok on the terminal's response`,
		Changes:    "none: OpenRouter also ends the stream with data: [DONE] (event-unknown, info, as for any Responses stream; openai-python's Stream stops at it)"},
	{Name: "vllm", Provider: "vLLM",
		Recognised: `the stream sends response.reasoning_part.added / .done (vLLM's own events for a reasoning_text content part)`,
		Changes:    "those two events open and close the reasoning_text part as content_part.added / .done would (its reasoning_text deltas are no orphans); each stays event-unknown (info): openai-python passes it through, the AI SDK skips it, openai-node throws on any event it does not know"},
	{Name: "xai", Provider: "xAI",
		Recognised: `response.created's response.model is a Grok model ("grok-…") and its response.id a UUID (xAI's ids; OpenAI's are resp_…)`,
		Changes:    ""},
}

// flavor names the server from response.created (its id and model).
func (p *mapper) flavor(m *invariants.Mapping, resp, id decode.Raw) {
	switch {
	case hasPrefix(id, "gen-"):
		m.SetFlavor("openrouter")
	case hasPrefix(resp.Get("model"), "grok-") && isUUID(id):
		m.SetFlavor("xai")
	}
}

// flavorAtEnd: OpenRouter's usage carries is_byok (and cost), which no
// other server sends; a stream resumed past response.created learns its
// flavor there.
func (p *mapper) flavorAtEnd(m *invariants.Mapping, resp decode.Raw) {
	if m.Flavor() == "" && resp.Get("usage").Get("is_byok") != nil {
		m.SetFlavor("openrouter")
	}
}

// hasPrefix: the JSON string starts with prefix (no escapes in it).
func hasPrefix(r decode.Raw, prefix string) bool {
	return r.Kind() == decode.KindString && len(r) > len(prefix)+1 && string(r[1:1+len(prefix)]) == prefix
}

// isUUID: the JSON string is a UUID, 8-4-4-4-12 hex digits.
func isUUID(r decode.Raw) bool {
	if r.Kind() != decode.KindString || len(r) != 38 {
		return false
	}
	for i, c := range r[1:37] {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
