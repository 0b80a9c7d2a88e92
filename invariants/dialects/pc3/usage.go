package pc3

import (
	"framescope/decode"
	"framescope/invariants"
)

// readUsage hands turn t's timing the output tokens of a usage frame
// (§5.5: "usage | Token usage at stream end | input_tokens, output_tokens,
// total_tokens, reasoning_tokens, cached_tokens"; docs/timing.md). A count
// that is not an integer is usage-malformed's, not read.
func readUsage(f *decode.Frame, t *turnState) {
	if Type(f) != TypeUsage {
		return
	}
	if n, ok := invariants.Int(UsageOf(f).Output); ok {
		t.timing.Usage(n)
	}
}
