package invariants

import "framescope/decode"

// SSE is the dialect of a stream that matches no other: generic SSE, where
// only the transport rules apply. Its data need not be JSON (a plain-text
// ticker is a valid sse stream) and it has no turns.
var SSE = &Spec{
	ID:         "sse",
	About:      "generic Server-Sent Events: any stream no other dialect matches; only transport rules apply",
	Shape:      Shape{Turns: NoTurns, NotJSON: true},
	Generic:    append(append([]string(nil), Transport...), "stream-error", "dialect-late"),
	SniffFrame: func(*decode.Frame, Keys) Verdict { return No },
	LabelOf:    func(*decode.Frame) string { return "" },
}
