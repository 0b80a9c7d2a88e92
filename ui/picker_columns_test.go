package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/library"
)

// Issue 23 item 9: at 120 columns the session picker shows each session's
// URL or scenario and its dialect readably, whatever its other columns.
func TestSessionPickerColumnsAt120(t *testing.T) {
	lib := &library.Library{Dir: filepath.Join(t.TempDir(), "sessions")}
	t0 := time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC)
	add := func(at time.Time, url, source, dialect, flavor, end string) {
		id, f, err := lib.Create(at)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		term := "completed"
		turns := []library.TurnSummary{{ResponseID: "r", Terminal: &term, Done: true}}
		turns = append(turns, turns[0], turns[0])
		if err := lib.Finish(library.SessionMeta{ID: id, URL: url, Method: "POST", Source: source, StartedAt: at,
			Duration: 61 * time.Second, Frames: 123456, Counts: invariants.Counts{Error: 12, Warn: 340, Info: 5},
			End: end, Dialect: dialect, Flavor: flavor, Turns: turns}); err != nil {
			t.Fatal(err)
		}
	}
	add(t0, "https://api.openrouter.example/api/v1/chat/completions?stream=true&session=4f1c2a", "connect", "openai-chat", "openrouter",
		"error: read tcp 127.0.0.1:50312->10.0.0.1:443: connection reset by peer")
	add(t0.Add(time.Minute), "http://127.0.0.1:41234/demo", "demo:anthropic-messages", "anthropic-messages", "", "eof")
	s := newTestPicker(t, lib, 120, 30)
	scr := pickerScreen(s)
	for _, want := range []string{
		"https://api.openrou…=true&session=4f1c2a", "openai-chat (openrouter)",
		"demo anthropic-messages", "anthropic-messages ", "E/W/I 12/340/5",
	} {
		if !strings.Contains(scr, want) {
			t.Errorf("120-column picker lacks %q:\n%s", want, scr)
		}
	}
}
