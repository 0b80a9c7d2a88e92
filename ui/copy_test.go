package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// clipboard runs a copy key and returns what it put on the clipboard.
func clipboard(t *testing.T, m *Model, k string) string {
	t.Helper()
	_, cmd := m.Update(keyMsg(k))
	if cmd == nil {
		t.Fatalf("%s: no command", k)
	}
	return fmt.Sprint(cmd()) // OSC 52's message is the text itself
}

// TestCopySanitizedAndRaw: y used to put a hostile frame's bytes (ESC,
// an OSC 52 of its own, newlines) of any size on the clipboard. Now y
// copies the data sanitized, Y the bytes as received, and both stop at
// copyMax with a notice that says so.
func TestCopySanitizedAndRaw(t *testing.T) {
	hostile := "\x1b]52;c;ZWNobyBwd25lZA==\x07rm -rf ~\u202e\u200b"
	data := frame("response_id", "r", 0, "") +
		"event: text\ndata: {\"event_type\":\"text\",\"chunk\":\"" + hostile + "\"}\ndata: second line\n\n" +
		"event: text\ndata: " + strings.Repeat("x", 1<<20) + "\n\n"
	m := NewModel("hostile", false, Config{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, msg := range feedAll(t, readerSource(t, "hostile.sse", data)) {
		m.Update(msg)
	}
	press(m, "j")
	clip := clipboard(t, m, "y")
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u200b"} {
		if strings.Contains(clip, bad) {
			t.Errorf("y copied a raw %q: %q", bad, clip)
		}
	}
	if !strings.Contains(clip, `\x1b]52;c;`) || !strings.Contains(clip, `\u202e`) || !strings.Contains(clip, "\"}\nsecond line") {
		t.Errorf("y: %q", clip)
	}
	if s := screen(m); !strings.Contains(s, "copied frame 1 (") || !strings.Contains(s, "sanitized) to the clipboard") {
		t.Errorf("y notice:\n%s", s)
	}
	if clip := clipboard(t, m, "Y"); !strings.Contains(clip, hostile) {
		t.Errorf("Y does not copy the bytes as received: %q", clip)
	}
	if s := screen(m); !strings.Contains(s, "raw) to the clipboard") {
		t.Errorf("Y notice:\n%s", s)
	}

	// A 1 MiB frame: cut at copyMax, and the footer says so.
	press(m, "j")
	for _, k := range []string{"y", "Y"} {
		clip := clipboard(t, m, k)
		if len(clip) != copyMax {
			t.Errorf("%s copied %d bytes of the 1 MiB frame, want %d", k, len(clip), copyMax)
		}
		if s := screen(m); !strings.Contains(s, "copied the first 64.0 KiB of frame 2 (1.0 MiB") ||
			!strings.Contains(s, "cut at the clipboard limit") {
			t.Errorf("%s notice:\n%s", k, s)
		}
	}
}
