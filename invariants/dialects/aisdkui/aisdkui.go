// Package aisdkui is the Vercel AI SDK UI message stream protocol v1
// (vercel/ai content/docs/04-ai-sdk-ui/50-stream-protocol.mdx; the chunk
// schema packages/ai/src/ui-message-stream/ui-message-chunks.ts; the client
// that reads it, packages/ai/src/ui/process-ui-message-stream.ts).
//
// Data-only SSE: each frame is one JSON chunk named by `type`. One stream is
// one assistant message, so one turn: `start` (optional: merged streams omit
// it) → parts → `finish` or `abort` → `data: [DONE]`. See
// docs/dialects/ai-sdk-ui.md for every reading.
package aisdkui

import (
	"framescope/invariants"
)

// Dialect is ai-sdk-ui.
var Dialect = &invariants.Spec{
	ID:    "ai-sdk-ui",
	About: "Vercel AI SDK UI message stream v1: data-only JSON chunks typed start, text-delta, tool-input-start, finish, …; one stream is one message, then [DONE]",
	// No StartRequired: `start` is optional (a stream merged into
	// createUIMessageStream may open with data parts, or omit it).
	// ReuseToolIDs stays false: tool call ids are unique in a message (the
	// SDK's workflow normalizer relies on it).
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, Done: true},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"start-duplicate", "terminal-missing", "terminal-duplicate", "after-terminal", "done-early", "done-missing",
		"span-orphan", "span-unclosed", "span-duplicate",
		"tool-malformed", "tool-orphan", "tool-unfinished", "tool-duplicate", "tool-mismatch"),
	SniffFrame:  sniff,
	LabelOf:     label,
	NewMapper:   func() invariants.Mapper { return newMapper() },
	DemoStreams: demos,
}
