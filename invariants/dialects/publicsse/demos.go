package publicsse

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
	{Summary: "a train-trip answer: lifecycle, a reasoning summary, a function tool with streamed arguments and output, a web search, a heartbeat, a cited streamed message, final", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "a tool status without its id, a leaked raw provider event, a replayed event_id, a foreign stream_id, a numeric delta, an orphan item end, a chunk gap, open items and tool at final, then an error terminal", Body: demoBroken, Pace: 250 * time.Millisecond},
}
