// Package mcp is the mcp dialect: the Model Context Protocol over HTTP.
//
// Streamable HTTP (revisions 2025-03-26, 2025-06-18, 2025-11-25 and
// 2026-07-28, "Transports" §Streamable HTTP): the client POSTs one
// JSON-RPC message (or, in 2025-03-26, a batch) and the server answers a
// request with an SSE stream whose every data: is a JSON-RPC 2.0 message:
// notifications (progress, log messages), server→client requests
// (sampling, elicitation, roots; none in 2026-07-28) and finally one
// response per request id, after which the stream ends. A GET opens a
// listening stream of server messages (gone in 2026-07-28).
//
// The legacy HTTP+SSE transport (2024-11-05, "Transports" §HTTP with SSE):
// a long-lived GET stream whose first event is `endpoint` (data: the URI
// to POST to, not JSON), then `message` events carrying JSON-RPC.
//
// The dialect is request-aware: with the HTTP exchange known (a framescope
// capture, HAR or live source), it reads the POST body's requests and
// checks the stream answers exactly them; on a raw body it infers only
// what the stream itself says (docs/dialects/mcp.md).
package mcp

import (
	"bytes"
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Revisions of the protocol the dialect knows, oldest first (the flavor
// a stream is read as; "2024-11-05" is the legacy HTTP+SSE transport).
const (
	rev20241105 = "2024-11-05"
	rev20250326 = "2025-03-26"
	rev20250618 = "2025-06-18"
	rev20251125 = "2025-11-25"
	rev20260728 = "2026-07-28"
)

// Dialect is mcp.
var Dialect = &invariants.Spec{
	ID:    "mcp",
	About: "Model Context Protocol over HTTP: Streamable HTTP response streams (JSON-RPC 2.0 notifications, server requests, responses per request id) and the legacy HTTP+SSE transport (endpoint event first)",
	// One stream is one turn: the answer to the POST's request(s). Its
	// first frame may be any message (a progress notification), so no
	// start event is required. Frames need not be JSON: the legacy
	// endpoint event carries a URI (MapText reads it and raises
	// frame-json itself for any other text).
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, NotJSON: true,
		// Transports §Sending Messages: a POST answered by a stream is
		// text/event-stream; an application/json answer is a single
		// JSON-RPC body that is not SSE-framed (docs/dialects/mcp.md).
		ContentTypes: []string{"text/event-stream"},
		// Transports §Listening for Messages from the Server: a GET opens
		// a stream the server may leave silent until it has something to
		// send: no default ttfe bound there.
		SubscriptionGET: true,
		// The TypeScript SDK (packages/client/src/client/streamableHttp.ts:
		// eventsource-parser, no maxBufferSize), python-sdk 1.x (httpx-sse)
		// and the Go SDK (mcp/event.go scanEvents: bufio.Reader.ReadBytes)
		// read an event of any size; python-sdk 2.0 reads it through
		// httpx2's EventSource, which caps one (the event: message line
		// the SDK servers write counts in it, with the data: line).
		FrameLimits: []invariants.FrameLimit{{
			Over: 1<<20 - int64(len("event: message")+len("data: ")), Severity: invariants.SevWarn, Client: "python-sdk 2.0",
			Why: "reads events of at most 1 MiB, every field line counted (src/mcp/client/streamable_http.py: httpx2 EventSource, DEFAULT_MAX_EVENT_SIZE_BYTES = 1024 * 1024) and raises SSEError: the call fails; the TypeScript and Go SDKs and python-sdk 1.x have no limit",
		}}},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"terminal-missing", "after-terminal", "legacy-shape"),
	Own: []invariants.Rule{
		{Name: "response-unrequested", Severity: invariants.SevError, Clause: "JSON-RPC 2.0 §5",
			Summary: "a response whose id the POST body did not send (request known): the SDK finds no handler for it and reports an error"},
		{Name: "response-duplicate", Severity: invariants.SevError, Clause: "JSON-RPC 2.0 §5",
			Summary: "a second response for one request id: the SDK dropped the id's handler with the first and reports the second as unknown"},
		{Name: "event-name", Severity: invariants.SevError, Clause: "MCP SDK",
			Summary: "a JSON-RPC message in an SSE event named other than message: the official SDKs read only message events and lose it"},
		{Name: "progress-order", Severity: invariants.SevWarn, Clause: "MCP progress",
			Summary: "a notifications/progress value does not increase for its progressToken"},
		{Name: "progress-token-unknown", Severity: invariants.SevWarn, Clause: "MCP progress",
			Summary: "a progress notification names a progressToken no request in the POST body set (request known): the SDK drops it"},
		{Name: "server-request-removed", Severity: invariants.SevError, Clause: "MCP 2026-07-28",
			Summary: "a server→client request (sampling, elicitation, roots, ping) on a 2026-07-28 stream: the revision has none (input_required results replace them), its clients cannot answer"},
		{Name: "result-type", Severity: invariants.SevError, Clause: "MCP 2026-07-28",
			Summary: "a 2026-07-28 result without resultType complete or input_required: the client cannot tell a final result from a request for input"},
		{Name: "protocol-version-mismatch", Severity: invariants.SevWarn, Clause: "MCP transports",
			Summary: "the MCP-Protocol-Version header and the request's _meta io.modelcontextprotocol/protocolVersion disagree (2026-07-28: the server must reject it with 400, yet it streamed)"},
		{Name: "session-id-mismatch", Severity: invariants.SevWarn, Clause: "MCP transports",
			Summary: "a response names another Mcp-Session-Id than the one its request sent (the id is assigned once, at initialization): the SDKs ignore it outside the handshake"},
		{Name: "event-id-duplicate", Severity: invariants.SevWarn, Clause: "MCP transports",
			Summary: "an SSE event id repeats within the stream: resuming from it (Last-Event-ID) replays the wrong events"},
		{Name: "resume-replay", Severity: invariants.SevWarn, Clause: "MCP transports",
			Summary: "a resumed stream (Last-Event-ID) sends again the event the client named as the last it received"},
		{Name: "endpoint-order", Severity: invariants.SevError, Clause: "MCP 2024-11-05",
			Summary: "on the legacy HTTP+SSE transport, an endpoint event that is not the stream's first, or a second one: the SDK posts to the wrong URI or never starts"},
		{Name: "endpoint-origin", Severity: invariants.SevError, Clause: "MCP SDK",
			Summary: "on the legacy HTTP+SSE transport, an endpoint URI that resolves to another origin than the stream's URL (exchange known): both SDKs refuse it and the client never starts"},
		{Name: "ids-bounded", Severity: invariants.SevInfo, Clause: "framescope",
			Summary: "the stream named more distinct response ids or progress tokens than framescope tracks: later ones are not checked"},
	},
	Sources: map[string]string{
		"frame-size":        "MCP SDK",
		"frame-json":        "JSON-RPC 2.0 §4",
		"event-unknown":     "MCP SDK",
		"payload-malformed": "JSON-RPC 2.0 §4",
		"terminal-missing":  "MCP transports",
		"after-terminal":    "MCP transports",
		"legacy-shape":      "MCP 2024-11-05",
	},
	FlavorList: []invariants.Flavor{
		{Name: rev20241105, Provider: "MCP HTTP+SSE (legacy)", Recognised: "an endpoint event first"},
		{Name: rev20250326, Provider: "MCP Streamable HTTP 2025-03-26", Recognised: "the MCP-Protocol-Version header or the initialize protocolVersion", Changes: "batches allowed"},
		{Name: rev20250618, Provider: "MCP Streamable HTTP 2025-06-18", Recognised: "the MCP-Protocol-Version header or the initialize protocolVersion"},
		{Name: rev20251125, Provider: "MCP Streamable HTTP 2025-11-25", Recognised: "the MCP-Protocol-Version header or the initialize protocolVersion"},
		{Name: rev20260728, Provider: "MCP Streamable HTTP 2026-07-28", Recognised: "the header, _meta io.modelcontextprotocol/protocolVersion or a result's resultType",
			Changes: "no server→client requests on a stream (server-request-removed); every result carries resultType (result-type)"},
	},
	// jsonrpc is shared with other JSON-RPC dialects (A2A): it is declared
	// by each, so it is foreign to none, and sniff tells them apart.
	Keys:       []string{"jsonrpc"},
	SniffFrame: sniff,
	SniffPlain: sniffPlain,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a tools/call answered on a Streamable HTTP stream: progress notifications, a log message, the tool's text result",
		BrokenAbout: "progress that goes backwards, a message in an event not named message, a repeated event id, a second response for the request",
	},
}

