package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"framescope/invariants"
	"framescope/sessions/library"
)

// addSession saves a finished session in lib and returns its ID.
func addSession(t *testing.T, lib *library.Library, started time.Time, url string, frames int, terminal string, counts invariants.Counts) string {
	t.Helper()
	id, f, err := lib.Create(started)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	term := terminal
	meta := library.SessionMeta{ID: id, URL: url, Method: "POST", Source: "connect", StartedAt: started,
		Duration: 1500 * time.Millisecond, Frames: frames, Counts: counts, End: "eof",
		Turns: []library.TurnSummary{{ResponseID: "r", Terminal: &term, Done: true}}}
	if err := lib.Finish(meta); err != nil {
		t.Fatal(err)
	}
	return id
}

// newTestPicker is the session picker at w×h with the library loaded.
func newTestPicker(t *testing.T, lib *library.Library, w, h int) *SessionPicker {
	t.Helper()
	s := NewSessionPicker(lib, darkCfg())
	s.Update(tea.WindowSizeMsg{Width: w, Height: h})
	msg := s.Init()() // dark is known: Init is the library load alone
	if _, ok := msg.(libraryMsg); !ok {
		t.Fatalf("Init: %T", msg)
	}
	s.Update(msg)
	return s
}

func pickerScreen(s *SessionPicker) string { return ansi.Strip(s.Render()) }

// pickKeys presses keys on the picker, running the commands they return
// (a path check); it reports whether the program was asked to quit.
func pickKeys(s *SessionPicker, keys ...string) (quit bool) {
	for _, k := range keys {
		msg := tea.Msg(keyMsg(k))
		if len(k) > 1 && !isNamedKey(k) {
			msg = tea.PasteMsg{Content: k}
		}
		_, cmd := s.Update(msg)
		for cmd != nil {
			out := cmd()
			if _, ok := out.(tea.QuitMsg); ok {
				return true
			}
			_, cmd = s.Update(out)
		}
	}
	return false
}

func isNamedKey(k string) bool {
	switch k {
	case "enter", "esc", "tab", "shift+tab", "up", "down", "pgdown", "pgup", "backspace":
		return true
	}
	return false
}

func testLibrary(t *testing.T) (*library.Library, []string) {
	t.Helper()
	lib := &library.Library{Dir: filepath.Join(t.TempDir(), "sessions")}
	t0 := time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC)
	old := addSession(t, lib, t0, "http://127.0.0.1:7070/api/chat", 15, "completed", invariants.Counts{Info: 1})
	// The newest session's URL tries to reach the terminal.
	newer := addSession(t, lib, t0.Add(time.Hour), "http://evil/\x1b[2J\x1b]52;c;aGk=\x07\u202e", 9, "error", invariants.Counts{Error: 2, Warn: 1})
	return lib, []string{newer, old}
}

