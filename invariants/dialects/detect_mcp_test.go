package dialects

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frameBody returns a capture's SSE body: an .sse file as is, a framescope
// JSONL capture's data lines joined (the request header line skipped).
func frameBody(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".jsonl") {
		return b
	}
	var out strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		var rec struct{ Data string }
		if json.Unmarshal([]byte(line), &rec) == nil {
			out.WriteString(rec.Data)
		}
	}
	return []byte(out.String())
}

// TestDetectMCP: MCP streams of every shape are mcp; A2A's JSON-RPC
// streams and plain text are not.
func TestDetectMCP(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}}\n\n", "mcp"},
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n", "mcp"},
		{"event: endpoint\ndata: /messages/?session_id=1\n\n", "mcp"},
		{"id: 0\ndata: \n\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\"}}\n\n", "mcp"},
		{"data: [{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}]\n\n", "mcp"},
		// A bare response or error says little: mcp is the best candidate.
		{"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n", "mcp"},
		// A2A (a2a spec §7.2: result.kind; v1.0: statusUpdate…) is not mcp.
		{"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"t\",\"status\":{\"state\":\"working\"},\"final\":false}}\n\n", "!mcp"},
		{"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":\"t\",\"status\":{\"state\":\"submitted\"}}}\n\n", "!mcp"},
		{"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"taskId\":\"t\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n", "!mcp"},
		{"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"message\":{\"role\":\"ROLE_AGENT\",\"parts\":[]}}}\n\n", "!mcp"},
		// Not JSON-RPC 2.0; a plain ticker.
		{"data: {\"jsonrpc\":\"1.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n", "!mcp"},
		{"event: tick\ndata: 12:00\n\n", "sse"},
		{"data: \n\ndata: hello\n\n", "sse"},
	} {
		got := detect([]byte(tc.body)).Name()
		switch {
		case strings.HasPrefix(tc.want, "!"):
			if got == tc.want[1:] {
				t.Errorf("%q detected as %s", tc.body, got)
			}
		case got != tc.want:
			t.Errorf("%q detected as %s, want %s", tc.body, got, tc.want)
		}
	}
}

// TestMCPCapturesAreOnlyMCP: every mcp capture (SSE and JSONL) is mcp,
// and no other dialect's capture is.
func TestMCPCapturesAreOnlyMCP(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/dialects/*/*.sse")
	jsonl, _ := filepath.Glob("../../testdata/dialects/mcp/*.jsonl")
	real, _ := filepath.Glob("../../testdata/real/*/*.sse")
	n := 0
	for _, f := range append(append(files, jsonl...), real...) {
		if want, err := os.ReadFile(f + ".want"); err == nil && strings.Contains(string(want), "# dialect ") {
			continue
		}
		mine := strings.Contains(f, "/mcp/")
		got := detect(frameBody(t, f)).Name()
		switch {
		case mine && got != "mcp":
			t.Errorf("%s: detected as %s, want mcp", f, got)
		case !mine && got == "mcp":
			t.Errorf("%s: another dialect's capture detected as mcp", f)
		}
		if mine {
			n++
		}
	}
	if n < 10 {
		t.Errorf("only %d mcp captures", n)
	}
}
