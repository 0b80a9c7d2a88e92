package pc3

import (
	"regexp"
	"sort"
	"strings"
)

// Citation ties a clause the reference cites to the spec's own words:
// Heading is how the spec titles the clause and Quote a sentence of it the
// reference relies on, both verbatim from the PC3 spec text, so a reader
// (and TestCitationsExact) can find them.
type Citation struct {
	Clause  string `json:"clause"`
	Heading string `json:"heading"`
	Quote   string `json:"quote"`
}

// Citations lists every clause the machine's rows and the document cite.
var Citations = []Citation{
	{"§3.3", "3.3 What PC3 defers downstream", "PC3 commits the frame shape on the wire; PC7 commits the client’s behavior on receipt"},
	{"§3.4", "3.4 Vocabulary", "Every turn emits exactly one."},
	{"§5.5", "5.5 Wire vocabulary", "Emitted exactly once per turn, at turn open."},
	{"§5.6", "5.6 Cancellation contract", "Client-initiated: client disconnects from the SSE stream, or sends an explicit cancel signal"},
	{"§5.7", "5.7 Error event contract", "Codes on the cancelled terminal frame (cancellation cause, per FR-13 / §5.6)"},
	{"§5.10", "5.10 The two-vocabulary translation layer", "Mobile prefers status events for user-facing progress UI; tool_call_* events are retained for framework-level telemetry"},
	{"§8.2", "8.2 Open Questions", "None outstanding."},
	{"§9.2", "9.2 Integration tests", "End-to-end synchronous chat turn: user request → orchestrator dispatch → sub-agent invocation"},
	{"FR-2", "FR-2 — Envelope shape constant across the turn", "Every wire frame MUST carry the envelope fields event_type (string, required), version (string, required), timestamp (ISO-8601 string, required), and response_id (string, required)"},
	{"FR-3", "FR-3 — Typed status events, not prose", "The orchestrator MUST render registered identifiers into user-visible strings"},
	{"FR-6", "FR-6 — Final response composition flows through the stream", "frames once emitted are not retroactively edited"},
	{"FR-7", "FR-7 — Typed error events for client telemetry", "The error frame MUST NOT carry raw exception text"},
	{"FR-8", "FR-8 — Natural-language failure surfacing is separate from telemetry", "The user never sees the error code"},
	{"FR-9", "FR-9 — Terminal-frame contract", "clients MUST NOT need heuristics (idle timeout, stream close) to detect turn completion"},
	{"FR-10", "FR-10 — Component frames carry PS6 payloads", "Frames carrying structured component data (data_loading, data_loaded, component) MUST carry the unwrapped PS6 payload field directly"},
	{"FR-12", "FR-12 — Wire-version compatibility", "Clients MUST ignore unknown fields and unknown event types"},
	{"FR-13", "FR-13 — Cancellation unwinds in-flight sub-agents", "exactly one cancelled terminal frame reaching the client with an error.code from {IDLE_TIMEOUT, REQUEST_CANCELLED}"},
	{"FR-14", "FR-14 — Frame ordering preserved across the relay", "Cross-turn and cross-session ordering is not part of PC3"},
	{"FR-15", "FR-15 — Tool-call boundary events at the stream writer", "The tool_call.id, tool_call.name, and tool_call.type fields MUST match between the pair"},
	{"FR-16", "FR-16 — Component frame correlation via data.id", "the events MUST share data.id"},
	{"FR-17", "FR-17 — is_final on frames with non-deterministic terminality", "The orchestrator emits is_final: true exactly when no further frames follow in the turn"},
	{"NFR-1", "NFR-1 — TTFE (time to first event)", "First frame visible to the client SHOULD be emitted within a small bound of dispatch start"},
	{"NFR-6", "NFR-6 — Idle timeout", "Target window: operational tuning, not a hard contract"},
	{"NFR-7", "NFR-7 — SSE event size", "Per-frame size SHOULD remain under the documented"},
	{"AC-1", "AC-1 — Given a sub-agent emits a registered status event", "the client receives a frame with event_type=\"status\""},
	{"AC-3", "AC-3 — Given a sub-agent", "(c) exactly one terminal completed frame ending the turn"},
	{"AC-4", "AC-4 — Given any turn (successful, failed, or cancelled)", "the client has received exactly one terminal frame from the set {completed, error, cancelled}, followed by the data: [DONE]"},
	{"AC-6", "AC-6 — Given a client disconnects mid-turn", "the relay forwards the frame (if the client transport is still observable"},
	{"AC-7", "AC-7 — Given a v0.4 client connects", "the v0.4 client ignores unknown event types and unknown fields without breaking"},
	{"AC-8", "AC-8 — Given a sub-agent emits component data", "the client receives a data_loading frame followed by a data_loaded frame. Both share the same data.id"},
	{"AC-9", "AC-9 — Given concurrent tool invocations", "no orphan tool_completed without a prior tool_call reaches the wire"},
	{"AC-11", "AC-11 — Axis 1 single-intent error", "Axis 2 sub-agent error with orchestrator fallback → frame includes is_final: false; followed by text + completed"},
	{"AC-12", "AC-12 — v0.4 client reading Axis 2 error frame closes on first error", "v0.5 client honors is_final: false and consumes subsequent text + completed"},
	{"R-8", "R-8: cancelled event type rollout risk", "v0.4 clients fall back to ignoring it (per AC-7), which means they see a stream that ends without completed"},
	{"Phase 6", "Phase 6 — MCP-lifecycle event type deprecation", "are deprecated per FR-12 policy"},
}

// LookupCitation returns the citation of a clause.
func LookupCitation(clause string) (Citation, bool) {
	for _, c := range Citations {
		if c.Clause == clause {
			return c, true
		}
	}
	return Citation{}, false
}

// clauseRe finds the clause references in a text: §n.n, FR-n, NFR-n, AC-n,
// R-n and "Phase n".
var clauseRe = regexp.MustCompile(`§\d+(\.\d+)?|\b(?:NFR|FR|AC|R)-\d+\b|Phase \d+`)

// CitedClauses returns the distinct clause references of a text, sorted.
func CitedClauses(text string) []string {
	seen := map[string]bool{}
	for _, m := range clauseRe.FindAllString(text, -1) {
		seen[m] = true
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// splitClauses splits a row's clause cell ("FR-9, AC-4") into clauses.
func splitClauses(cell string) []string {
	var out []string
	for _, p := range strings.Split(cell, ",") {
		if p = strings.TrimSpace(p); p != "" && p != "—" {
			out = append(out, p)
		}
	}
	return out
}
