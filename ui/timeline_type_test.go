package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// timelineRow is the timeline's plain line for the row of frame n.
func timelineRow(m *Model, n int) string {
	return ansi.Strip(m.timeline.plainRow(m.Store().RowOfFrame(n)))
}

// Issue 23 item 8: an openai-chat chunk's type column says what it
// carries, and its summary leads with the delta or the tool name.
func TestTimelineChatChunkCarries(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectRoom, "openaichat", "demo_happy.sse"), 120, 40, true)
	for n, want := range map[int]string{
		6:  `content `,
		17: `tool_ca… get_forecast name="get_forecast"`,
		18: `tool_calls[0] `,
		29: `finish: tool_calls`,
		30: `usage `,
	} {
		row := timelineRow(m, n)
		if !strings.Contains(strings.Join(strings.Fields(row), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("frame %d: %q, want %q", n, row, want)
		}
		if strings.Contains(row, "completion.chunk") {
			t.Errorf("frame %d still labelled by its object: %q", n, row)
		}
	}
	// A frame of two choices names each.
	m = loadModel(t, filepath.Join(dialectData, "openai-chat", "valid-two-choices.sse"), 120, 40, true)
	if row := timelineRow(m, 3); !strings.Contains(row, "[1] content") {
		t.Errorf("frame 3: %q", row)
	}
}

// Long event names are cut in the middle: head and tail both tell rows
// apart (content_block_start / _delta / _stop).
func TestFitMiddle(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"content_block_delta", 19, "content_block_delta"},
		{"content_block_delta", 16, "conte…lock_delta"},
		{"response.function_call_arguments.delta", 22, "respons…rguments.delta"},
		{"tool_calls[0] get_forecast", 22, "tool_cal… get_forecast"},
	} {
		if got := strings.TrimRight(fitMiddle(tc.in, tc.w, true), " "); got != tc.want {
			t.Errorf("fitMiddle(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

// The summary of openai-responses' response.created and .completed does
// not lead with the settings or output the response snapshot carries.
func TestTimelineResponsesSummaryLead(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectRoom, "openairesponses", "demo_happy.sse"), 160, 40, true)
	for i := 0; i < m.Store().Len(); i++ {
		r := m.Store().Row(i)
		if r.Type != "response.created" && r.Type != "response.completed" {
			continue
		}
		s := m.Store().Summary(i)
		if strings.HasPrefix(s, `"`) {
			t.Errorf("%s summary leads with a text field of the snapshot: %s", r.Type, s)
		}
	}
}
