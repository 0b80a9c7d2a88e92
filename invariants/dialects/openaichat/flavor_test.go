package openaichat

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// flavorOf runs chunks (one JSON object a line) through a checker and
// returns the flavor it names.
func flavorOf(t *testing.T, opts invariants.Options, chunks ...string) string {
	t.Helper()
	chk := Dialect.NewChecker(opts)
	for i, c := range chunks {
		chk.Observe(decode.DecodeFrame(&decode.Event{Data: []byte(c), Raw: []byte(c)}, i))
	}
	return invariants.FlavorOf(chk)
}

// TestFlavors: one real-shaped chunk per provider names its flavor; a
// chunk with no provider's mark names none.
func TestFlavors(t *testing.T) {
	for _, tc := range []struct{ want, chunk string }{
		{"", `{"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1735000000,"model":"gpt-4o-mini","system_fingerprint":"fp_t1","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}`},
		{"openai", `{"id":"chatcmpl-C1rXq2JkLmNoPqRsTuVwXyZ01234","object":"chat.completion.chunk","created":1754000000,"model":"gpt-4.1-mini-2025-04-14","service_tier":"default","system_fingerprint":"fp_6f2eabb9a5","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"obfuscation":"Vh3k"}`},
		{"azure", `{"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}`},
		{"openai-compatible", `{"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}},"delta":{"content":"Hi"},"finish_reason":null,"index":0,"logprobs":null}],"created":1735000000,"id":"chatcmpl-AZ1","model":"gpt-4o-2024-08-06","object":"chat.completion.chunk","system_fingerprint":"fp_b705f0c291"}`},
		{"groq", `{"id":"chatcmpl-7eb08824-fb8d-47af-a1f0-3aa786f2d1f3","object":"chat.completion.chunk","created":1770770839,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_f8b414701e","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"x_groq":{"id":"req_01kh52ndshfr2azv0xe6tnv4fx","seed":1535227698}}`},
		{"xai", `{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774058,"model":"grok-3-mini","choices":[{"index":0,"delta":{"reasoning_content":"First","role":"assistant"}}],"system_fingerprint":"fp_2a885414fb"}`},
		{"mistral", `{"id":"a4e29c5b82f94d67b23e108a7c9df6e1","object":"chat.completion.chunk","created":1769088912,"model":"magistral-medium-2507","choices":[{"index":0,"delta":{"content":[{"type":"text","text":"2 + 2 = 4"}]},"finish_reason":null}]}`},
		{"mistral", `{"id":"f798ebd5c41a45d88bb079635121cade","object":"chat.completion.chunk","created":1732548656,"model":"mistral-large-latest","choices":[{"index":0,"delta":{"content":"C"},"finish_reason":null}]}`},
		{"openrouter", `{"id":"gen-1735689600-Qz8XkP3mT6vYbN2wLr4s","provider":"OpenAI","model":"openai/gpt-4o-mini","object":"chat.completion.chunk","created":1735689600,"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`},
		{"perplexity", `{"id":"a3d55d44-63f9-4704-bb26-e17be1ddab3a","model":"sonar","created":1770768233,"usage":{"prompt_tokens":11,"completion_tokens":1,"total_tokens":12},"citations":["https://example.com/"],"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"**"}}]}`},
		{"deepseek", `{"id":"0b8c3f2e-6d4a-4b1c-9e7f-2a5d8c1b3e4f","object":"chat.completion.chunk","created":1735000000,"model":"deepseek-chat","system_fingerprint":"fp_8802369eaa_prod0623_fp8_kvcache","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"prompt_tokens_details":{"cached_tokens":0},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":10}}`},
		{"together", `{"id":"8f2a1b3c4d5e6f70-SJC","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.3-70B-Instruct-Turbo","choices":[{"index":0,"text":"Hi","logprobs":null,"finish_reason":null,"seed":null,"delta":{"token_id":13347,"role":"assistant","content":"Hi","tool_calls":null}}],"usage":null}`},
		{"fireworks", `{"id":"5c1e2d3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f","object":"chat.completion.chunk","created":1735000000,"model":"accounts/fireworks/models/llama-v3p1-8b-instruct","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"usage":null}`},
		{"openai-compatible", `{"id":"chatcmpl-3b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e","object":"chat.completion.chunk","created":1735000000,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null,"stop_reason":null}]}`},
		{"ollama", `{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1735000000,"model":"llama3.2","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`},
		{"lmstudio", `{"id":"chatcmpl-q4r7n2x9k1m5p8s3t6v0","object":"chat.completion.chunk","created":1735000000,"model":"qwen2.5-7b-instruct","system_fingerprint":"qwen2.5-7b-instruct","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"logprobs":null,"finish_reason":null}]}`},
		{"moonshot", `{"id":"chatcmpl-6a8de8b0aa0c275363b2fc8a","object":"chat.completion.chunk","created":1787685040,"model":"kimi-k2.5","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"system_fingerprint":"fpv0_1c3effa9"}`},
		{"vllm", `{"id":"chatcmpl-3b9c","object":"chat.completion.chunk","created":1735000000,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"x_vllm":{}}`},
		{"openai-compatible", `{"id":"chatcmpl-m1","object":"chat.completion.chunk","created":1735000000,"model":"deepseek-chat","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":10}}`},
		{"cerebras", `{"id":"chatcmpl-1a2b","object":"chat.completion.chunk","created":1735000000,"model":"llama3.1-8b","system_fingerprint":"fp_70185065a4","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"time_info":{"queue_time":0.0001,"prompt_time":0.002,"completion_time":0.01,"total_time":0.02,"created":1735000000}}`},
		{"tgi", `{"id":"","object":"text_completion","created":1718000000,"model":"tgi","system_fingerprint":"2.0.4-sha-f426a33","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"logprobs":null,"finish_reason":null}]}`},
		{"tgi", `{"id":"","object":"chat.completion.chunk","created":1718000000,"model":"tgi","system_fingerprint":"2.1.1-native","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"logprobs":null,"finish_reason":null}]}`},
		{"", `{"id":"chatcmpl-T2","object":"chat.completion.chunk","created":1735000000,"model":"m","system_fingerprint":"2.1-native","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}`},
		{"writer", `{"id":"3f6c2a1e-8b4d-4c7a-9e21-5d0b7a9c4e13","object":"chat.completion.chunk","created":1764201600,"model":"palmyra-x5","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`},
		{"", `{"id":"gen-1","object":"chat.completion.chunk","created":1764201600,"model":"writer/palmyra-x5","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`},
	} {
		if got := flavorOf(t, invariants.Options{}, tc.chunk); got != tc.want {
			t.Errorf("%s: flavor %q from %.90s", tc.want, got, tc.chunk)
		}
	}
	names := map[string]bool{}
	for _, f := range Dialect.Flavors() {
		names[f.Name] = true
		if f.Provider == "" || f.Recognised == "" {
			t.Errorf("flavor %s: provider or recognition undocumented", f.Name)
		}
	}
	for _, want := range []string{"openai", "azure", "groq", "xai", "mistral", "openrouter", "perplexity", "deepseek", "together", "fireworks", "vllm", "ollama", "lmstudio", "moonshot", "writer", "tgi", "cerebras", "openai-compatible"} {
		if !names[want] {
			t.Errorf("flavor %s is not listed", want)
		}
	}
}

