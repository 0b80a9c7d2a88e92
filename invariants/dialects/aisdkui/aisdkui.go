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
	"embed"

	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is ai-sdk-ui.
var Dialect = &invariants.Spec{
	ID:    "ai-sdk-ui",
	About: "Vercel AI SDK UI message stream v1: data-only JSON chunks typed start, text-delta, tool-input-start, finish, …; one stream is one message, then [DONE]",
	// No StartRequired: `start` is optional (a stream merged into
	// createUIMessageStream may open with data parts, or omit it).
	// ReuseToolIDs stays false: tool call ids are unique in a message (the
	// SDK's workflow normalizer relies on it).
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, Done: true,
		// The client reads the stream with parseJsonEventStream
		// (packages/provider-utils/src/parse-json-event-stream.ts): an
		// EventSourceParserStream without maxBufferSize, which bounds
		// nothing. No tier.
		FrameUnbounded: true},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"start-duplicate", "terminal-missing", "terminal-duplicate", "after-terminal", "done-early", "done-missing",
		"span-orphan", "span-unclosed", "span-duplicate",
		"tool-malformed", "tool-orphan", "tool-unfinished", "tool-duplicate", "tool-mismatch",
		"legacy-shape"),
	Sources: map[string]string{
		"frame-size":        "AI SDK client",
		"frame-json":        "AI SDK docs",
		"event-unknown":     "AI SDK client",
		"payload-malformed": "AI SDK schema",
		"start-duplicate":   "AI SDK docs",
		"terminal-missing":  "AI SDK client",
		"done-early":        "AI SDK docs",
		"done-missing":      "AI SDK docs",
		"span-orphan":       "AI SDK client",
		"span-duplicate":    "AI SDK client",
		"tool-malformed":    "AI SDK client",
		"tool-orphan":       "AI SDK client",
		"tool-duplicate":    "AI SDK client",
		"tool-mismatch":     "AI SDK client",
		"legacy-shape":      "AI SDK schema",
	},
	// event-unknown is an error here: the client's chunk schema rejects a
	// type outside its union and useChat stops (the SDK's authors keep
	// unknown types rejected, vercel/ai #17520).
	// terminal-duplicate is a warn: the client only records the later
	// finishReason (after-terminal and start-duplicate are warn or error,
	// listed at the stronger: docs/dialects/ai-sdk-ui.md).
	Severities: map[string]invariants.Severity{"event-unknown": invariants.SevError, "terminal-duplicate": invariants.SevWarn},
	Keys:       []string{"type", "errorText"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  func() invariants.Mapper { return newMapper() },
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a useChat message in two steps: reasoning, a tool call with streamed input and its output, data-status parts, a source, streamed text, finish, [DONE]",
		BrokenAbout: "a delta for an unknown part, a part opened twice, a tool renamed, an output for an unknown call, a call opened twice, a nameless tool, a numeric delta, a second start, finish with parts open, chunks after finish, no [DONE]",
	},
}
