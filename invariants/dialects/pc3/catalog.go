package pc3

import "framescope/invariants"

// Catalog lists every rule the checker can raise, in catalog order.
var Catalog = []invariants.Rule{
	// Framing and decoding
	{Name: "frame-json", Severity: invariants.SevError, Clause: "§5.5", Summary: "a frame's data is neither a JSON object nor the [DONE] sentinel"},
	{Name: "frame-utf8", Severity: invariants.SevError, Clause: "§5.5", Summary: "a frame's bytes are not valid UTF-8"},
	{Name: "frame-size", Severity: invariants.SevError, Clause: "NFR-7", Summary: "a frame's data exceeds 256 KiB (warn) or 1 MiB (error)"},
	{Name: "sse-event-mismatch", Severity: invariants.SevError, Clause: "§5.5", Summary: "the SSE event: field is present and differs from the JSON event_type"},
	{Name: "sse-event-missing", Severity: invariants.SevInfo, Clause: "§5.5", Summary: "a v0.5 frame has no SSE event: field (data-only framing)"},
	{Name: "sse-truncated", Severity: invariants.SevWarn, Clause: "§5.5", Summary: "the stream ended in the middle of an SSE event (no blank line): a client discards it"},
	{Name: "http-status", Severity: invariants.SevError, Clause: "—", Summary: "the HTTP response status is not 2xx"},
	{Name: "content-type", Severity: invariants.SevWarn, Clause: "—", Summary: "the HTTP Content-Type is not text/event-stream"},
	{Name: "capture-corrupt", Severity: invariants.SevError, Clause: "—", Summary: "the capture file itself is damaged (a line could not be read): warn when bytes may be missing, error when recorded bytes were dropped"},
	{Name: "capture-empty", Severity: invariants.SevWarn, Clause: "—", Summary: "the capture holds no frame at all (0 bytes, or only comments and blank lines) and nothing else was raised: a recording that captured nothing"},
	{Name: "not-a-stream", Severity: invariants.SevError, Clause: "—", Summary: "the capture is no stream: a file of JSON values holding a single value that made no turn (a request body, a config, a whole response saved by mistake); the message says what it looks like"},
	// Envelope and vocabulary
	{Name: "envelope-missing", Severity: invariants.SevError, Clause: "FR-2", Summary: "event_type, version, timestamp or response_id is absent, empty, or not a string"},
	{Name: "envelope-timestamp", Severity: invariants.SevError, Clause: "FR-2", Summary: "timestamp is not an ISO-8601 / RFC 3339 date-time"},
	{Name: "envelope-drift", Severity: invariants.SevError, Clause: "FR-2", Summary: "response_id or version differs from the turn's first frame (before its terminal)"},
	{Name: "version-unknown", Severity: invariants.SevWarn, Clause: "FR-12", Summary: "version is neither \"0.4\" nor \"0.5\""},
	{Name: "event-unknown", Severity: invariants.SevInfo, Clause: "FR-12, AC-7", Summary: "event_type is not in the v0.5 vocabulary (clients ignore it)"},
	{Name: "event-deprecated", Severity: invariants.SevInfo, Clause: "§5.5, Phase 6", Summary: "a legacy mcp_* lifecycle frame"},
	{Name: "internal-leak", Severity: invariants.SevError, Clause: "R-6", Summary: "an internal-only type (support_content) reached the wire"},
	{Name: "timestamp-order", Severity: invariants.SevWarn, Clause: "FR-14", Summary: "a frame's timestamp is earlier than the previous frame's in the turn"},
	// Turn structure
	{Name: "terminal-missing", Severity: invariants.SevError, Clause: "FR-9", Summary: "the turn ended (EOF, transport error or [DONE]) without a terminal frame; info when the client cancelled"},
	{Name: "terminal-duplicate", Severity: invariants.SevError, Clause: "FR-9", Summary: "a second terminal frame in one turn"},
	{Name: "after-terminal", Severity: invariants.SevError, Clause: "FR-9, FR-17", Summary: "a frame other than [DONE] after the turn's terminal frame"},
	{Name: "done-early", Severity: invariants.SevError, Clause: "AC-4", Summary: "[DONE] arrived while the turn had no terminal frame"},
	{Name: "done-missing", Severity: invariants.SevWarn, Clause: "AC-4", Summary: "the stream ended after a terminal frame without [DONE]"},
	{Name: "response-id-frame", Severity: invariants.SevWarn, Clause: "§5.5", Summary: "the turn's response_id frame is absent, not the turn's first frame, or repeated"},
	// Errors and cancellation
	{Name: "error-malformed", Severity: invariants.SevError, Clause: "§5.7", Summary: "an error frame has no error object or no error.code string"},
	{Name: "error-is-final", Severity: invariants.SevError, Clause: "FR-17", Summary: "a v0.5 error frame lacks a boolean is_final"},
	{Name: "error-code-unknown", Severity: invariants.SevWarn, Clause: "§5.7", Summary: "error.code is outside the §5.7 taxonomy"},
	{Name: "error-legacy-cancel", Severity: invariants.SevWarn, Clause: "§5.6", Summary: "a v0.5 error frame carries IDLE_TIMEOUT / REQUEST_CANCELLED (v0.5 uses cancelled)"},
	{Name: "error-payload", Severity: invariants.SevError, Clause: "§5.7", Summary: "the axis payload inside error is missing or malformed"},
	{Name: "error-reason-unknown", Severity: invariants.SevWarn, Clause: "§5.7", Summary: "a CCS_ENVELOPE_ERROR reason is outside the PS6 enum"},
	{Name: "error-terminality", Severity: invariants.SevWarn, Clause: "§5.7", Summary: "CCS_ENVELOPE_ERROR or PARTIAL_FAN_OUT with is_final: true"},
	{Name: "error-leak", Severity: invariants.SevError, Clause: "FR-7", Summary: "an error frame carries a stack trace, exception text, internal host, private IP, file path or PS6 envelope metadata"},
	{Name: "error-unacknowledged", Severity: invariants.SevWarn, Clause: "FR-8, AC-3", Summary: "a non-terminal error was never followed by a text frame (the user was never told)"},
	{Name: "error-code-in-text", Severity: invariants.SevWarn, Clause: "FR-8", Summary: "a text chunk contains an error code (the user would see it)"},
	{Name: "cancel-code", Severity: invariants.SevError, Clause: "FR-13, §5.7", Summary: "a cancelled frame's error.code is missing or not IDLE_TIMEOUT / REQUEST_CANCELLED"},
	// Tool calls
	{Name: "tool-malformed", Severity: invariants.SevError, Clause: "§5.5", Summary: "tool_call object missing, or its id, name or type is not a non-empty string"},
	{Name: "tool-orphan", Severity: invariants.SevError, Clause: "FR-15, AC-9", Summary: "tool_completed whose tool_call.id had no earlier tool_call in the turn"},
	{Name: "tool-unfinished", Severity: invariants.SevError, Clause: "FR-15, AC-9", Summary: "a tool_call had no tool_completed when the terminal frame arrived (warn before error/cancelled)"},
	{Name: "tool-mismatch", Severity: invariants.SevError, Clause: "FR-15", Summary: "the pair's name or type differ"},
	{Name: "tool-duplicate", Severity: invariants.SevError, Clause: "FR-15", Summary: "a second tool_call with an id already used in the turn"},
	// Component frames
	{Name: "component-malformed", Severity: invariants.SevError, Clause: "§5.5", Summary: "data_loading/data_loaded without data.id / data.type, items not an array, or component without chunk or tool_call"},
	{Name: "component-unfilled", Severity: invariants.SevError, Clause: "FR-16, AC-8", Summary: "a data_loading placeholder got no data_loaded before the terminal frame (warn before error/cancelled)"},
	{Name: "component-unannounced", Severity: invariants.SevWarn, Clause: "FR-16", Summary: "data_loaded with no earlier data_loading of that data.id"},
	{Name: "component-mismatch", Severity: invariants.SevWarn, Clause: "FR-16", Summary: "data_loaded's data.type or data.key differs from its data_loading"},
	{Name: "envelope-leak", Severity: invariants.SevError, Clause: "FR-10, AC-8", Summary: "a component frame carries PS6 envelope metadata"},
	// Status events
	{Name: "status-malformed", Severity: invariants.SevError, Clause: "§5.5", Summary: "a status frame lacks a non-empty data.event_id or data.message"},
	{Name: "status-prose", Severity: invariants.SevError, Clause: "FR-3", Summary: "data.event_id is prose, not an identifier"},
	{Name: "status-unregistered", Severity: invariants.SevError, Clause: "FR-11, §5.4", Summary: "data.event_id is not in the given registry"},
	{Name: "status-deprecated", Severity: invariants.SevWarn, Clause: "§5.4", Summary: "the registry marks data.event_id as deprecated"},
	{Name: "status-suppressed", Severity: invariants.SevWarn, Clause: "§5.3", Summary: "the registry's default_policy for data.event_id is suppress, yet it reached the wire"},
	// Other payloads
	{Name: "text-malformed", Severity: invariants.SevError, Clause: "§5.5", Summary: "a text or reasoning frame's chunk is missing or not a string"},
	{Name: "usage-malformed", Severity: invariants.SevWarn, Clause: "§5.5", Summary: "usage counts are not non-negative integers, or total_tokens ≠ input_tokens + output_tokens"},
	{Name: "episode-malformed", Severity: invariants.SevWarn, Clause: "§5.5", Summary: "an episode frame without a non-empty episode_id"},
	// Bounds
	{Name: "id-limit", Severity: invariants.SevWarn, Clause: "—", Summary: "a turn holds more than 1024 tool calls and placeholders open at once: framescope tracks no more, counts the later ones and checks them no further (one alarm per turn)"},
	// Timing
	{Name: "idle-gap", Severity: invariants.SevWarn, Clause: "NFR-6", Summary: "no frame for longer than the idle window while the turn was open"},
	{Name: "ttfe", Severity: invariants.SevWarn, Clause: "NFR-1", Summary: "the first frame arrived later than the TTFE bound after the response started"},
	// Delivery and budgets (docs/timing.md): the same rules as every
	// Engine dialect's (invariants.TimingVerdict), fed from PC3's content
	// frames (text, thinking/reasoning, tool_call).
	{Name: "delivery-buffered", Severity: invariants.SevWarn, Clause: "WHATWG SSE", Summary: "most of a turn's frames arrived back to back while the turn took seconds (by arrival, or by the envelope timestamps' spread): something between server and client buffered the stream (the likely cause named from the response headers)"},
	{Name: "delivery-stall", Severity: invariants.SevWarn, Clause: "framescope", Summary: "no content (text, thinking/reasoning, tool_call) for longer than the stall bound (check --stall, 5 s) inside a turn, though frames may have come"},
	{Name: "delivery-compressed", Severity: invariants.SevInfo, Clause: "WHATWG SSE", Summary: "the event stream is compressed (Content-Encoding): a compressor that is not flushed per event holds them back"},
	{Name: "budget-first-content", Severity: invariants.SevError, Clause: "framescope", Summary: "the turn's first content arrived later than check --max-first-content"},
	{Name: "budget-gap", Severity: invariants.SevError, Clause: "framescope", Summary: "a gap between two content frames is longer than check --max-gap"},
	{Name: "budget-rate", Severity: invariants.SevError, Clause: "framescope", Summary: "the turn's content rate (deltas per second) is below check --min-rate"},
	// Client profiles
	{Name: "client-divergence", Severity: invariants.SevInfo, Clause: "AC-12", Summary: "a v0.4 client would end or misread the turn at this frame while a v0.5 client goes on"},
}

var catalogIndex = func() map[string]*invariants.Rule {
	m := make(map[string]*invariants.Rule, len(Catalog))
	for i := range Catalog {
		m[Catalog[i].Name] = &Catalog[i]
	}
	return m
}()

// LookupRule returns the catalog entry of a rule name.
func LookupRule(name string) (invariants.Rule, bool) {
	r, ok := catalogIndex[name]
	if !ok {
		return invariants.Rule{}, false
	}
	return *r, true
}
