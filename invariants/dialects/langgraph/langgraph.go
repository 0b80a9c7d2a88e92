// Package langgraph is the langgraph dialect: a LangGraph server run
// streamed over SSE (POST /threads/{id}/runs/stream, /runs/stream, and
// GET …/runs/{id}/stream to join one).
//
// The wire's identity is the SSE event: name, not the JSON: each data: is
// the stream mode's own payload (a state dict, a [message, metadata] pair,
// a list of messages, null). A run opens with `metadata` ({"run_id",
// "attempt"}), then sends one event per chunk of each requested stream
// mode (values, updates, messages — the messages-tuple mode —,
// messages/partial|complete|metadata — the legacy messages mode —, events,
// debug, custom, tasks, checkpoints), with a "|ns1|ns2" suffix for a
// subgraph's chunks. `error` ends a failed run; the server closes the
// stream at the end of a run (some versions send `end` first), which the
// SDKs read as a finished run. Event ids (id:) let a client resume with
// Last-Event-ID.
package langgraph

import (
	"embed"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is langgraph.
var Dialect = &invariants.Spec{
	ID:    "langgraph",
	About: "LangGraph server runs over SSE: event: metadata (run_id), then stream modes by event name (values, updates, messages tuples, messages/partial, debug…, \"|ns\" for subgraphs); error or the close ends the run",
	// JSONValues: messages tuples and message lists are arrays, end's data
	// is null (langgraph-sdk SSEDecoder: orjson.loads of any JSON value).
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, StartRequired: true, JSONValues: true,
		// langgraph-sdk (libs/sdk-py/langgraph_sdk/sse.py BytesLineDecoder,
		// SSEDecoder) and @langchain/langgraph-sdk (libs/sdk/src/utils/sse.ts)
		// read a line of any length: no tier.
		FrameUnbounded: true},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"start-missing", "start-duplicate", "terminal-missing", "terminal-duplicate", "after-terminal",
		"tool-malformed"),
	Own: []invariants.Rule{
		{Name: "run-id-changed", Severity: invariants.SevError, Clause: "LangGraph SDK",
			Summary: "a second metadata event names another run_id: useStream keeps the run_id it joins, cancels and resumes by, so it acts on the wrong run"},
		{Name: "message-id-missing", Severity: invariants.SevError, Clause: "LangGraph SDK",
			Summary: "a streamed message chunk (messages, messages/partial) without an id: useStream cannot merge it and drops it (\"No message ID found for chunk, ignoring in state\")"},
		{Name: "error-shape", Severity: invariants.SevWarn, Clause: "LangGraph SDK",
			Summary: "an error event whose data is not {error, message}: the SDK's StreamError reads data.message, so the client shows no reason"},
		{Name: "event-id-order", Severity: invariants.SevWarn, Clause: "LangGraph API",
			Summary: "an event id: repeats the previous one or goes backwards: a client resuming with Last-Event-ID replays or skips events"},
		{Name: "ids-bounded", Severity: invariants.SevInfo, Clause: "framescope",
			Summary: "the run named more message and tool call ids than framescope tracks (4096): later ids are not deduplicated, and their tool calls not followed"},
	},
	Sources: map[string]string{
		"frame-size":         "LangGraph SDK",
		"frame-json":         "LangGraph SDK",
		"event-unknown":      "LangGraph API",
		"payload-malformed":  "LangGraph SDK",
		"start-missing":      "LangGraph API",
		"start-duplicate":    "LangGraph API",
		"terminal-missing":   "LangGraph SDK",
		"terminal-duplicate": "LangGraph SDK",
		"after-terminal":     "LangGraph SDK",
		"tool-malformed":     "LangGraph SDK",
	},
	// A second metadata with the same run_id only repeats what the client
	// knows: onMetadataEvent runs again, nothing breaks.
	Severities: map[string]invariants.Severity{"start-duplicate": invariants.SevWarn},
	// No envelope key: a state dict's members are the graph's own, so
	// LangGraph claims no JSON key (and takes none from other dialects).
	Keys:       nil,
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a LangGraph agent run in messages-tuple mode: metadata, streamed text, a tool call and its result, values, end",
		BrokenAbout: "a message chunk without an id, a metadata naming another run, an error without a message, an event after the error",
	},
}

// event is an SSE event name's stream mode (the part before "|").
type event uint8

const (
	evUnknown event = iota
	evMetadata
	evValues
	evUpdates
	evMessages // the messages-tuple mode: [chunk, metadata]
	evPartial  // messages/partial: the accumulated messages
	evComplete // messages/complete: the finished messages
	evMsgMeta  // messages/metadata: {message id: {metadata}}
	evEnd
	evError
	evQuiet // events, debug, custom, tasks, checkpoints, feedback, tools: known, nothing to map
)

// split cuts an event name into its mode and its namespace ("" when the
// chunk is the root graph's): "messages|agent:1" → evMessages, "agent:1".
func split(name string) (event, string) {
	mode, ns, _ := strings.Cut(name, "|")
	switch mode {
	case "messages":
		return evMessages, ns
	case "values":
		return evValues, ns
	case "updates":
		return evUpdates, ns
	case "messages/partial":
		return evPartial, ns
	case "metadata":
		return evMetadata, ns
	case "messages/complete":
		return evComplete, ns
	case "messages/metadata":
		return evMsgMeta, ns
	case "end":
		return evEnd, ns
	case "error":
		return evError, ns
	case "events", "debug", "custom", "tasks", "checkpoints", "feedback", "tools", "lifecycle":
		return evQuiet, ns
	}
	if strings.HasPrefix(mode, "custom:") {
		// A named custom channel (langgraphjs libs/langgraph-api
		// src/stream.mts: mode.startsWith("custom:")), as custom.
		return evQuiet, ns
	}
	return evUnknown, ns
}

// sniff: the event name decides. A metadata event carrying a run_id (and
// the attempt, or nothing else) and the legacy messages/* events are
// LangGraph's alone, as is any stream mode with a "|ns" suffix; a bare
// stream mode name (values, updates…) could be another server's word and
// only keeps the dialect in the running. error and end say nothing.
func sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	if !f.HasType {
		return invariants.No
	}
	ev, ns := split(f.Event.Type)
	switch ev {
	case evMetadata:
		if ns == "" && f.Get("run_id").Kind() == decode.KindString &&
			(f.Get("attempt").Kind() == decode.KindNumber || len(f.Members) == 1) {
			return invariants.Yes
		}
	case evPartial, evComplete, evMsgMeta:
		return invariants.Yes
	case evValues, evUpdates, evMessages, evQuiet:
		if ns != "" {
			return invariants.Yes
		}
		return invariants.Maybe
	}
	return invariants.No
}

// label is the SSE event name ("message", the SSE default, when none).
func label(f *decode.Frame) string {
	if f.HasType {
		return f.Event.Type
	}
	return "message"
}
