package openairesponses

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
	{Summary: "a sales comparison: a streamed reasoning summary, a web search, a code interpreter call with streamed code and its logs, a cited streamed answer, response.completed", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "a lost event, a function done under another name, a skipped output_index, a delta into a part never added, a repeated and a string sequence_number, a refusal into a text part, open items and search at a completed with another id, a late delta", Body: demoBroken, Pace: 250 * time.Millisecond},
}