// TestForcedFlavor: a forced flavor wins over the marks, and its rules
// apply: groq's switches of id raise nothing, even without x_groq.
func TestForcedFlavor(t *testing.T) {
	groqChunk := `{"id":"a","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"x_groq":{"id":"req_1"}}`
	if got := flavorOf(t, invariants.Options{Flavor: "openrouter"}, groqChunk); got != "openrouter" {
		t.Errorf("forced openrouter: flavor %q", got)
	}
	body := roleChunk + strings.ReplaceAll(textChunk+stopChunk, "chatcmpl-T1", "chatcmpl-T2") + done
	if got := dialecttest.Lines(dialecttest.RunOpts(Dialect, body, invariants.Options{Flavor: "groq"}).Alarms); len(got) != 0 {
		t.Errorf("forced groq: id switch raises %v", got)
	}
	if got := dialecttest.Lines(dialecttest.Run(Dialect, body).Alarms); strings.Join(got, "|") != "envelope-drift info 1" {
		t.Errorf("no flavor: id switch raises %v", got)
	}
}

// TestContentParts: Mistral's parts map to reasoning and text; a part that
// is no object is payload-malformed.
func TestContentParts(t *testing.T) {
	body := chunk(`{"index":0,"delta":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Hmm."}]}]},"finish_reason":null}`) +
		chunk(`{"index":0,"delta":{"content":[{"type":"text","text":"4"}]},"finish_reason":null}`) +
		chunk(`{"index":0,"delta":{"content":""},"finish_reason":"stop"}`) + done
	res := dialecttest.Run(Dialect, body)
	if len(res.Alarms) != 0 {
		t.Fatalf("alarms %v", dialecttest.Lines(res.Alarms))
	}
	checkMoves(t, res, []string{
		`turn-key key="chatcmpl-T1"; reasoning key=0 text="Hmm."`,
		`text key=0 text="4"`,
		``,
		`terminal name="stop" outcome=completed`,
	})
	bad := roleChunk + chunk(`{"index":0,"delta":{"content":[7]},"finish_reason":null}`) + stopChunk + done
	if got := dialecttest.Lines(dialecttest.Run(Dialect, bad).Alarms); strings.Join(got, "|") != "payload-malformed error 1" {
		t.Errorf("content part not an object: %v", got)
	}
	after := roleChunk + stopChunk + chunk(`{"index":0,"delta":{"content":[{"type":"text","text":"late"}]},"finish_reason":null}`) + done
	if got := dialecttest.Lines(dialecttest.Run(Dialect, after).Alarms); strings.Join(got, "|") != "after-terminal error 2" {
		t.Errorf("parts after finish_reason: %v", got)
	}
}
