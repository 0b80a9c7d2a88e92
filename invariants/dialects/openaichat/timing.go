package openaichat

import (
	"strconv"
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
//     on the last chunk (vLLM). Where the chunk has none, the providers'
//     own places: Groq's x_groq.usage on the last chunk, with
//     completion_time, the seconds it generated them (Groq's API
//     reference, "usage" in the x_groq object: queue_time, prompt_time,
//     completion_time, total_time); Moonshot's usage inside the finishing
//     choice (choices is walked for it only on a moonshot stream).
func readTiming(f *decode.Frame, m *invariants.Mapping, choices decode.Raw, flavor string) {
	if !m.WantsTiming() {
		return
	}
	// One pass over the chunk's members for both (two Gets walked them
	// twice: a cost on every chunk); an escaped key is neither.
	var created, usage, xGroq decode.Raw
	if len(f.Members) == 0 {
		created, usage, xGroq = f.Get("created"), f.Get("usage"), f.Get("x_groq")
	}
	for i := range f.Members {
		mb := &f.Members[i]
		switch {
		case len(mb.Key) == 7 && string(mb.Key) == "created":
			created = mb.Value
		case len(mb.Key) == 5 && string(mb.Key) == "usage":
			usage = mb.Value
		case len(mb.Key) == 6 && string(mb.Key) == "x_groq":
			xGroq = mb.Value
		}
	}
	generation := decode.Raw(nil)
	switch {
	case usage.Kind() == decode.KindObject:
	case xGroq.Kind() == decode.KindObject:
		usage = xGroq.Get("usage")
		generation = usage.Get("completion_time")
	case flavor == flavorMoonshot && choices.Kind() == decode.KindArray:
		for it := choices.TrustedElements(); usage.Kind() != decode.KindObject; {
			c, ok := it.Next()
			if !ok {
				break
			}
			usage = c.Get("usage")
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
	if generation.Kind() == decode.KindNumber {
		if sec, err := strconv.ParseFloat(string(generation), 64); err == nil && sec > 0 && sec < 1e6 {
			m.GenerationTime(time.Duration(sec * float64(time.Second)))
		}
	}
}