func TestSessionPickerListsLibraryAndScenarios(t *testing.T) {
	lib, ids := testLibrary(t)
	s := newTestPicker(t, lib, 160, 30)
	scr := pickerScreen(s)
	for _, want := range []string{"Recent sessions", ids[0], ids[1], "15 frames", "1 turn", "completed", "E/W/I 2/1/0",
		"http://127.0.0.1:7070/api/chat", "Scenarios", "axis1", "SUB_AGENT_FAILED", "type to filter"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	// Newest first.
	if strings.Index(scr, ids[0]) > strings.Index(scr, ids[1]) {
		t.Errorf("sessions not newest first:\n%s", scr)
	}
	// The hostile URL is shown escaped, never raw.
	raw := s.Render()
	for _, bad := range []string{"\x1b[2J", "\x1b]52", "\u202e", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Errorf("raw screen contains %q", bad)
		}
	}
	if !strings.Contains(scr, "http://evil/") {
		t.Errorf("the hostile session is not listed:\n%s", scr)
	}
	for i, l := range strings.Split(s.Render(), "\n") {
		if w := ansi.StringWidth(l); w != 160 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
	if n := len(strings.Split(s.Render(), "\n")); n != 30 {
		t.Errorf("%d lines, want 30", n)
	}
}

func TestSessionPickerChoose(t *testing.T) {
	capture := filepath.Join(t.TempDir(), "turn.jsonl")
	if err := os.WriteFile(capture, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, ids := testLibrary(t)
	for _, tc := range []struct {
		name  string
		keys  []string
		kind  PickKind
		value string
	}{
		{"first entry is the newest session", []string{"enter"}, PickSession, ids[0]},
		{"down to the older session", []string{"down", "enter"}, PickSession, ids[1]},
		{"down past the sessions to the first scenario", []string{"down", "down", "enter"}, PickScenario, "happy"},
		{"up stops at the top", []string{"up", "up", "enter"}, PickSession, ids[0]},
		{"filter to a scenario", []string{"axis1", "enter"}, PickScenario, "axis1"},
		{"filter by words of the description", []string{"two sub fail", "enter"}, PickScenario, "axis3"},
		{"filter to a session by its URL", []string{"7070", "enter"}, PickSession, ids[1]},
		{"a URL connects", []string{"http://127.0.0.1:9/api/chat", "enter"}, PickURL, "http://127.0.0.1:9/api/chat"},
		{"a path opens", []string{capture, "enter"}, PickPath, capture},
		{"moving within a filter", []string{"axis", "down", "up", "down", "enter"}, PickScenario, "axis2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestPicker(t, lib, 120, 30)
			if !pickKeys(s, tc.keys...) {
				t.Fatalf("no quit after %q:\n%s", tc.keys, pickerScreen(s))
			}
			if c := s.Choice(); c.Kind != tc.kind || c.Value != tc.value {
				t.Errorf("chose %+v, want %v %q", c, tc.kind, tc.value)
			}
		})
	}
}

func TestSessionPickerMissingPathStays(t *testing.T) {
	lib, _ := testLibrary(t)
	s := newTestPicker(t, lib, 120, 30)
	if pickKeys(s, "./no-such-capture.jsonl", "enter") {
		t.Fatal("a missing file quit the picker")
	}
	if c := s.Choice(); c.Kind != PickNone {
		t.Errorf("chose %+v", c)
	}
	if scr := pickerScreen(s); !strings.Contains(scr, "no such file") {
		t.Errorf("no error shown:\n%s", scr)
	}
	// The typed text is still there to fix.
	if pickKeys(s, "backspace") || !strings.Contains(pickerScreen(s), "./no-such-capture.jsonl"[:20]) {
		t.Errorf("input lost:\n%s", pickerScreen(s))
	}
}

func TestSessionPickerEscClearsThenQuits(t *testing.T) {
	lib, _ := testLibrary(t)
	s := newTestPicker(t, lib, 120, 30)
	if pickKeys(s, "axis", "esc") {
		t.Fatal("esc with a filter quit")
	}
	if scr := pickerScreen(s); !strings.Contains(scr, "happy") || !strings.Contains(scr, "type to filter") {
		t.Errorf("esc did not clear the filter:\n%s", scr)
	}
	if !pickKeys(s, "esc") || s.Choice().Kind != PickNone {
		t.Errorf("esc on an empty filter: choice %+v", s.Choice())
	}
	s = newTestPicker(t, lib, 120, 30)
	if pickKeys(s, "q") {
		t.Fatal("q quit the picker: it types into the filter")
	}
	if !strings.Contains(pickerScreen(s), "› q") {
		t.Errorf("q was not typed:\n%s", pickerScreen(s))
	}
	_, cmd := s.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+c did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok || s.Choice().Kind != PickNone {
		t.Errorf("ctrl+c: choice %+v", s.Choice())
	}
}

func TestSessionPickerFilter(t *testing.T) {
	lib, ids := testLibrary(t)
	s := newTestPicker(t, lib, 120, 30)
	pickKeys(s, "axis")
	scr := pickerScreen(s)
	for _, want := range []string{"axis1", "axis2", "axis3"} {
		if !strings.Contains(scr, want) {
			t.Errorf("filter axis lacks %s:\n%s", want, scr)
		}
	}
	for _, not := range []string{"happy", ids[0], "Recent sessions"} {
		if strings.Contains(scr, not) {
			t.Errorf("filter axis shows %s:\n%s", not, scr)
		}
	}
	pickKeys(s, "zzz")
	if scr := pickerScreen(s); !strings.Contains(scr, "Open") || !strings.Contains(scr, "axiszzz") {
		t.Errorf("no match offers the text as a path:\n%s", scr)
	}
	pickKeys(s, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	if scr := pickerScreen(s); !strings.Contains(scr, ids[0]) || !strings.Contains(scr, "happy") {
		t.Errorf("backspace did not restore the list:\n%s", scr)
	}
}

func TestSessionPickerEmptyLibrary(t *testing.T) {
	t.Setenv(library.DataDirEnv, t.TempDir())
	lib, err := library.DefaultLibrary()
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]*library.Library{"empty": lib, "none": nil} {
		s := newTestPicker(t, l, 120, 30)
		scr := pickerScreen(s)
		if !strings.Contains(scr, "Recent sessions") || !strings.Contains(scr, "no saved sessions yet") || strings.Contains(scr, "session library:") {
			t.Errorf("%s library:\n%s", name, scr)
		}
		// The cursor starts on the first scenario.
		if !pickKeys(s, "enter") || s.Choice().Kind != PickScenario || s.Choice().Value != "happy" {
			t.Errorf("%s library: chose %+v", name, s.Choice())
		}
	}
}

func TestSessionPickerScrolls(t *testing.T) {
	lib := &library.Library{Dir: filepath.Join(t.TempDir(), "sessions")}
	t0 := time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC)
	var newest string
	for i := 0; i < 40; i++ {
		newest = addSession(t, lib, t0.Add(time.Duration(i)*time.Minute), "http://h/", i, "completed", invariants.Counts{})
	}
	s := newTestPicker(t, lib, 100, 12)
	if !strings.Contains(pickerScreen(s), newest) {
		t.Fatalf("the newest session is not shown:\n%s", pickerScreen(s))
	}
	pickKeys(s, "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown")
	scr := pickerScreen(s)
	it, _ := s.p.Selected()
	if strings.Contains(scr, newest) || !strings.Contains(scr, strings.TrimSpace(it.Title)) {
		t.Errorf("the window did not follow the cursor to %s:\n%s", it.Title, scr)
	}
	if n := len(strings.Split(s.Render(), "\n")); n != 12 {
		t.Errorf("%d lines, want 12", n)
	}
	for i := 0; i < 60; i++ {
		pickKeys(s, "down")
	}
	if it, _ := s.p.Selected(); it.Kind != PickScenario || !strings.Contains(pickerScreen(s), it.Title) {
		t.Errorf("the last entry %+v is not on screen:\n%s", it, pickerScreen(s))
	}
}
