package openairesponses

import (
	"framescope/decode"
	"framescope/invariants"
)

// readUsage hands the timing the response's output tokens
// (docs/timing.md): response.usage.output_tokens
// (reference ResponseUsage: reasoning tokens included, as
// output_tokens_details.reasoning_tokens), set on response.completed,
// response.incomplete and response.failed and null before. The events carry
// no timestamp of their own (the response's created_at is its creation
// second, the same on every lifecycle event): no server stamps.
func readUsage(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	u := f.Get("response").Get("usage")
	if u.Kind() != decode.KindObject {
		return
	}
	if n, ok := invariants.Int(u.Get("output_tokens")); ok {
		m.Usage(n)
	}
}
