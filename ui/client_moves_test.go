package ui

import (
	"framescope/ui/store"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Captures of other dialects, from the repository's test data and demos.
var (
	dialectData = filepath.Join("..", "testdata", "dialects")
	dialectRoom = filepath.Join("..", "invariants", "dialects")
)

// clientAtFrame is the Client pane's plain view with the cursor on the
// row of frame n (the last row when n < 0).
func clientAtFrame(t *testing.T, m *Model, n int) string {
	t.Helper()
	row := m.Store().Len() - 1
	if n >= 0 {
		row = m.Store().RowOfFrame(n)
	}
	m.client.SetSize(100, 40)
	return clientView(m, row)
}

// wantInOrder fails unless every part appears in v, in order.
func wantInOrder(t *testing.T, v string, parts ...string) {
	t.Helper()
	at := 0
	for _, p := range parts {
		i := strings.Index(v[at:], p)
		if i < 0 {
			t.Fatalf("%q missing (in order) from:\n%s", p, v)
		}
		at += i + len(p)
	}
}

// Issue 23 item 1: openai-chat n > 1 shows one bubble per choice, each as
// of the cursor, never the two interleaved.
func TestClientChoicesApart(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectData, "openai-chat", "valid-two-choices.sse"), 160, 48, true)
	end := clientAtFrame(t, m, -1)
	wantInOrder(t, end, "completed (stop at frame 17)", "choice 0 · 25 bytes in 7 deltas", "Haiku one: snow on pines.",
		"choice 1 · 24 bytes in 7 deltas", "Haiku two: a frog jumps.")
	if strings.Contains(end, "HaikuHaiku") {
		t.Fatalf("choices interleaved:\n%s", end)
	}
	// The Status pane's text keeps them apart too.
	st := ansi.Strip(m.panes[PaneStatus].View())
	wantInOrder(t, st, "choice 0", "Haiku one: snow on pines.", "choice 1", "Haiku two: a frog jumps.")
	// Time travel: frame 5 carries choice 1's " two".
	mid := clientAtFrame(t, m, 5)
	wantInOrder(t, mid, "streaming", "choice 0", "Haiku one", "choice 1", "Haiku two")
	if strings.Contains(mid, "snow") || strings.Contains(mid, "completed") {
		t.Fatalf("frame 5 shows later text or the end:\n%s", mid)
	}
}

// Anthropic: one bubble per content block; AG-UI: one per message — no
// text of two joined without a separator.
func TestClientBlocksAndMessagesApart(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectRoom, "agui", "demo_happy.sse"), 160, 48, true)
	v := clientAtFrame(t, m, -1)
	wantInOrder(t, v, "message msg_b1 · assistant", "message msg_b2 · assistant")
	m = loadModel(t, filepath.Join(dialectRoom, "anthropic", "demo_happy.sse"), 160, 48, true)
	v = clientAtFrame(t, m, -1)
	if n := strings.Count(v, "block "); n < 2 {
		t.Fatalf("%d content blocks shown, want one bubble per text block:\n%s", n, v)
	}
}

// chunk-framed: a product carousel's JSON and an image's URL are
// components, not text.
func TestClientComponentsApartFromText(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectRoom, "chunkframed", "demo_happy.sse"), 160, 48, true)
	v := clientAtFrame(t, m, m.Store().Turns[0].LastFrame) // turn 1: the carousel, the image
	comps := strings.Index(v, "components")
	if comps < 0 {
		t.Fatalf("no components section:\n%s", v)
	}
	if text := v[:comps]; strings.Contains(text, `"sku"`) || strings.Contains(text, "https://") {
		t.Fatalf("card JSON or image URL in a text bubble:\n%s", v)
	}
	wantInOrder(t, v[comps:], "stream msg-01J2K7C · product_carousel · 3 chunks")
	if !strings.Contains(v[comps:], "· image") {
		t.Fatalf("the image stream is not a component:\n%s", v)
	}
}

// Issue 23 item 2: calls complete at finish_reason "tool_calls" are
// ready (handed to the client), not running; the end names the frame of
// the finish_reason chunk, not [DONE].
func TestClientToolsReadyAtToolCalls(t *testing.T) {
	m := loadModel(t, filepath.Join(dialectRoom, "openaichat", "demo_happy.sse"), 160, 48, true)
	v := clientAtFrame(t, m, -1)
	wantInOrder(t, v, "completed (tool_calls at frame 29)", "get_forecast → ready")
	if strings.Contains(v, "running") {
		t.Fatalf("a finished call shown running:\n%s", v)
	}
	tools := ansi.Strip(m.panes[PaneTools].View())
	if !strings.Contains(tools, "ready") || strings.Contains(tools, "open") {
		t.Fatalf("Tools pane:\n%s", tools)
	}
	if title := m.panes[PaneTools].Title(); strings.Contains(title, "open") {
		t.Fatalf("Tools title %q counts ready calls as open", title)
	}
	// Before the finish_reason chunk the calls still stream their
	// arguments.
	if v := clientAtFrame(t, m, 28); !strings.Contains(v, "get_forecast ▶ running") {
		t.Fatalf("frame 28:\n%s", v)
	}
}

// A bubble breaks lines where its text does, as a client renders it;
// other control bytes stay escaped, and thinking is drawn apart.
func TestBubbleLinesBreakAtNewlines(t *testing.T) {
	sty := NewStyles(true, true)
	bs := []store.Bubble{
		{Label: "reasoning", Reasoning: true, Text: "think\nmore", Total: 10, Deltas: 2},
		{Text: "para one\n\npara\x1b[2J two", Total: 22, Deltas: 1},
	}
	got := strings.Join(bubbleLines(bs, 40, sty), "\n")
	wantInOrder(t, ansi.Strip(got), "reasoning · 10 bytes in 2 deltas", "think\nmore", "text · 22 bytes", "para one\n\npara\\x1b[2J two")
	if strings.Contains(got, "\x1b[2J") {
		t.Fatalf("escape reached the pane: %q", got)
	}
}