// methods are the MCP methods a server sends on a stream (schema
// ServerRequest and ServerNotification, every revision): true for a
// request (it carries an id).
var methods = map[string]bool{
	"ping":                                 true,
	"sampling/createMessage":               true,
	"elicitation/create":                   true,
	"roots/list":                           true,
	"tasks/get":                            true,
	"tasks/result":                         true,
	"tasks/list":                           true,
	"tasks/cancel":                         true,
	"notifications/progress":               false,
	"notifications/message":                false,
	"notifications/cancelled":              false,
	"notifications/resources/updated":      false,
	"notifications/resources/list_changed": false,
	"notifications/tools/list_changed":     false,
	"notifications/prompts/list_changed":   false,
	"notifications/elicitation/complete":   false,
	"notifications/tasks/status":           false,
}

// methodInfos are the methods with their names as strings the mapper
// keeps without copying the frame's bytes.
var methodInfos = func() map[string]methodInfo {
	out := make(map[string]methodInfo, len(methods))
	for k, isReq := range methods {
		out[k] = methodInfo{name: k, isReq: isReq}
	}
	return out
}()

type methodInfo struct {
	name  string
	isReq bool
}

// sniff: a JSON-RPC 2.0 message is mcp's when it carries an MCP method or
// a result only MCP returns (content, tools, protocolVersion, resultType…);
// a bare response or error only keeps mcp in the running. A result that
// carries A2A's kinds (task, status-update…) or its v1.0 members is A2A's.
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	if foreign.In(f) {
		return invariants.No
	}
	return sniffMsg(f)
}

