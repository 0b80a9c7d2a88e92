package anthropic

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
	{Summary: "a message: a thinking block with its signature, text, a web_search server tool with its results, a cited answer streamed in deltas, pings, end_turn", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "an event: name that lies, a delta after its block stopped, a skipped block index, text into a tool block, invalid tool JSON, a reused tool id, a ping without event:, a numeric stop_reason, a block left open, two message_stop", Body: demoBroken, Pace: 250 * time.Millisecond},
}
