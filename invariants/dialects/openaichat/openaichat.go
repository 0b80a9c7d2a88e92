// Package openaichat is the openai-chat dialect: OpenAI Chat Completions
// streaming (and the many servers that copy it: Azure OpenAI, OpenRouter,
// vLLM, DeepSeek…). Data-only SSE whose frames are chat.completion.chunk
// objects, ending with data: [DONE]. One stream is one completion, with no
// start event; each choices[i] ends with exactly one finish_reason, and the
// completion ends when every choice has one. Because a usage-only chunk
// (choices: []) may follow the last finish_reason, the turn's terminal is
// settled at [DONE] (or at the end of the stream), not on a chunk.
package openaichat

import (
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// frameLimits: openai-python (src/openai/_streaming.py SSEDecoder, "without
// imposing a line or event size limit") and openai-node (src/core/streaming.ts,
// src/internal/decoders/line.ts) read a line of any length; openai-go's
// decoder does not.
var frameLimits = []invariants.FrameLimit{{
	Over: invariants.SSEDataIn(32 << 20), Severity: invariants.SevWarn, Client: "openai-go",
	Why: "reads SSE lines of at most 32 MiB (packages/ssestream/ssestream.go: bufio.Scanner, bufio.MaxScanTokenSize<<9) and ends the stream with bufio.ErrTooLong; openai-python and openai-node have no limit",
}}

// Dialect is openai-chat.
var Dialect = &invariants.Spec{
	ID:    "openai-chat",
	About: "OpenAI Chat Completions streaming: chat.completion.chunk frames, one finish_reason per choice, then data: [DONE]",
	// CommentHeartbeats: OpenRouter keeps a slow stream alive with SSE
	// comments (": OPENROUTER PROCESSING"); they count as activity.
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, Done: true, CommentHeartbeats: true,
		FrameLimits: frameLimits},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed", "envelope-drift",
		"terminal-missing", "terminal-duplicate", "after-terminal", "done-early", "done-missing",
		"tool-malformed", "tool-mismatch", "tool-duplicate", "tool-unfinished"),
	Own: []invariants.Rule{
		{Name: "flavor-guess", Severity: invariants.SevInfo, Clause: "framescope (docs/dialects/openai-chat.md Flavors)",
			Summary: "a mark other providers copy (content_filter_results or stop_reason on a choice, DeepSeek's usage field without its fingerprint) names no provider: the stream is openai-compatible and the mark is shown here"},
		{Name: "role-missing", Severity: invariants.SevError, Clause: "openai-node ChatCompletionStream (\"missing role for choice N\"); reference ChoiceDelta.role",
			Summary: "a choice ended and none of its deltas carried a role: openai-node's ChatCompletionStream throws when it builds the completion (error read as OpenAI's: openai, azure or no flavor; warn under another provider's flavor, whose own SDK reads it)"},
	},
	Sources: map[string]string{
		"frame-size":         "OpenAI SDK",
		"frame-json":         "OpenAI SDK",
		"event-unknown":      "OpenAI API ref",
		"payload-malformed":  "OpenAI SDK",
		"envelope-drift":     "OpenAI SDK",
		"terminal-missing":   "OpenAI API ref",
		"terminal-duplicate": "OpenAI SDK",
		"after-terminal":     "OpenAI SDK",
		"done-early":         "OpenAI SDK",
		"done-missing":       "OpenAI SDK",
		"tool-malformed":     "OpenAI SDK",
	},
	// envelope-drift is info: the clients keep the first chunk's id and
	// model (a switch is a second completion in the stream); a second,
	// different finish_reason is warn: the clients overwrite it.
	Severities: map[string]invariants.Severity{
		"envelope-drift":     invariants.SevInfo,
		"terminal-duplicate": invariants.SevWarn,
	},
	FlavorList: flavors,
	Keys:       []string{"object"},
	SniffFrame: sniff,
	LabelOf:    label,
	RowLabelOf: carries,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "an OpenRouter completion: keepalive comments, streamed reasoning and text, two parallel tool calls with streamed arguments, finish_reason tool_calls, usage, [DONE]",
		BrokenAbout: "an id that switches away and back, tool calls without an id, renamed and reused, a numeric content, content and another finish_reason after the first, a cut frame, [DONE] with a choice unfinished, a chunk after [DONE]",
	},
}

// The finish reasons a choice can end with, and what each means for the
// completion (see outcomeOf).
const (
	finishNone uint8 = iota
	finishStop
	finishLength
	finishToolCalls
	finishContentFilter
	finishFunctionCall
	finishError // OpenRouter's normalised reason for a mid-stream failure
	finishOther // a provider's own reason (e.g. "eos"): read as a stop
)

// Terminal names, precomputed so that settling the turn allocates nothing.
var (
	litStop          = invariants.Lit("stop")
	litLength        = invariants.Lit("length")
	litToolCalls     = invariants.Lit("tool_calls")
	litContentFilter = invariants.Lit("content_filter")
	litFunctionCall  = invariants.Lit("function_call")
	litFinishError   = invariants.Lit("error")
	litFinishOther   = invariants.Lit("finish_reason")
	litError         = invariants.Lit("error")
	litRefusal       = invariants.Lit("refusal")
	litDone          = invariants.Lit("[DONE]")
)

var finishNames = [...]string{"", "stop", "length", "tool_calls", "content_filter", "function_call", "error", "another finish_reason"}

// outcomeOf is what one choice's finish_reason says about the completion:
// stop, tool_calls and function_call are completions (the client answers
// a tool call in its next request); length cut the answer short
// (incomplete); content_filter withheld it (refused); error failed.
func outcomeOf(reason uint8) (outcome string, rank int, name decode.Raw) {
	switch reason {
	case finishLength:
		return invariants.TurnIncomplete, 1, litLength
	case finishContentFilter:
		return invariants.TurnRefused, 2, litContentFilter
	case finishError:
		return invariants.TurnFailed, 3, litFinishError
	case finishToolCalls:
		return invariants.TurnCompleted, 0, litToolCalls
	case finishFunctionCall:
		return invariants.TurnCompleted, 0, litFunctionCall
	case finishOther:
		return invariants.TurnCompleted, 0, litFinishOther
	}
	return invariants.TurnCompleted, 0, litStop
}

// toolsReady: a choice that ends with one of these reasons handed its tool
// calls over complete. stop counts too: with a forced tool_choice OpenAI
// ends a tool call with stop, not tool_calls.
func toolsReady(reason uint8) bool {
	return reason == finishStop || reason == finishToolCalls || reason == finishFunctionCall || reason == finishOther
}
