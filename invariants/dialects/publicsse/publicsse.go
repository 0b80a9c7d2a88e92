// Package publicsse is the public-sse-v1 dialect: the browser-facing
// stream of trevor-nichols/openai-agents-saas-starter, whose public
// contract is docs/contracts/public-sse-streaming/v1.md (seed: the
// resume-grade streaming milestone of the spec set). Data-only SSE; every
// event is a JSON object with schema "public_sse_v1", an integer event_id,
// stream_id, server_timestamp and a kind. One stream is one turn; exactly
// one terminal event (kind final or error) ends it.
package publicsse

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

// Dialect is public-sse-v1.
var Dialect = &invariants.Spec{
	ID:    "public-sse-v1",
	About: "public_sse_v1: data-only JSON events with schema, event_id and kind; one stream is one turn ended by final or error",
	Shape: invariants.Shape{
		Turns: invariants.TurnPerStream,
		// The reference routers write ": heartbeat" only inside their loop
		// over upstream events (chat/router.py, workflows/router.py at
		// 50548aa): a heartbeat goes out with an event, never on a timer,
		// so it bounds no silence. The wire is as quiet as the provider
		// (a reasoning item thinking) or a server-side tool: the window is
		// the one of the OpenAI Responses stream it projects.
		Idle:              2 * time.Minute,
		CommentHeartbeats: true,
		// "Max serialized event size: 1 MiB (hard cap)": no warn tier. The
		// bound is the contract's (the client has none), said as a hard
		// limit.
		FrameLimits: []invariants.FrameLimit{{Over: frameMax, Severity: invariants.SevError}},
	},
	Generic: invariants.Rules("frame-json", "event-unknown", "terminal-missing", "terminal-duplicate", "after-terminal",
		"payload-malformed", "seq-order", "seq-gap", "envelope-drift",
		"span-orphan", "span-unclosed", "span-duplicate",
		"tool-malformed", "tool-unfinished", "tool-mismatch"),
	Own: []invariants.Rule{
		{Name: "internal-leak", Severity: invariants.SevError, Clause: "v1.md §3, §7.2 (derived-only); milestone \"Reasoning\"",
			Summary: "raw provider data on the public wire: a raw_event or payload key, or a raw provider kind (response.*, raw_response_event)"},
		{Name: "stream-size", Severity: invariants.SevError, Clause: "milestone \"Limits\": Per-stream (circuit breaker)",
			Summary: "more than 128 MiB of event data in one stream"},
	},
	Sources: map[string]string{
		"frame-size":         "MS Limits",
		"idle-gap":           "v1.md §4.1",
		"frame-json":         "v1.md §4.1",
		"event-unknown":      "v1.md §9",
		"terminal-missing":   "v1.md §7.1",
		"terminal-duplicate": "v1.md §7.1",
		"after-terminal":     "v1.md §7.1",
		"payload-malformed":  "v1.md §6.1",
		"seq-order":          "v1.md §6.3",
		"seq-gap":            "MS Chunking",
		"envelope-drift":     "MS Chunking",
		"span-orphan":        "v1.md §9.3",
		"span-unclosed":      "v1.md §9.3",
		"span-duplicate":     "v1.md §9.3",
		"tool-malformed":     "v1.md §9.9",
		"tool-unfinished":    "v1.md §9.9",
		"tool-mismatch":      "v1.md §9.9",
	},
	Keys:       []string{"schema", "kind"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a train-trip answer: lifecycle, a reasoning summary, a function tool with streamed arguments and output, a web search, a heartbeat, a cited streamed message, final",
		BrokenAbout: "a tool status without its id, a leaked raw provider event, a replayed event_id, a foreign stream_id, a numeric delta, an orphan item end, a chunk gap, open items and tool at final, then an error terminal",
	},
}

const (
	schemaV1  = "public_sse_v1"
	frameMax  = 1 << 20   // per event
	streamMax = 128 << 20 // per stream
)

// sniff: schema "public_sse_v1" is this dialect's alone (no other dialect
// has a schema key); with a kind it is the signature. A frame with the
// schema but no kind is a broken frame of this dialect: Maybe.
func sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	if !f.Get("schema").StrEq(schemaV1) {
		return invariants.No
	}
	if f.Get("kind").Kind() == decode.KindString {
		return invariants.Yes
	}
	return invariants.Maybe
}

func label(f *decode.Frame) string { return invariants.StringMember(f, "kind") }
