package openaichat

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// readTiming hands the timing what a chunk says of time
// (docs/dialects/openai-chat.md "Timing"):
//
//   - created, Unix seconds (reference ChatCompletionChunk.created: "The
//     Unix timestamp (in seconds) of when the chat completion was
//     created"). OpenAI sends the completion's one creation second on
//     every chunk, which spreads nothing; Groq, xAI and Perplexity stamp
//     each chunk's own second. Whole seconds count less their resolution
//     (two stamps a second apart may be a millisecond apart), so a spread
//     of 2 s or more is the first evidence: coarse, and still worth it
//     when the chunks arrived within milliseconds.
//   - usage.completion_tokens (reference CompletionUsage: reasoning tokens
//     included), on the usage chunk with stream_options.include_usage, or
//     on the last chunk (vLLM, Groq's x_groq.usage is not read).
func readTiming(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	if at, ok := invariants.StampUnixSeconds(f.Get("created")); ok && at.Sec > 0 {
		m.Stamp(at, time.Second)
	}
	if u := f.Get("usage"); u.Kind() == decode.KindObject {
		if n, ok := invariants.Int(u.Get("completion_tokens")); ok {
			m.Usage(n)
		}
	}
}
