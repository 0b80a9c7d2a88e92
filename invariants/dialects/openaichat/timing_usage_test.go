package openaichat

import (
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// timedTurn checks an SSE stream with arrival times 100 ms apart and
// returns its first turn's timing.
func timedTurn(t *testing.T, stream string) invariants.TurnTiming {
	t.Helper()
	chk := Dialect.NewChecker(invariants.Options{TTFE: -1})
	var dec decode.Decoder
	i := 0
	decode.NewFramer().Feed([]byte(stream), func(ev *decode.Event) {
		if ev.Dispatched() {
			if as := chk.Observe(dec.Decode(ev, time.Duration(i)*100*time.Millisecond, true)); len(as) > 0 {
				t.Fatalf("frame %d: %v", i, as)
			}
			i++
		}
	})
	chk.End(invariants.End{Kind: invariants.EndEOF})
	if len(chk.Turns()) == 0 {
		t.Fatal("no turn")
	}
	return chk.Turns()[0].Timing
}

func chunks(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("data: " + l + "\n\n")
	}
	return b.String() + "data: [DONE]\n\n"
}

// Groq reports usage in x_groq on its last chunk, with the seconds it
// generated (testdata/real/openai-chat/groq-model-thinking-part-iter.sse);
// Moonshot inside the finishing choice.
func TestUsageFromProviderPlaces(t *testing.T) {
	const head = `"object":"chat.completion.chunk","created":1758000000,"model":"m"`
	groq := chunks(
		`{"id":"chatcmpl-g",`+head+`,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"x_groq":{"id":"req_1"}}`,
		`{"id":"chatcmpl-g",`+head+`,"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`,
		`{"id":"chatcmpl-g",`+head+`,"choices":[{"index":0,"delta":{"content":" there"},"finish_reason":null}]}`,
		`{"id":"chatcmpl-g",`+head+`,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"x_groq":{"id":"req_1","usage":{"queue_time":0.05,"prompt_tokens":21,"prompt_time":0.01,"completion_tokens":988,"completion_time":3.5,"total_tokens":1009,"total_time":3.51}}}`)
	tm := timedTurn(t, groq)
	if !tm.HasUsage || tm.OutputTokens != 988 || !tm.HasGenTime || tm.GenTime != 3500*time.Millisecond {
		t.Errorf("groq: %+v", tm)
	}
	if tm.ServerTokensPerSec < 282 || tm.ServerTokensPerSec > 283 {
		t.Errorf("groq server rate %v, want 988/3.5", tm.ServerTokensPerSec)
	}

	moonshot := chunks(
		`{"id":"chatcmpl-k",`+head+`,"system_fingerprint":"fpv0_abc","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`,
		`{"id":"chatcmpl-k",`+head+`,"system_fingerprint":"fpv0_abc","choices":[{"index":0,"delta":{"content":"!"},"finish_reason":null}]}`,
		`{"id":"chatcmpl-k",`+head+`,"system_fingerprint":"fpv0_abc","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":8,"completion_tokens":42,"total_tokens":50}}]}`)
	if tm := timedTurn(t, moonshot); !tm.HasUsage || tm.OutputTokens != 42 || tm.HasGenTime {
		t.Errorf("moonshot: %+v", tm)
	}

	// A top-level usage wins over x_groq's (both say the same where both
	// are sent).
	both := strings.Replace(groq, `"x_groq":{"id":"req_1","usage"`, `"usage":{"completion_tokens":7},"x_groq":{"id":"req_1","usage"`, 1)
	if tm := timedTurn(t, both); tm.OutputTokens != 7 {
		t.Errorf("usage beside x_groq: %d tokens", tm.OutputTokens)
	}
}
