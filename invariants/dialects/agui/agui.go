// Package agui is the ag-ui dialect: AG-UI protocol events (docs.ag-ui.com,
// ag-ui-protocol/ag-ui). Data-only SSE whose JSON `type` is one of the
// SCREAMING_CASE events of @ag-ui/core's EventType. A stream carries one or
// more runs, each opened by RUN_STARTED and ended by RUN_FINISHED or
// RUN_ERROR; everything the TypeScript client's verifier (verifyEvents)
// rejects is an error here, and every violation is reported, not only the
// first. docs/dialects/ag-ui.md cites the source of each reading.
package agui

import (
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is ag-ui.
var Dialect = &invariants.Spec{
	ID:    "ag-ui",
	About: "AG-UI protocol events (RUN_STARTED, TEXT_MESSAGE_CONTENT, TOOL_CALL_START, …); runs keyed by runId, ended by RUN_FINISHED or RUN_ERROR",
	Shape: invariants.Shape{
		Turns: invariants.TurnKeyed,
		// RUN_STARTED must come first, and a second one inside an open run
		// is rejected by verifyEvents whatever its runId.
		StartRequired: true,
		OneOpenTurn:   true,
		// verifyEvents deletes a tool call at TOOL_CALL_END, so its id may
		// start again later in the run.
		ReuseToolIDs: true,
		// Python servers (sse-starlette) keep the connection alive with
		// comment pings; the client's parser skips them.
		CommentHeartbeats: true,
		// parseSSEStream JSON.parses every event's data (client
		// transform/sse.ts): a [DONE] errors the run.
		DoneBreaks: true,
		// parseSSEStream appends to a string buffer with no bound: no
		// client of the wire limits a frame, so no tier.
		FrameUnbounded: true,
	},
	Generic: invariants.Rules("frame-json", "event-unknown", "start-missing", "start-duplicate",
		"terminal-missing", "terminal-duplicate", "after-terminal",
		"span-orphan", "span-unclosed", "span-duplicate",
		"tool-malformed", "tool-orphan", "tool-unfinished", "tool-duplicate",
		"payload-malformed", "legacy-shape"),
	Own: []invariants.Rule{
		{Name: "run-id-mismatch", Severity: invariants.SevWarn, Clause: "docs concepts/events.mdx, RunStarted: runId \"identifies\" the run; events.ts RunFinishedEventSchema",
			Summary: "RUN_FINISHED or RUN_ERROR names another runId or threadId than the RUN_STARTED of the run it ends"},
		{Name: "sse-separator", Severity: invariants.SevError, Clause: "client/src/transform/sse.ts: parseSSEStream splits events on \"\\n\\n\" only",
			Summary: "an event's blank line is CRLF or CR, not LF LF, and another event follows: @ag-ui/client reads both as one event and JSON.parse fails (once per stream)"},
	},
	Sources: map[string]string{
		"frame-size":         "AG-UI client",
		"frame-json":         "AG-UI client",
		"event-unknown":      "AG-UI schema",
		"start-missing":      "AG-UI verify",
		"start-duplicate":    "AG-UI verify",
		"terminal-missing":   "AG-UI docs",
		"terminal-duplicate": "AG-UI verify",
		"after-terminal":     "AG-UI verify",
		"span-orphan":        "AG-UI verify",
		"span-unclosed":      "AG-UI verify",
		"span-duplicate":     "AG-UI verify",
		"tool-malformed":     "AG-UI schema",
		"tool-orphan":        "AG-UI verify",
		"tool-unfinished":    "AG-UI verify",
		"tool-duplicate":     "AG-UI verify",
		"payload-malformed":  "AG-UI schema",
		"legacy-shape":       "AG-UI client",
	},
	Keys:       []string{"type"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  func() invariants.Mapper { return &mapper{} },
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a run in steps: a reasoning phase, streamed text, a tool call with streamed arguments and its result, a state snapshot and delta, keepalive comments, RUN_FINISHED",
		BrokenAbout: "a message opened twice, content for an unknown message, a nameless tool call, a call opened twice, args for an unknown call, a malformed STATE_DELTA, a cut frame, a second RUN_STARTED, RUN_FINISHED with another runId and work still open, a second RUN_FINISHED",
	},
}

func label(f *decode.Frame) string { return invariants.TypeLabel(f) }

// sniff: an AG-UI type name is a signature of its own (no other dialect
// spells its types in SCREAMING_CASE), unless the frame carries another
// dialect's envelope. An unknown SCREAMING_CASE type could be a newer AG-UI
// event (the drafts' META), so it keeps ag-ui in the running.
func sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	typ := f.Get("type")
	if typ.Kind() != decode.KindString || f.Get("event_type") != nil || f.Get("schema") != nil ||
		f.Get("object") != nil || f.Get("sequence_number") != nil || f.Get("eventSeq") != nil {
		return invariants.No
	}
	if kindOf(typ) != evNone {
		return invariants.Yes
	}
	if screaming(typ) {
		return invariants.Maybe
	}
	return invariants.No
}

// screaming reports whether a JSON string is an upper-case identifier
// (A-Z, 0-9, _) of at least three characters with one letter.
func screaming(typ decode.Raw) bool {
	if len(typ) < 5 {
		return false
	}
	letter := false
	for _, c := range typ[1 : len(typ)-1] {
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letter
}
