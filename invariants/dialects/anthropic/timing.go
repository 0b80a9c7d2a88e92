package anthropic

import (
	"framescope/decode"
	"framescope/invariants"
)

// readUsage hands the timing the message's output tokens
// (docs/timing.md): message_delta's
// usage.output_tokens, cumulative ("The token counts shown in the usage
// field of the message_delta event are cumulative", streaming reference),
// thinking tokens included. message_start's usage (output_tokens 1 or so,
// before anything was generated) is not read. The events carry no
// timestamp: no server stamps.
func readUsage(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	u := f.Get("usage")
	if u.Kind() != decode.KindObject {
		return
	}
	if n, ok := invariants.Int(u.Get("output_tokens")); ok {
		m.Usage(n)
	}
}
