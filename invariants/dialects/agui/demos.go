package agui

import (
	_ "embed"
	"time"

	"framescope/invariants"
)

var (
	//go:embed demo_happy.sse
	demoHappy string
	//go:embed demo_broken.sse
	demoBroken string
)

var demos = []invariants.Demo{
	{Summary: "a run in steps: a reasoning phase, streamed text, a tool call with streamed arguments and its result, a state snapshot and delta, keepalive comments, RUN_FINISHED", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "a message opened twice, content for an unknown message, a nameless tool call, a call opened twice, args for an unknown call, a malformed STATE_DELTA, a cut frame, a second RUN_STARTED, RUN_FINISHED with another runId and work still open, a second RUN_FINISHED", Body: demoBroken, Pace: 250 * time.Millisecond},
}
