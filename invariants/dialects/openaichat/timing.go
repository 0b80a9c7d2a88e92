package openaichat

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// readTiming hands the timing what a chunk says of time
// (docs/timing.md):
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
	// One pass over the chunk's members for both (two Gets walked them
	// twice: a cost on every chunk); an escaped key is neither.
	var created, usage decode.Raw
	if len(f.Members) == 0 {
		created, usage = f.Get("created"), f.Get("usage")
	}
	for i := range f.Members {
		mb := &f.Members[i]
		switch {
		case len(mb.Key) == 7 && string(mb.Key) == "created":
			created = mb.Value
		case len(mb.Key) == 5 && string(mb.Key) == "usage":
			usage = mb.Value
		}
	}
	if at, ok := invariants.StampUnixSeconds(created); ok && at.Sec > 0 {
		m.Stamp(at, time.Second)
	}
	if usage.Kind() == decode.KindObject {
		if n, ok := invariants.Int(usage.Get("completion_tokens")); ok {
			m.Usage(n)
		}
	}
}