func sniffMsg(f msg) invariants.Verdict {
	if !f.Get("jsonrpc").StrEq("2.0") {
		return invariants.No
	}
	if m := f.Get("method"); m != nil {
		s, ok := m.Str()
		if !ok {
			return invariants.No
		}
		if _, known := methods[s]; known {
			return invariants.Yes
		}
		return invariants.Maybe
	}
	if e := f.Get("error"); e != nil {
		if f.Get("result") == nil && e.Kind() == decode.KindObject {
			return invariants.Maybe
		}
		return invariants.No
	}
	r := f.Get("result")
	if r.Kind() != decode.KindObject || f.Get("id") == nil {
		return invariants.No
	}
	if mcpTask(r) {
		return invariants.Yes
	}
	if a2aResult(r) {
		return invariants.No
	}
	for _, k := range mcpResultKeys {
		if r.Get(k) != nil {
			return invariants.Yes
		}
	}
	return invariants.Maybe
}

// mcpResultKeys are members only MCP results carry (schema
// CallToolResult, InitializeResult, ListToolsResult…, 2026 Result).
var mcpResultKeys = []string{"content", "structuredContent", "isError", "protocolVersion", "serverInfo",
	"tools", "resources", "resourceTemplates", "prompts", "contents", "messages", "resultType", "completion"}

// a2aResult: A2A's streaming results (a2a spec §7.2 SendStreamingMessage:
// result.kind task|status-update|artifact-update|message; v1.0 a
// StreamResponse with one of task, statusUpdate, artifactUpdate, message).
// mcpTask: a 2025-11-25 CreateTaskResult ({"task":{"taskId",…}}) or a
// tasks/get result (the Task itself: taskId and a string status). An A2A
// task has id and contextId and a status object, never taskId.
func mcpTask(r decode.Raw) bool {
	if r.Get("task").Get("taskId").Kind() == decode.KindString {
		return true
	}
	return r.Get("taskId").Kind() == decode.KindString && r.Get("status").Kind() == decode.KindString && r.Get("kind") == nil
}

func a2aResult(r decode.Raw) bool {
	if k, ok := r.Get("kind").Str(); ok {
		switch k {
		case "task", "status-update", "artifact-update", "message":
			return true
		}
	}
	for _, k := range []string{"task", "statusUpdate", "artifactUpdate", "message"} {
		if r.Get(k).Kind() == decode.KindObject {
			return true
		}
	}
	return false
}

// sniffPlain: the legacy transport's first event is `endpoint` with a URI
// (2024-11-05 Transports §HTTP with SSE).
// A priming event (2025-11-25 §Resumability: an id and empty data) may
// open a Streamable HTTP stream: it lets the next frame decide.
func sniffPlain(f *decode.Frame) invariants.Verdict {
	switch {
	case f.HasType && f.Event.Type == "endpoint" && len(f.Data) > 0 && f.Data[0] != '{':
		return invariants.Yes
	case f.HasID && len(bytes.TrimSpace(f.Data)) == 0:
		return invariants.Maybe
	}
	// A JSON-RPC batch (2025-03-26): an array of MCP messages.
	batch := parseBatch(bytes.TrimSpace(f.Data))
	if batch == nil {
		return invariants.No
	}
	v := invariants.No
	elIt := batch.Elements()
	for el, ok := elIt.Next(); ok; el, ok = elIt.Next() {
		v = sniffMsg(el)
		break
	}
	if v == invariants.Maybe {
		v = invariants.No // a bare array of responses may be anyone's
	}
	return v
}

// parseBatch is data when it is a JSON array (a JSON-RPC batch), nil
// otherwise. The frame's data is not a decoded object here, so the array
// is validated as foreign bytes are.
func parseBatch(data []byte) decode.Raw {
	if len(data) == 0 || data[0] != '[' {
		return nil
	}
	batch, err := decode.Parse(data)
	if err != nil {
		return nil
	}
	return batch
}

// label: a request's or notification's method, else "response" or
// "error"; the endpoint event is "endpoint".
func label(f *decode.Frame) string {
	if s, ok := f.Get("method").Str(); ok {
		return s
	}
	switch {
	case f.Get("error") != nil:
		return "error"
	case f.Get("result") != nil:
		return "response"
	case f.HasType:
		return f.Event.Type
	}
	return ""
}
