package live

import "testing"

// TestAcceptForJSONRPC: a JSON-RPC body (an MCP request) gets the Accept
// MCP's Streamable HTTP requires (both types); any other keeps
// text/event-stream, and a user's Accept wins.
func TestAcceptForJSONRPC(t *testing.T) {
	for _, tc := range []struct {
		body    string
		headers []string
		want    string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}`, nil, "application/json, text/event-stream"},
		{` [{"jsonrpc": "2.0","id":1,"method":"ping"}]`, nil, "application/json, text/event-stream"},
		{`{"message":"hi"}`, nil, "text/event-stream"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, []string{"Accept: text/event-stream"}, "text/event-stream"},
	} {
		h, _, err := requestHeaders(ConnectOptions{Body: []byte(tc.body), Headers: tc.headers})
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Get("Accept"); got != tc.want {
			t.Errorf("%s: Accept %q, want %q", tc.body, got, tc.want)
		}
	}
}
