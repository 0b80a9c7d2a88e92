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
//
// The members come from the chunk's one pass (chunkMarks, Map): the
// timing walks nothing of its own but Moonshot's choices.
func (p *mapper) readTiming(k *chunkMarks, m *invariants.Mapping, choices decode.Raw) {
	if !m.WantsTiming() {
		return
	}
	created, usage, xGroq, flavor := k.created, k.usage, k.xGroq, p.flavor
	generation := decode.Raw(nil)
	switch {
	case usage.Kind() == decode.KindObject:
	case xGroq.Kind() == decode.KindObject:
		usage = xGroq.Get("usage")
		generation = usage.Get("completion_time")
	case flavor == flavorMoonshot && choices.Kind() == decode.KindArray:
		for it := choices.Elements(); usage.Kind() != decode.KindObject; {
			c, ok := it.Next()
			if !ok {
				break
			}
			usage = c.Get("usage")
		}
	}
	if at, ok := p.createdAt(created); ok && at.Sec > 0 {
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

// createdAt parses a chunk's created, through the last one's: OpenAI
// repeats the completion's second on every chunk, and the others stamp
// many chunks with the same one.
func (p *mapper) createdAt(created decode.Raw) (invariants.Instant, bool) {
	c := &p.created
	if len(created) > 0 && string(created) == string(c.raw[:c.n]) {
		return c.at, c.ok
	}
	at, ok := invariants.StampUnixSeconds(created)
	if len(created) <= len(c.raw) {
		c.n = copy(c.raw[:], created)
		c.at, c.ok = at, ok
	}
	return at, ok
}

// lastCreated is the last created parsed (createdAt).
type lastCreated struct {
	raw [24]byte
	n   int
	at  invariants.Instant
	ok  bool
}
