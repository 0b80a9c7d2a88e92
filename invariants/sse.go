package invariants

import (
	"encoding/json"
	"strings"

	"framescope/decode"
)

// SSE is the dialect of a stream that matches no other: generic SSE, where
// only the transport rules apply. Its data need not be JSON (a plain-text
// ticker is a valid sse stream) and it has no turns.
var SSE = &Spec{
	ID:         "sse",
	About:      "generic Server-Sent Events: any stream no other dialect matches; only transport rules apply",
	Shape:      Shape{Turns: NoTurns, NotJSON: true},
	Generic:    append(append([]string(nil), Transport...), "stream-error", "dialect-late", "dialect-hint"),
	SniffFrame: func(*decode.Frame, Keys) Verdict { return No },
	LabelOf:    func(*decode.Frame) string { return "" },
	NewMapper:  func() Mapper { return &sseHint{} },
}

// sseHint says once when a stream read as plain sse speaks JSON-RPC 2.0:
// an MCP server's response whose result carries nothing MCP-specific (a
// string, an array, a tool's own object) matches no dialect's signature
// and would be checked as nothing. The captured request (a POST whose body
// has jsonrpc and a method) or a response frame (jsonrpc "2.0", an id, a
// result or an error) is the evidence; dialect-hint names --dialect mcp.
type sseHint struct{ said bool }

func (h *sseHint) Map(f *decode.Frame, m *Mapping) {
	if h.said {
		return
	}
	what := ""
	if x := m.Exchange(); x != nil && strings.EqualFold(x.Method, "POST") {
		var req struct {
			JSONRPC string `json:"jsonrpc"`
			Method  string `json:"method"`
		}
		if json.Unmarshal(x.RequestBody, &req) == nil && req.JSONRPC == "2.0" && req.Method != "" {
			what = "the captured request is a JSON-RPC 2.0 call (POST, method " + decode.Clip(req.Method, 40) + ")"
		}
	}
	if what == "" && f.Get("jsonrpc").StrEq("2.0") && f.Get("id") != nil && (f.Get("result") != nil || f.Get("error") != nil) {
		what = "its frames are JSON-RPC 2.0 responses (jsonrpc, id, result or error) with nothing MCP-specific"
	}
	if what == "" {
		return
	}
	h.said = true
	m.Raise("dialect-hint", SevInfo, "read as plain sse, but %s: if this is an MCP server's response, check it with --dialect mcp (an A2A call: --dialect a2a)", what)
}
