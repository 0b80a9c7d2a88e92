package ui

import (
	"path/filepath"
	"strings"
	"testing"
)

// A WebSocket session's client frames carry → in the type column; the
// server's do not; an audio delta's type column names its size.
func TestTimelineWebSocketDirection(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectData, "openai-realtime", "valid-voice-turn.jsonl"), 160, 40, true)
	if row := timelineRow(m, 5); !strings.Contains(row, "→ response.create") {
		t.Errorf("frame 5 (client): %q", row)
	}
	if row := timelineRow(m, 6); strings.Contains(row, "→") || !strings.Contains(row, "response.created") {
		t.Errorf("frame 6 (server): %q", row)
	}
	if row := timelineRow(m, 10); !strings.Contains(row, "bytes of audio") {
		t.Errorf("frame 10 (audio): %q", row)
	}
}
