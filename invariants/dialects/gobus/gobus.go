// Package gobus is the go-bus dialect (seed: the Go streaming-bus package
// of the spec set; reference: viant/agently-core runtime/streaming and the
// SSE handler in sdk/handler_messages.go). Every frame is one bus Event
// marshalled as JSON on a data: line, without an SSE event: or id: field;
// keepalives are ": keepalive" comments every 30 s. One stream follows a
// conversation and carries its turns one after another, keyed by turnId.
package gobus

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

// Dialect is go-bus.
var Dialect = &invariants.Spec{
	ID:    "go-bus",
	About: "Go streaming-bus events (turn_started, text_delta, tool_call_*, …) keyed by turnId, counted by eventSeq; keepalive comments",
	Shape: invariants.Shape{
		Turns:         invariants.TurnKeyed,
		StartRequired: true,
		// The reference handler sends ": keepalive" every 30 s: two missed
		// keepalives is a stall.
		Idle:              60 * time.Second,
		CommentHeartbeats: true,
		// The client subscribes to a conversation's events before the
		// user writes (sdk/http.go StreamEvents): the first event comes
		// whenever a turn starts, so no default ttfe bound.
		Subscription: true,
		// The reference client is the only one: past its line bound it
		// stops reading and the subscription ends with every later event
		// lost.
		FrameLimits: []invariants.FrameLimit{{
			Over: invariants.SSEDataIn(16 << 20), Severity: invariants.SevError, Client: "agently-core's reference client",
			Why: "reads lines of at most 16 MiB (sdk/http.go readLoop: bufio.Scanner) and stops there: the subscription ends and every later event is lost",
		}},
	},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"start-missing", "start-duplicate", "terminal-missing", "terminal-duplicate", "after-terminal",
		"span-orphan", "span-unclosed", "span-duplicate",
		"tool-malformed", "tool-orphan", "tool-unfinished", "tool-duplicate", "tool-mismatch",
		"seq-gap", "seq-order"),
	Own: []invariants.Rule{
		{Name: "stream-overflow", Severity: invariants.SevWarn, Clause: "EventTypeStreamOverflow; ReasonOverflow",
			Summary: "the bus cut the subscription (stream_overflow): events were lost; the client must reconnect and resume after its eventSeq"},
		{Name: "field-deprecated", Severity: invariants.SevWarn, Clause: "Event.FinalResponse",
			Summary: "finalResponse: true on a live stream event (deprecated: it MUST NOT be set on live emissions)"},
	},
	Sources: map[string]string{
		"frame-size":         "agently-core",
		"idle-gap":           "agently-core",
		"frame-json":         "bus Event",
		"event-unknown":      "bus EventType",
		"payload-malformed":  "bus Event",
		"start-missing":      "bus EventType",
		"start-duplicate":    "bus EventType",
		"terminal-missing":   "bus EventType",
		"terminal-duplicate": "bus EventType",
		"after-terminal":     "bus EventType",
		"span-orphan":        "bus EventType",
		"span-unclosed":      "bus EventType",
		"span-duplicate":     "bus EventType",
		"tool-malformed":     "bus EventType",
		"tool-orphan":        "bus EventType",
		"tool-unfinished":    "bus EventType",
		"tool-duplicate":     "bus EventType",
		"tool-mismatch":      "bus EventType",
		"seq-gap":            "bus WithFilter",
		"seq-order":          "bus EventSeq",
	},
	// start-duplicate: the runtime re-enters an open turn (lifecycle.go).
	Severities: map[string]invariants.Severity{"seq-gap": invariants.SevWarn, "start-duplicate": invariants.SevInfo},
	Keys:       []string{"type", "eventSeq", "turnId", "streamId"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  func() invariants.Mapper { return &mapper{} },
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a CI triage turn: three model calls with reasoning and streamed text, two GitHub tool calls with narration, a skill, a keepalive, usage, turn_completed",
		BrokenAbout: "an eventSeq gap and a rewind, a tool ending under another name, an orphan tool result, a string eventSeq, finalResponse, an open model call and tool at turn_completed, a second terminal",
	},
}

func label(f *decode.Frame) string { return invariants.TypeLabel(f) }
