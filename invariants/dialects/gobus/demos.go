package gobus

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
	{Summary: "a CI triage turn: three model calls with reasoning and streamed text, two GitHub tool calls with narration, a skill, a keepalive, usage, turn_completed", Body: demoHappy, Pace: 200 * time.Millisecond},
	{Name: "broken", Summary: "an eventSeq gap and a rewind, a tool ending under another name, an orphan tool result, a string eventSeq, finalResponse, an open model call and tool at turn_completed, a second terminal", Body: demoBroken, Pace: 250 * time.Millisecond},
}
