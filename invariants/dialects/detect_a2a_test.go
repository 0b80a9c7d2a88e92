package dialects

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectA2A: A2A streams of both versions and bindings are a2a; a
// plain JSON-RPC stream (an MCP tools/call result, a notification, a
// bare error) is not claimed by it.
func TestDetectA2A(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"submitted"}}}` + "\n\n", "a2a"},
		{`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"hi"}]}}` + "\n\n", "a2a"},
		{`data: {"jsonrpc":"2.0","id":"r","result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}` + "\n\n", "a2a"},
		{`data: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n", "a2a"},
		{`data: {"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}` + "\n\n", "a2a"},
		// JSON-RPC that is not A2A's: MCP's.
		{`data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}],"isError":false}}` + "\n\n", "mcp"},
		{`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5}}` + "\n\n", "mcp"},
		{`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}` + "\n\n", "sse"},
		{`data: {"jsonrpc":"2.0","id":1,"result":{"message":{"text":"not a2a"}}}` + "\n\n", "sse"},
	} {
		if got := detect([]byte(tc.body)).Name(); got != tc.want {
			t.Errorf("%s: detected as %s, want %s", strings.TrimSpace(tc.body), got, tc.want)
		}
	}
}

// TestA2ACapturesAreA2AOnly: every a2a capture is detected as a2a, and no
// other dialect's capture (nor PC3's rule captures, nor a real recording
// of another wire) as a2a.
func TestA2ACapturesAreA2AOnly(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/dialects/*/*.sse")
	rules, _ := filepath.Glob("../../testdata/rules/*.sse")
	real, _ := filepath.Glob("../../testdata/real/*/*.sse")
	files = append(append(files, rules...), real...)
	own := 0
	for _, f := range files {
		if want, err := os.ReadFile(f + ".want"); err == nil && strings.Contains(string(want), "# dialect ") {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		isA2A := filepath.Base(filepath.Dir(f)) == "a2a"
		got := detect(body).Name()
		switch {
		case isA2A && got != "a2a":
			t.Errorf("%s: detected as %s, want a2a", f, got)
		case !isA2A && got == "a2a":
			t.Errorf("%s: another dialect's capture detected as a2a", f)
		}
		if isA2A {
			own++
		}
	}
	if own < 10 {
		t.Errorf("only %d a2a captures", own)
	}
}
