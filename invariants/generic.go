package invariants

import "slices"

// Generic is the catalog of the rules every dialect shares, implemented
// once by the Engine. The clause column names where a rule comes from when
// no dialect says more ("framescope": the common turn model of
// docs/dialects.md); a dialect names its own source for a shared rule in
// Spec.Sources, and docs/sources.md quotes every one.
var Generic = []Rule{
	{Name: "frame-json", Severity: SevError, Clause: "RFC 8259", Summary: "a frame's data is not a JSON object (nor [DONE] where the dialect has it)"},
	{Name: "frame-utf8", Severity: SevError, Clause: "RFC 3629", Summary: "a frame's bytes are not valid UTF-8"},
	{Name: "frame-size", Severity: SevError, Clause: "framescope", Summary: "a frame's data exceeds the dialect's size tiers (256 KiB warn, 1 MiB error unless the dialect says otherwise)"},
	{Name: "sse-truncated", Severity: SevWarn, Clause: "WHATWG SSE", Summary: "the stream ended in the middle of an SSE event (no blank line): a client discards it"},
	{Name: "dialect-late", Severity: SevInfo, Clause: "framescope", Summary: "a leading frame that is not JSON made the stream plain sse, but later frames carry a dialect's signature (named, with --dialect to check it as that)"},
	{Name: "dialect-hint", Severity: SevInfo, Clause: "framescope", Summary: "a stream read as plain sse carries JSON-RPC 2.0 (a response with jsonrpc, id and result or error, or a captured POST request with a method) and nothing MCP-specific: it is likely an MCP (or A2A) exchange, named with --dialect to check it as that; said once"},
	{Name: "stream-error", Severity: SevError, Clause: "framescope", Summary: "a stream without turns (sse) ended by a transport or decoding error (a reset, a body that could not be read): the client saw a failure"},
	{Name: "capture-corrupt", Severity: SevError, Clause: "framescope", Summary: "the capture file itself is damaged: warn when bytes may be missing, error when recorded bytes were dropped (a line too long to read)"},
	{Name: "capture-empty", Severity: SevWarn, Clause: "framescope", Summary: "the capture holds no frame at all (0 bytes, or only comments and blank lines) and nothing else was raised: a recording that captured nothing"},
	{Name: "not-a-stream", Severity: SevError, Clause: "framescope", Summary: "the capture is no stream: a file of JSON values holding a single value that made no turn (a request body, a config, a whole response saved by mistake); the message says what it looks like"},
	{Name: "http-status", Severity: SevError, Clause: "RFC 9110", Summary: "the HTTP response status is not 2xx"},
	{Name: "content-type", Severity: SevWarn, Clause: "WHATWG SSE", Summary: "the HTTP Content-Type is not text/event-stream"},
	{Name: "idle-gap", Severity: SevWarn, Clause: "framescope", Summary: "no frame (or heartbeat) for longer than the idle window while a turn was open"},
	{Name: "ttfe", Severity: SevWarn, Clause: "framescope", Summary: "the first frame arrived later than the TTFE bound after the response started"},
	{Name: "sse-event-mismatch", Severity: SevError, Clause: "framescope", Summary: "the SSE event: field is present and differs from the frame's JSON type"},
	{Name: "event-unknown", Severity: SevInfo, Clause: "framescope", Summary: "the frame's type is not in the dialect's vocabulary (clients ignore it)"},
	{Name: "start-missing", Severity: SevError, Clause: "framescope", Summary: "the turn's first frame is not the dialect's start event"},
	{Name: "start-duplicate", Severity: SevError, Clause: "framescope", Summary: "a start event while the turn or run it would open is already open"},
	{Name: "terminal-missing", Severity: SevError, Clause: "framescope", Summary: "the stream ended and the turn has no terminal event; info when the client cancelled or the server cut the stream"},
	{Name: "terminal-duplicate", Severity: SevError, Clause: "framescope", Summary: "a second terminal event in one turn"},
	{Name: "after-terminal", Severity: SevError, Clause: "framescope", Summary: "a frame (other than [DONE]) after the turn's terminal event"},
	{Name: "done-early", Severity: SevError, Clause: "framescope", Summary: "[DONE] arrived while the turn had no terminal event"},
	{Name: "done-missing", Severity: SevWarn, Clause: "framescope", Summary: "the stream ended after the terminal event without [DONE]"},
	{Name: "span-orphan", Severity: SevError, Clause: "framescope", Summary: "a delta or close for a message, block, item, step, stream or model call that was never opened in the turn"},
	{Name: "span-unclosed", Severity: SevError, Clause: "framescope", Summary: "a span is still open at the turn's terminal (warn before a failure or cancel) or at the end of the stream (warn when the turn has no terminal)"},
	{Name: "span-duplicate", Severity: SevError, Clause: "framescope", Summary: "a second open for a key that is still open"},
	{Name: "span-mismatch", Severity: SevError, Clause: "framescope", Summary: "a delta of the wrong kind for its span"},
	{Name: "tool-malformed", Severity: SevError, Clause: "framescope", Summary: "a tool call without an id or name where the dialect requires them"},
	{Name: "tool-orphan", Severity: SevError, Clause: "framescope", Summary: "arguments or a result for a tool call that was never opened in the turn"},
	{Name: "tool-unfinished", Severity: SevError, Clause: "framescope", Summary: "a tool call still open at the turn's terminal (warn before a failure or cancel)"},
	{Name: "tool-duplicate", Severity: SevError, Clause: "framescope", Summary: "a second open for a tool id already used (still open, or in the turn where ids are unique)"},
	{Name: "tool-mismatch", Severity: SevError, Clause: "framescope", Summary: "a tool call's close names another tool than its open"},
	{Name: "seq-gap", Severity: SevError, Clause: "framescope", Summary: "the dialect's sequence counter skips a value"},
	{Name: "seq-order", Severity: SevError, Clause: "framescope", Summary: "the dialect's sequence counter repeats or goes backwards"},
	{Name: "payload-malformed", Severity: SevError, Clause: "framescope", Summary: "a field the dialect requires on this event is missing or has the wrong JSON type"},
	{Name: "envelope-drift", Severity: SevError, Clause: "framescope", Summary: "an envelope field that must stay fixed for the stream changed"},
	{Name: "legacy-shape", Severity: SevInfo, Clause: "framescope", Summary: "the stream is in an older documented shape of its dialect (named in the message): read as that shape, one alarm per stream"},
	{Name: "id-limit", Severity: SevWarn, Clause: "framescope", Summary: "a turn holds more than 1024 ids (tool calls, spans, blocks, streams) open at once: framescope tracks no more, counts the later ones and checks them no further (one alarm per turn)"},
	{Name: "delivery-buffered", Severity: SevWarn, Clause: "WHATWG SSE", Summary: "most of a turn's frames arrived in a few reads or within milliseconds while the turn took seconds: something between server and client buffered the stream (the likely cause named from the response headers)"},
	{Name: "delivery-stall", Severity: SevWarn, Clause: "framescope", Summary: "no content (text, reasoning, tool call) for longer than the stall bound (check --stall, 5 s) inside a turn, though frames may have come"},
	{Name: "delivery-compressed", Severity: SevInfo, Clause: "WHATWG SSE", Summary: "the event stream is compressed (Content-Encoding): a compressor that is not flushed per event holds them back"},
	{Name: "budget-first-content", Severity: SevError, Clause: "framescope", Summary: "the turn's first content arrived later than check --max-first-content"},
	{Name: "budget-gap", Severity: SevError, Clause: "framescope", Summary: "a gap between two content frames is longer than check --max-gap"},
	{Name: "budget-rate", Severity: SevError, Clause: "framescope", Summary: "the turn's content rate (deltas per second) is below check --min-rate"},
	{Name: "error-code-unknown", Severity: SevWarn, Clause: "framescope", Summary: "an error code outside the dialect's taxonomy"},
}

var genericIndex = func() map[string]Rule {
	m := make(map[string]Rule, len(Generic))
	for _, r := range Generic {
		m[r.Name] = r
	}
	return m
}()

// Transport lists the rules that apply to every stream, whatever its
// dialect (the whole rule set of the sse dialect).
var Transport = []string{"frame-utf8", "frame-size", "sse-truncated", "capture-corrupt", "capture-empty", "not-a-stream", "http-status", "content-type", "idle-gap", "ttfe"}

// Delivery lists the timing rules every dialect with turns shares: they
// read the turn's moves (docs/timing.md).
var Delivery = []string{"delivery-buffered", "delivery-stall", "delivery-compressed", "budget-first-content", "budget-gap", "budget-rate"}

// IsDeliveryRule reports whether rule is one of Delivery.
func IsDeliveryRule(rule string) bool { return slices.Contains(Delivery, rule) }

// Rules is a helper for Spec.Generic: the transport and delivery rules
// plus names, plus id-limit, which any dialect whose turns track ids can
// raise (the bound of engine_ids.go).
func Rules(names ...string) []string {
	return append(append(append(append([]string(nil), Transport...), Delivery...), names...), idLimitRule)
}
