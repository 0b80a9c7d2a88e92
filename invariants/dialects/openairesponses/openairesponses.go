// Package openairesponses is the OpenAI Responses API streaming dialect
// (platform docs "Streaming events"; the openai-python and openai-node
// ResponseStreamEvent unions): SSE `event:` + `data:` whose JSON `type` is
// `response.*` (or `error`) and which carries a `sequence_number`. One
// stream is one response: response.created opens it; response.completed,
// response.failed, response.incomplete or an error event ends it; there is
// no [DONE].
package openairesponses

import (
	"embed"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is openai-responses.
var Dialect = &invariants.Spec{
	ID:    "openai-responses",
	About: "OpenAI Responses API streaming events: type response.* with sequence_number; one stream is one response, response.created → output items → response.completed/failed/incomplete",
	Shape: invariants.Shape{
		Turns:         invariants.TurnPerStream,
		StartRequired: true,
		EventField:    true,
		// The API sends no keepalive and a reasoning item can stay silent for
		// minutes between its added and done events; a 30 s window would
		// flag healthy streams (docs/dialects/openai-responses.md).
		Idle:              2 * time.Minute,
		CommentHeartbeats: true,
		// response.created / response.completed / output_text.done repeat
		// the whole response (instructions, tool schemas, up to 128k output
		// tokens): a healthy frame can pass PC3's 256 KiB target. The
		// bound is the clients': openai-python (src/openai/_streaming.py
		// SSEDecoder) and openai-node (src/core/streaming.ts) read a line
		// of any length, openai-go's decoder does not.
		FrameLimits: []invariants.FrameLimit{{
			Over: invariants.SSEDataIn(32 << 20), Severity: invariants.SevWarn, Client: "openai-go",
			Why: "reads SSE lines of at most 32 MiB (packages/ssestream/ssestream.go: bufio.Scanner, bufio.MaxScanTokenSize<<9) and ends the stream with bufio.ErrTooLong; openai-python and openai-node have no limit",
		}},
	},
	Generic: invariants.Rules("frame-json", "event-unknown", "sse-event-mismatch", "start-missing", "start-duplicate",
		"terminal-missing", "terminal-duplicate", "after-terminal", "span-orphan", "span-unclosed", "span-duplicate",
		"span-mismatch", "tool-malformed", "tool-orphan", "tool-unfinished", "tool-duplicate", "tool-mismatch",
		"seq-gap", "seq-order", "payload-malformed", "envelope-drift", "legacy-shape"),
	Own: []invariants.Rule{
		{Name: "output-index-order", Severity: invariants.SevError, Clause: "openai-python lib/streaming/responses/_responses.py accumulate_event",
			Summary: "response.output_item.added's output_index is not the next one (0, 1, 2, …): the SDKs append items and index them by output_index"},
		{Name: "part-index-order", Severity: invariants.SevError, Clause: "openai-node src/internal/responses/response-accumulator.ts validateArrayAppend; openai-python lib/streaming/responses/_responses.py accumulate_event",
			Summary: "response.content_part.added's content_index (or reasoning_summary_part.added's summary_index) is not its item's next one, or an annotation's annotation_index skips past its part's annotations: the SDKs append them (openai-node throws, openai-python misplaces the text)"},
	},
	Sources: map[string]string{
		"frame-size":         "OpenAI SDK",
		"frame-json":         "OpenAI docs",
		"event-unknown":      "OpenAI SDK",
		"sse-event-mismatch": "OpenAI API ref",
		"start-missing":      "OpenAI SDK",
		"start-duplicate":    "OpenAI SDK",
		"terminal-missing":   "OpenAI SDK",
		"terminal-duplicate": "OpenAI SDK",
		"after-terminal":     "OpenAI SDK",
		"span-orphan":        "OpenAI SDK",
		"span-unclosed":      "OpenAI SDK",
		"span-duplicate":     "OpenAI SDK",
		"span-mismatch":      "OpenAI SDK",
		"tool-malformed":     "OpenAI SDK",
		"tool-orphan":        "OpenAI SDK",
		"tool-unfinished":    "OpenAI SDK",
		"tool-duplicate":     "OpenAI SDK",
		"tool-mismatch":      "OpenAI SDK",
		"seq-gap":            "OpenAI API ref",
		"seq-order":          "OpenAI API ref",
		"payload-malformed":  "OpenAI SDK",
		"envelope-drift":     "OpenAI SDK",
		"legacy-shape":       "OpenAI SDK",
	},
	// sse-event-mismatch: openai-python and openai-node read the event:
	// name only when it is "error" or "thread.*" (src/openai/_streaming.py,
	// src/core/streaming.ts), the AI SDK never: the clients read the JSON
	// type, so a stream whose event: names drift still renders. (An
	// event: error on another frame does break openai-node: see
	// docs/dialects/openai-responses.md.)
	Severities: map[string]invariants.Severity{"envelope-drift": invariants.SevWarn, "sse-event-mismatch": invariants.SevWarn},
	FlavorList: flavors,
	Keys:       []string{"type", "sequence_number"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a sales comparison: a streamed reasoning summary, a web search, a code interpreter call with streamed code and its logs, a cited streamed answer, response.completed",
		BrokenAbout: "a lost event, a function done under another name, a skipped output_index, a delta into a part never added, a repeated and a string sequence_number, a refusal into a text part, open items and search at a completed with another id, a late delta",
	},
}

func label(f *decode.Frame) string { return invariants.TypeLabel(f) }
