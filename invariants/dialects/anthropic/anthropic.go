// Package anthropic is the anthropic-messages dialect: the Anthropic
// Messages API stream ("Streaming Messages"). Each SSE event carries an
// event: name and the same type in its JSON data. One stream is one message
// and one turn: message_start, then content blocks (content_block_start →
// content_block_delta… → content_block_stop, keyed by index), then
// message_delta (the stop_reason) and message_stop, the terminal. An error
// event is a failed terminal; ping is a keepalive.
package anthropic

import (
	"bytes"
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is anthropic-messages.
var Dialect = &invariants.Spec{
	ID:    "anthropic-messages",
	About: "Anthropic Messages API streaming: message_start, content blocks by index, message_delta, message_stop; error is a failed terminal",
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, StartRequired: true, EventField: true,
		// anthropic-sdk-python (src/anthropic/_streaming.py SSEDecoder)
		// and anthropic-sdk-typescript (src/core/streaming.ts,
		// src/internal/decoders/line.ts) read a line of any length;
		// anthropic-sdk-go's decoder does not.
		FrameLimits: []invariants.FrameLimit{{
			Over: invariants.SSEDataIn(32 << 20), Severity: invariants.SevWarn, Client: "anthropic-sdk-go",
			Why: "reads SSE lines of at most 32 MiB (packages/ssestream/ssestream.go: bufio.Scanner, bufio.MaxScanTokenSize<<9) and ends the stream with bufio.ErrTooLong; the Python and TypeScript SDKs have no limit",
		}}},
	Generic: invariants.Rules("frame-json", "event-unknown", "sse-event-mismatch", "payload-malformed",
		"start-missing", "start-duplicate", "terminal-missing", "terminal-duplicate", "after-terminal",
		"span-orphan", "span-unclosed", "span-duplicate", "span-mismatch", "seq-gap", "seq-order",
		"tool-malformed", "tool-duplicate", "tool-unfinished"),
	Own: []invariants.Rule{
		{Name: "stop-reason-missing", Severity: invariants.SevWarn, Clause: "Streaming Messages, \"Event types\" step 3; Message.stop_reason",
			Summary: "message_stop without an earlier message_delta carrying a stop_reason (it is non-null in every event after message_start)"},
		{Name: "sse-event-missing", Severity: invariants.SevWarn, Clause: "Streaming Messages, \"Event types\"; SDK _streaming.py / core/streaming.ts",
			Summary: "frames without an SSE event: name (the official SDKs route events by it and drop the others); once per stream"},
	},
	Sources: map[string]string{
		"frame-size":         "Anthropic SDK",
		"frame-json":         "Anthropic docs",
		"event-unknown":      "Anthropic docs",
		"sse-event-mismatch": "Anthropic docs",
		"payload-malformed":  "Anthropic SDK",
		"start-missing":      "Anthropic docs",
		"start-duplicate":    "Anthropic SDK",
		"terminal-missing":   "Anthropic docs",
		"terminal-duplicate": "Anthropic docs",
		"after-terminal":     "Anthropic docs",
		"span-orphan":        "Anthropic docs",
		"span-unclosed":      "Anthropic docs",
		"span-duplicate":     "Anthropic docs",
		"span-mismatch":      "Anthropic docs",
		"seq-gap":            "Anthropic docs",
		"seq-order":          "Anthropic docs",
		"tool-malformed":     "Anthropic docs",
	},
	Keys:       []string{"type"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a message: a thinking block with its signature, text, a web_search server tool with its results, a cited answer streamed in deltas, pings, end_turn",
		BrokenAbout: "an event: name that lies, a delta after its block stopped, a skipped block index, text into a tool block, invalid tool JSON, a reused tool id, a ping without event:, a numeric stop_reason, a block left open, two message_stop",
	},
}

// event is a frame's place in the vocabulary.
type event uint8

const (
	evUnknown event = iota
	evMessageStart
	evMessageDelta
	evMessageStop
	evBlockStart
	evBlockDelta
	evBlockStop
	evPing
	evError
)

var eventNames = [...]string{"", "message_start", "message_delta", "message_stop",
	"content_block_start", "content_block_delta", "content_block_stop", "ping", "error"}

func (e event) String() string { return eventNames[e] }

// eventOf reads a JSON type without allocating: a switch on the literal's
// bytes, the list only for a name written with escapes.
func eventOf(typ decode.Raw) event {
	b := invariants.StrBytes(typ)
	switch string(b) {
	case "content_block_delta":
		return evBlockDelta
	case "ping":
		return evPing
	case "content_block_start":
		return evBlockStart
	case "content_block_stop":
		return evBlockStop
	case "message_start":
		return evMessageStart
	case "message_delta":
		return evMessageDelta
	case "message_stop":
		return evMessageStop
	case "error":
		return evError
	}
	if bytes.IndexByte(b, '\\') >= 0 {
		for i := 1; i < len(eventNames); i++ {
			if typ.StrEq(eventNames[i]) {
				return event(i)
			}
		}
	}
	return evUnknown
}

// eventNamed reads an SSE event: name.
func eventNamed(name string) event {
	for i := 1; i < len(eventNames); i++ {
		if name == eventNames[i] {
			return event(i)
		}
	}
	return evUnknown
}

// stop reasons (Message.stop_reason) and the outcome each gives the turn.
// pause_turn ends this response normally (the client sends it back to let
// the model go on), like tool_use; max_tokens and
// model_context_window_exceeded cut the answer short; refusal is a refusal.
// compaction (the compaction beta's pause_after_compaction,
// types/beta/beta_stop_reason.py) pauses like pause_turn: completed.
type stopReason struct {
	name    string
	outcome string
	code    decode.Raw // the terminal's Code when the turn did not complete
}

var stopReasons = []stopReason{
	{"end_turn", invariants.TurnCompleted, nil},
	{"stop_sequence", invariants.TurnCompleted, nil},
	{"tool_use", invariants.TurnCompleted, nil},
	{"pause_turn", invariants.TurnCompleted, nil},
	{"compaction", invariants.TurnCompleted, nil},
	{"max_tokens", invariants.TurnIncomplete, invariants.Lit("max_tokens")},
	{"model_context_window_exceeded", invariants.TurnIncomplete, invariants.Lit("model_context_window_exceeded")},
	{"refusal", invariants.TurnRefused, invariants.Lit("refusal")},
}

// Constants the mapper puts in moves (precomputed: mapping allocates nothing).
var (
	litMessageStop = invariants.Lit("message_stop")
	litError       = invariants.Lit("error")
	litIndexScope  = invariants.Lit("content_block index")
	litIndexName   = invariants.Lit("content block index")
)

func label(f *decode.Frame) string { return invariants.TypeLabel(f) }
