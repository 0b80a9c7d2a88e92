// Package a2a is the a2a dialect: the Agent2Agent protocol's streaming
// responses (message/stream and tasks/resubscribe in v0.3;
// SendStreamingMessage and SubscribeToTask in v1.0), one SSE data: per
// event.
//
// v0.3 (JSON-RPC binding): each frame is a JSON-RPC 2.0 response whose
// result names itself in kind: "task", "status-update", "artifact-update"
// or "message"; a status-update carries final: true on the last event.
//
// v1.0 (A2A spec §3.2.3 StreamResponse): the result is a wrapper with one
// member, task / statusUpdate / artifactUpdate / message, and states are
// TASK_STATE_* names. The JSON-RPC binding (§9.4.2) wraps it in a JSON-RPC
// response; the HTTP+JSON binding (§11.7, POST /message:stream) sends the
// StreamResponse itself as each data:.
//
// The stream is one turn (the task, or the one message): a Task or a
// Message opens it (§3.1.2), status updates move it (their message's text
// parts are the client text), artifact updates are components (spans by
// artifactId), and a terminal state (completed, failed, canceled,
// rejected), an interrupted state at the end of the stream
// (input-required, auth-required), the message, or a JSON-RPC error ends
// it.
package a2a

import (
	"embed"

	"framescope/invariants"
)

//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Rule names of the dialect's own rules.
const (
	ruleIDMismatch     = "id-mismatch"
	ruleTaskRepeated   = "task-repeated"
	ruleFinalFlag      = "final-flag"
	ruleAfterLastChunk = "artifact-after-last"
	ruleMessageInTask  = "message-in-task"
	ruleVersionMixed   = "version-mixed"
	ruleArtifactFlood  = "artifact-flood"
)

// Dialect is a2a.
var Dialect = &invariants.Spec{
	ID:    "a2a",
	About: "Agent2Agent streaming (message/stream, tasks/resubscribe): v0.3 JSON-RPC results with kind (task, status-update, artifact-update, message) or v1.0 StreamResponse wrappers (task, statusUpdate, artifactUpdate, message), JSON-RPC or HTTP+JSON",
	// start-missing is the mapper's (a warn), not the Engine's (an error).
	Shape: invariants.Shape{Turns: invariants.TurnPerStream,
		// a2a-python (client/transports/http_helpers.py: httpx-sse) reads
		// an event of any size; a2a-js and a2a-go do not.
		FrameLimits: []invariants.FrameLimit{
			{Over: invariants.SSEDataIn(4 << 20), Severity: invariants.SevWarn, Client: "a2a-js",
				Why: "reads SSE lines and events of at most 4 MiB (src/sse_utils.ts parseSseStream, DEFAULT_MAX_SSE_EVENT_SIZE_BYTES, counted in UTF-16 units) and throws: the stream fails; a2a-python has no limit"},
			{Over: invariants.SSEDataIn(10 << 20), Severity: invariants.SevWarn, Client: "a2a-js and a2a-go",
				Why: "fail: a2a-go reads lines of at most 10 MiB (internal/sse/sse.go: MaxSSETokenSize, bufio.Scanner) and ends the stream with bufio.ErrTooLong, a2a-js throws past 4 MiB; a2a-python has no limit"},
		}},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"start-missing", "terminal-missing", "after-terminal",
		"span-orphan", "tool-malformed", "tool-orphan", "tool-duplicate",
		"envelope-drift"),
	Own: []invariants.Rule{
		{Name: ruleIDMismatch, Severity: invariants.SevError, Clause: "A2A §3.4.2",
			Summary: "an event's taskId or contextId differs from the stream's task: the SDK applies it to the task it holds, so the client shows another task's update as this one's"},
		{Name: ruleTaskRepeated, Severity: invariants.SevError, Clause: "A2A SDK",
			Summary: "a second Task event in a v0.3 stream: a2a-python's ClientTaskManager raises 'Task is already set' (v1.0 allows a closing snapshot, §11.7)"},
		{Name: ruleFinalFlag, Severity: invariants.SevWarn, Clause: "A2A v0.3 §7.2.2",
			Summary: "a v0.3 status-update's final disagrees with its state (final on a working task, or a terminal state without final): the stream ends where the flag says"},
		{Name: ruleAfterLastChunk, Severity: invariants.SevWarn, Clause: "A2A §4.2.2",
			Summary: "an artifact chunk with append after the chunk with lastChunk of the same artifactId: the SDK appends it anyway"},
		{Name: ruleMessageInTask, Severity: invariants.SevWarn, Clause: "A2A §3.1.2",
			Summary: "a Message event in a task stream: the SDK stops reading at a Message, so the task's state is left where it was"},
		{Name: ruleVersionMixed, Severity: invariants.SevError, Clause: "A2A §3.6",
			Summary: "a v0.3 event (result.kind) and a v1.0 StreamResponse wrapper in one stream: an SDK parses a stream with one version's model and cannot read the other"},
		{Name: ruleArtifactFlood, Severity: invariants.SevWarn, Clause: "framescope",
			Summary: "the stream opened more artifacts than the checker tracks (said once): chunks of artifacts beyond the bound are not checked"},
	},
	Sources: map[string]string{
		"frame-size":        "A2A SDK",
		"frame-json":        "A2A §9.4.2",
		"event-unknown":     "A2A §3.2.3",
		"payload-malformed": "A2A §4",
		"start-missing":     "A2A §3.1.2",
		"terminal-missing":  "A2A §3.1.2",
		"after-terminal":    "A2A §3.1.2",
		"span-orphan":       "A2A §4.2.2",
		"tool-malformed":    "ADK A2A",
		"tool-orphan":       "ADK A2A",
		"tool-duplicate":    "ADK A2A",
		"envelope-drift":    "JSON-RPC §5",
	},
	// start-missing: the v1.0 client yields an update that comes first,
	// so it is a departure clients tolerate. envelope-drift stays an
	// error: a2a-js's JSON-RPC transports (v1.0 and compat v0.3) throw
	// "JSON-RPC response ID mismatch in SSE event".
	Severities: map[string]invariants.Severity{"start-missing": invariants.SevWarn},
	FlavorList: []invariants.Flavor{
		{Name: flavorV03, Provider: "A2A v0.3", Recognised: "result.kind (task, status-update, artifact-update, message)",
			Changes: "status-update final marks the last event (final-flag); a second Task is task-repeated"},
		{Name: flavorV10, Provider: "A2A v1.0", Recognised: "a StreamResponse member (task, statusUpdate, artifactUpdate, message), JSON-RPC wrapped or bare (HTTP+JSON)",
			Changes: "no final flag: the stream closes at a terminal or interrupted state; a Task snapshot may close the stream (§11.7)"},
	},
	// jsonrpc marks the JSON-RPC binding; statusUpdate and artifactUpdate
	// the HTTP+JSON binding's StreamResponse. task and message are not
	// declared: other wires use those names at the top level.
	Keys:       []string{"jsonrpc", "statusUpdate", "artifactUpdate"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a v0.3 task: submitted, working with status messages, a tool call, an artifact streamed in chunks, completed with final",
		BrokenAbout: "an append chunk for an artifact never started, an update for another task, a second Task, an event after the completed state",
	},
}

// Flavors name the protocol version the stream speaks.
const (
	flavorV03 = "v0.3"
	flavorV10 = "v1.0"
)
