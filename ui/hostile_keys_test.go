package ui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// hostileKey is a JSON object key that tries to reach the terminal: an SGR
// colour, a screen clear, a bidi override and concealed text, JSON-escaped
// as a frame carries it. The Timeline's summary draws keys beside values.
const hostileKey = `\u001b[31mRED\u001b[2J\u202eBIDI\u001b[8m`

// hostileKeyCaptures are one PC3 and one openai-chat stream whose object
// keys, top-level and nested, are hostile.
var hostileKeyCaptures = map[string]string{
	"pc3.sse": "event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"r1\",\"chunk\":\"hi\",\"" + hostileKey + "\":1,\"n\":{\"" + hostileKey + "k\":\"v\"}}\n\n" +
		"event: completed\ndata: {\"event_type\":\"completed\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.100Z\",\"response_id\":\"r1\"}\n\n" +
		"data: [DONE]\n\n",
	"openai-chat.sse": "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"hi\",\"" + hostileKey + "\":\"x\"},\"finish_reason\":null}],\"" + hostileKey + "\":{\"" + hostileKey + "name\":2}}\n\n" +
		"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"" + hostileKey + "\":1}\n\n" +
		"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: [DONE]\n\n",
}

// TestE2EHostileKeysAreTerminalSafe drives the real program over streams
// whose keys are hostile, visits every row with every detail tab and every
// pane, and checks that no escape or bidi control from a key reaches the
// terminal (TestMovesSummarySanitizesKeys checks the key is still shown).
func TestE2EHostileKeysAreTerminalSafe(t *testing.T) {
	for name, body := range hostileKeyCaptures {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			m := NewModel(path, false, darkCfg())
			tm := newTestProgram(t, m, 160, 48)
			f := start(context.Background(), openSource(t, path), tm.Send, 0)
			waitSent(t, f)
			for i := 0; i < 4; i++ {
				tm.Type("ttt")
				tm.Type("j")
			}
			tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
			for i := 0; i < 6; i++ {
				tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
			}
			tm.Type("?")
			fm := finalModel(t, tm)
			raw, err := io.ReadAll(tm.FinalOutput(t))
			if err != nil {
				t.Fatal(err)
			}
			out := string(raw)
			if fm.Store().Frames < 2 {
				t.Fatalf("only %d frames", fm.Store().Frames)
			}
			for _, bad := range []string{"\x1b[31mRED", "RED\x1b[2J", "\u202e", "BIDI\x1b[8m"} {
				if strings.Contains(out, bad) {
					t.Errorf("raw output contains %q", bad)
				}
			}
			checkOwnSequences(t, out)
		})
	}
}
