package openaichat

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
	{Summary: "an OpenRouter completion: keepalive comments, streamed reasoning and text, two parallel tool calls with streamed arguments, finish_reason tool_calls, usage, [DONE]", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "a drifting id, tool calls without an id, renamed and reused, a numeric content, content and a second finish_reason after the first, a cut frame, [DONE] with a choice unfinished, a chunk after [DONE]", Body: demoBroken, Pace: 250 * time.Millisecond},
}
