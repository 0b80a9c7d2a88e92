package invariants

// Rule describes one rule of the catalog. Rule names are a stable public
// interface: QA pipelines grep for them and the JSON report carries them.
type Rule struct {
	Name string
	// Severity is the rule's severity; rules with two (frame-size,
	// tool-unfinished, component-unfilled, terminal-missing) list the
	// stronger one here and say when the weaker applies in Summary.
	Severity Severity
	Clause   string
	Summary  string
}

// Catalog lists every rule the checker can raise, in catalog order.
var Catalog = []Rule{
	// Framing and decoding
	{"frame-json", SevError, "§5.5", "a frame's data is neither a JSON object nor the [DONE] sentinel"},
	{"frame-utf8", SevError, "§5.5", "a frame's bytes are not valid UTF-8"},
	{"frame-size", SevError, "NFR-7", "a frame's data exceeds 256 KiB (warn) or 1 MiB (error)"},
	{"sse-event-mismatch", SevError, "§5.5", "the SSE event: field is present and differs from the JSON event_type"},
	{"sse-event-missing", SevInfo, "§5.5", "a v0.5 frame has no SSE event: field (data-only framing)"},
	{"sse-truncated", SevWarn, "§5.5", "the stream ended in the middle of an SSE event (no blank line): a client discards it"},
	{"http-status", SevError, "—", "the HTTP response status is not 2xx"},
	{"content-type", SevWarn, "—", "the HTTP Content-Type is not text/event-stream"},
	{"capture-corrupt", SevWarn, "—", "the capture file itself is damaged (a line could not be read), so bytes may be missing"},
	// Envelope and vocabulary
	{"envelope-missing", SevError, "FR-2", "event_type, version, timestamp or response_id is absent, empty, or not a string"},
	{"envelope-timestamp", SevError, "FR-2", "timestamp is not an ISO-8601 / RFC 3339 date-time"},
	{"envelope-drift", SevError, "FR-2", "response_id or version differs from the turn's first frame (before its terminal)"},
	{"version-unknown", SevWarn, "FR-12", "version is neither \"0.4\" nor \"0.5\""},
	{"event-unknown", SevInfo, "FR-12, AC-7", "event_type is not in the v0.5 vocabulary (clients ignore it)"},
	{"event-deprecated", SevInfo, "§5.5, Phase 6", "a legacy mcp_* lifecycle frame"},
	{"internal-leak", SevError, "R-6", "an internal-only type (support_content) reached the wire"},
	{"timestamp-order", SevWarn, "FR-14", "a frame's timestamp is earlier than the previous frame's in the turn"},
	// Turn structure
	{"terminal-missing", SevError, "FR-9", "the turn ended (EOF, transport error or [DONE]) without a terminal frame; info when the client cancelled"},
	{"terminal-duplicate", SevError, "FR-9", "a second terminal frame in one turn"},
	{"after-terminal", SevError, "FR-9, FR-17", "a frame other than [DONE] after the turn's terminal frame"},
	{"done-early", SevError, "AC-4", "[DONE] arrived while the turn had no terminal frame"},
	{"done-missing", SevWarn, "AC-4", "the stream ended after a terminal frame without [DONE]"},
	{"response-id-frame", SevWarn, "§5.5", "the turn's response_id frame is absent, not the turn's first frame, or repeated"},
	// Errors and cancellation
	{"error-malformed", SevError, "§5.7", "an error frame has no error object or no error.code string"},
	{"error-is-final", SevError, "FR-17", "a v0.5 error frame lacks a boolean is_final"},
	{"error-code-unknown", SevWarn, "§5.7", "error.code is outside the §5.7 taxonomy"},
	{"error-legacy-cancel", SevWarn, "§5.6", "a v0.5 error frame carries IDLE_TIMEOUT / REQUEST_CANCELLED (v0.5 uses cancelled)"},
	{"error-payload", SevError, "§5.7", "the axis payload inside error is missing or malformed"},
	{"error-reason-unknown", SevWarn, "§5.7", "a CCS_ENVELOPE_ERROR reason is outside the PS6 enum"},
	{"error-terminality", SevWarn, "§5.7", "CCS_ENVELOPE_ERROR or PARTIAL_FAN_OUT with is_final: true"},
	{"error-leak", SevError, "FR-7", "an error frame carries a stack trace, exception text, internal host, private IP, file path or PS6 envelope metadata"},
	{"error-unacknowledged", SevWarn, "FR-8, AC-3", "a non-terminal error was never followed by a text frame (the user was never told)"},
	{"error-code-in-text", SevWarn, "FR-8", "a text chunk contains an error code (the user would see it)"},
	{"cancel-code", SevError, "FR-13, §5.7", "a cancelled frame's error.code is missing or not IDLE_TIMEOUT / REQUEST_CANCELLED"},
	// Tool calls
	{"tool-malformed", SevError, "§5.5", "tool_call object missing, or its id, name or type is not a non-empty string"},
	{"tool-orphan", SevError, "FR-15, AC-9", "tool_completed whose tool_call.id had no earlier tool_call in the turn"},
	{"tool-unfinished", SevError, "FR-15, AC-9", "a tool_call had no tool_completed when the terminal frame arrived (warn before error/cancelled)"},
	{"tool-mismatch", SevError, "FR-15", "the pair's name or type differ"},
	{"tool-duplicate", SevError, "FR-15", "a second tool_call with an id already used in the turn"},
	// Component frames
	{"component-malformed", SevError, "§5.5", "data_loading/data_loaded without data.id / data.type, items not an array, or component without chunk or tool_call"},
	{"component-unfilled", SevError, "FR-16, AC-8", "a data_loading placeholder got no data_loaded before the terminal frame (warn before error/cancelled)"},
	{"component-unannounced", SevWarn, "FR-16", "data_loaded with no earlier data_loading of that data.id"},
	{"component-mismatch", SevWarn, "FR-16", "data_loaded's data.type or data.key differs from its data_loading"},
	{"envelope-leak", SevError, "FR-10, AC-8", "a component frame carries PS6 envelope metadata"},
	// Status events
	{"status-malformed", SevError, "§5.5", "a status frame lacks a non-empty data.event_id or data.message"},
	{"status-prose", SevError, "FR-3", "data.event_id is prose, not an identifier"},
	{"status-unregistered", SevError, "FR-11, §5.4", "data.event_id is not in the given registry"},
	{"status-deprecated", SevWarn, "§5.4", "the registry marks data.event_id as deprecated"},
	{"status-suppressed", SevWarn, "§5.3", "the registry's default_policy for data.event_id is suppress, yet it reached the wire"},
	// Other payloads
	{"text-malformed", SevError, "§5.5", "a text or reasoning frame's chunk is missing or not a string"},
	{"usage-malformed", SevWarn, "§5.5", "usage counts are not non-negative integers, or total_tokens ≠ input_tokens + output_tokens"},
	{"episode-malformed", SevWarn, "§5.5", "an episode frame without a non-empty episode_id"},
	// Timing
	{"idle-gap", SevWarn, "NFR-6", "no frame for longer than the idle window while the turn was open"},
	{"ttfe", SevWarn, "NFR-1", "the first frame arrived later than the TTFE bound after the response started"},
	// Client profiles
	{"client-divergence", SevInfo, "AC-12", "a v0.4 client would end or misread the turn at this frame while a v0.5 client goes on"},
}

var catalogIndex = func() map[string]*Rule {
	m := make(map[string]*Rule, len(Catalog))
	for i := range Catalog {
		m[Catalog[i].Name] = &Catalog[i]
	}
	return m
}()

// LookupRule returns the catalog entry of a rule name.
func LookupRule(name string) (Rule, bool) {
	r, ok := catalogIndex[name]
	if !ok {
		return Rule{}, false
	}
	return *r, true
}
