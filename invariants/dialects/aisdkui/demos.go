package aisdkui

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
	{Summary: "a useChat message in two steps: reasoning, a tool call with streamed input and its output, data-status parts, a source, streamed text, finish, [DONE]", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "a delta for an unknown part, a part opened twice, a tool renamed, an output for an unknown call, a call opened twice, a nameless tool, a numeric delta, a second start, finish with parts open, chunks after finish, no [DONE]", Body: demoBroken, Pace: 250 * time.Millisecond},
}
