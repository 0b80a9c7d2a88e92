package replay

import (
	"context"
	"io"
	"strings"
	"testing"
)

// TestOllamaDemoServedAsNDJSON: the ollama demo goes out as the server's
// wire, one JSON object per line (no data: prefix, no blank lines), and
// reads back as a raw NDJSON capture of the ollama dialect.
func TestOllamaDemoServedAsNDJSON(t *testing.T) {
	if !servesNDJSON("ollama") || servesNDJSON("openai-chat") || servesNDJSON("no-such") {
		t.Fatal("servesNDJSON: ollama only")
	}
	rs := newRelayServer(t, RelayOptions{Scenario: "ollama", Speed: 0})
	resp := rs.get(t, context.Background(), "/api/chat")
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if len(lines) < 5 {
		t.Fatalf("%d lines: %q", len(lines), body)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "{") || !strings.HasSuffix(l, "}") {
			t.Errorf("line %q is not a bare JSON object", l)
		}
	}
	rep := checkSSE(t, "ollama", strings.NewReader(string(body)))
	if rep.Dialect != "ollama" || rep.Format != "raw-ndjson" || len(rep.Alarms) != 0 {
		t.Errorf("read back: dialect %s format %s alarms %v", rep.Dialect, rep.Format, alarmLines(rep))
	}
}
