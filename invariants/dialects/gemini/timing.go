package gemini

import (
	"framescope/decode"
	"framescope/invariants"
)

// readUsage hands the timing the turn's output tokens
// (docs/timing.md):
//
//   - streamGenerateContent: usageMetadata.candidatesTokenCount plus
//     thoughtsTokenCount (UsageMetadata: the candidates' tokens leave the
//     thinking out, a thinking model's output is both), cumulative on
//     every chunk that carries it (the latest wins), the usage-only chunk
//     after the finish included.
//   - Interactions: interaction.completed's interaction.usage
//     total_output_tokens plus total_thought_tokens.
//
// Neither shape stamps its frames: Vertex's createTime is the response's
// creation time, the same on every chunk, and an interaction's created /
// updated are whole seconds on its first and last events only.
func readUsage(f *decode.Frame, m *invariants.Mapping, eventType decode.Raw) {
	if !m.WantsTiming() {
		return
	}
	if eventType != nil {
		if !eventType.StrEq("interaction.completed") {
			return
		}
		u := f.Get("interaction").Get("usage")
		usage(m, u, "total_output_tokens", "total_thought_tokens")
		return
	}
	usage(m, f.Get("usageMetadata"), "candidatesTokenCount", "thoughtsTokenCount")
}

// usage reports u[out] + u[thoughts] when either is a count.
func usage(m *invariants.Mapping, u decode.Raw, out, thoughts string) {
	if u.Kind() != decode.KindObject {
		return
	}
	var v [2]decode.Raw
	u.GetAll(v[:], out, thoughts)
	n, ok1 := invariants.Int(v[0])
	t, ok2 := invariants.Int(v[1])
	if ok1 || ok2 {
		m.Usage(n + t)
	}
}
