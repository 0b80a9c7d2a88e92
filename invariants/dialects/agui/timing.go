package agui

import (
	"framescope/decode"
	"framescope/invariants"
)

// readStamp hands the timing an event's timestamp
// (docs/timing.md; events.ts BaseEventSchema: timestamp,
// an optional number, Unix milliseconds as the TypeScript servers set it
// with Date.now()). Most servers leave it out.
func readStamp(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	m.StampUnixMillis(f.Get("timestamp"))
}

// readUsage hands the timing the run's output tokens: RUN_FINISHED and
// RUN_ERROR carry usage, an array of TokenUsage entries, one per
// (provider, model) the run called (events.ts TokenUsageSchema, since
// 2026-07). Their outputTokens are summed; reasoningTokens are a part of
// them (core/src/token-usage.ts maps LangChain's output_tokens and the AI
// SDK's outputTokens, both inclusive), so they are not added. A run
// without usage reports none.
func readUsage(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	u := f.Get("usage")
	if u.Kind() != decode.KindArray {
		return
	}
	var sum int64
	seen := false
	eIt := u.Elements()
	for e, more := eIt.Next(); more; e, more = eIt.Next() {
		if n, ok := invariants.Int(e.Get("outputTokens")); ok && n >= 0 {
			sum += n
			seen = true
		}
	}
	if seen {
		m.Usage(sum)
	}
}
