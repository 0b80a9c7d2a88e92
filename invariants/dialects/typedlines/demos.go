package typedlines

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
	{Summary: "a repository search: logs, a keepalive ping, streamed text, structured data, done", Body: demoHappy, Pace: 250 * time.Millisecond},
	{Name: "broken", Summary: "an SSE event: line, events out of order, malformed payloads, an unknown code, a second terminal", Body: demoBroken, Pace: 300 * time.Millisecond},
}
