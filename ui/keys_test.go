package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/ui/store"
)

// The everyday keys (issue 12) at the Update level: t/T from any pane,
// enter/esc between the Timeline and the Detail, q in help, the keys that
// cannot apply saying why, --max-time.

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestDetailTabFromAnyPane(t *testing.T) {
	for _, tc := range []struct {
		name   string
		w, h   int
		notice bool // the Detail is out of sight: the footer names the tab
	}{{"grid", 120, 40, false}, {"tabbed", 90, 28, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), tc.w, tc.h, true)
			press(m, "j")
			for _, step := range []struct {
				key  string
				want DetailTab
			}{{"t", TabRaw}, {"t", TabAlarms}, {"T", TabRaw}, {"T", TabJSON}, {"T", TabHTTP}, {"]", TabJSON}, {"[", TabHTTP}} {
				press(m, step.key)
				if m.detail.tab != step.want || m.Focused() != PaneTimeline {
					t.Fatalf("%s: tab %v focus %v, want tab %v on the Timeline", step.key, m.detail.tab, m.Focused(), step.want)
				}
			}
			if got := strings.Contains(screen(m), "Detail tab: HTTP"); got != tc.notice {
				t.Errorf("footer names the tab: %v, want %v\n%s", got, tc.notice, screen(m))
			}
			// From another pane too.
			press(m, "tab", "tab", "t")
			if m.Focused() != PaneAlarms || m.detail.tab != TabJSON {
				t.Errorf("from the Alarms pane: focus %v tab %v", m.Focused(), m.detail.tab)
			}
		})
	}
}

func TestEnterOpensDetailEscGoesBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
		want string // on screen once the Detail is open
	}{
		{"grid", 120, 40, "Detail · frame "},
		{"tabbed", 90, 28, " JSON │ Raw │"}, // the Detail's own tabs fill the body
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), tc.w, tc.h, true)
			press(m, "j", "j", "j", "enter")
			if m.Focused() != PaneDetail || m.Selected() != 3 {
				t.Fatalf("enter: focus %v row %d", m.Focused(), m.Selected())
			}
			scr := screen(m)
			if !strings.Contains(scr, tc.want) || !strings.Contains(scr, "esc back to Timeline") {
				t.Errorf("the Detail is not shown:\n%s", scr)
			}
			if m.wide != (tc.name == "grid") {
				t.Errorf("layout: wide %v", m.wide)
			}
			// enter in the Detail expands (as before), esc goes back.
			press(m, "enter")
			if !m.detail.expand || m.Focused() != PaneDetail {
				t.Errorf("enter in the Detail: expand %v focus %v", m.detail.expand, m.Focused())
			}
			press(m, "esc")
			if m.Focused() != PaneTimeline || m.Selected() != 3 {
				t.Errorf("esc: focus %v row %d", m.Focused(), m.Selected())
			}
			if !strings.Contains(screen(m), "enter open in Detail") {
				t.Errorf("the Timeline's footer does not offer enter:\n%s", screen(m))
			}
		})
	}
}

// TestEscInDetailBeforeSearch: esc in the Detail goes back first; the
// next esc (on the Timeline) ends the search.
func TestEscInDetailBeforeSearch(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 120, 40, true)
	pressCmd(m, "/")
	for _, r := range "text" {
		pressCmd(m, string(r))
	}
	pressCmd(m, "enter")
	if m.sh.query != "text" {
		t.Fatalf("query %q", m.sh.query)
	}
	press(m, "enter", "esc")
	if m.Focused() != PaneTimeline || m.sh.query != "text" {
		t.Fatalf("esc in the Detail: focus %v query %q", m.Focused(), m.sh.query)
	}
	press(m, "esc")
	if m.sh.query != "" {
		t.Errorf("esc on the Timeline kept the search %q", m.sh.query)
	}
}

func TestEnterWithNothingSelected(t *testing.T) {
	m := NewModel("empty", false, darkCfg())
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "enter")
	if m.Focused() != PaneTimeline || !strings.Contains(screen(m), "enter: no row selected") {
		t.Errorf("focus %v\n%s", m.Focused(), screen(m))
	}
}

func TestHelpKeys(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 120, 40, true)
	for _, close := range []string{"q", "esc", "?"} {
		press(m, "?")
		if !m.showHelp {
			t.Fatal("? did not open help")
		}
		scr := strings.Join(strings.Fields(screen(m)), " ") // the columns' padding squeezed
		for _, want := range []string{"q/esc close help", "ctrl+c quit from anywhere", "enter open in Detail", "esc back to Timeline", "t next Detail tab"} {
			if !strings.Contains(scr, want) {
				t.Errorf("help lacks %q:\n%s", want, scr)
			}
		}
		_, cmd := m.Update(keyMsg(close))
		if m.showHelp || isQuit(cmd) {
			t.Errorf("%s in help: open %v quit %v", close, m.showHelp, isQuit(cmd))
		}
	}
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Error("q outside help did not quit")
	}
	ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	for _, open := range []string{"?", "/", "F", "w"} {
		m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 120, 40, true)
		press(m, open)
		if _, cmd := m.Update(ctrlC); !isQuit(cmd) {
			t.Errorf("ctrl+c after %s did not quit", open)
		}
	}
}

// TestUnavailableKeysSayWhy: x, r and s where they cannot apply answer in
// the footer for a few seconds instead of doing nothing.
func TestUnavailableKeysSayWhy(t *testing.T) {
	now := fixedNow
	clock := func() time.Time { return now }
	capture := func() *Model {
		m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 120, 40, true)
		m.clock = clock
		return m
	}
	ended := func() *Model {
		m, _ := liveModel(t, &fakeRestarter{})
		m.clock = clock
		return m
	}
	for _, tc := range []struct {
		name, key, want string
		model           func() *Model
	}{
		{"capture x", "x", "x: nothing to cancel — this is a recorded capture", capture},
		{"capture r", "r", "r: reconnect needs a live connection — this is a recorded capture", capture},
		{"capture s", "s", "s: scenarios switch only in demo — this is a recorded capture", capture},
		{"ended x", "x", "x: nothing to cancel — the stream already ended (r reconnects)", ended},
		{"live s", "s", "s: scenarios switch only in demo — this is a live connection", ended},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.model()
			gen := m.rs.gen
			_, cmd := m.Update(keyMsg(tc.key))
			if cmd == nil || m.rs.gen != gen || m.rs.pick != nil {
				t.Fatalf("cmd %v gen %d pick %v", cmd != nil, m.rs.gen, m.rs.pick != nil)
			}
			if !strings.Contains(screen(m), tc.want) {
				t.Fatalf("footer lacks %q:\n%s", tc.want, screen(m))
			}
			// Another key within the few seconds keeps it.
			now = now.Add(time.Second)
			press(m, "j")
			if !strings.Contains(screen(m), tc.want) {
				t.Errorf("a key wiped the notice at once:\n%s", screen(m))
			}
			// Its expiry clears it; a stale expiry does not clear a newer one.
			m.Update(noticeExpiredMsg{seq: m.noticeSeq - 1})
			if !strings.Contains(screen(m), tc.want) {
				t.Errorf("a stale expiry cleared the notice")
			}
			m.Update(noticeExpiredMsg{seq: m.noticeSeq})
			if strings.Contains(screen(m), tc.want) {
				t.Errorf("still shown after it expired:\n%s", screen(m))
			}
			// After the few seconds, the next key replaces it.
			press(m, tc.key)
			now = now.Add(flashFor)
			press(m, "k")
			if m.notice != "" {
				t.Errorf("notice %q after %v", m.notice, flashFor)
			}
			// A plain notice that replaced a timed one goes with the next key.
			press(m, tc.key, "f")
			if !strings.HasPrefix(m.notice, "follow") {
				t.Fatalf("f: notice %q", m.notice)
			}
			press(m, "j")
			if m.notice != "" {
				t.Errorf("a plain notice outlived its key: %q", m.notice)
			}
		})
	}
}

func TestMaxTimeCancelsLikeX(t *testing.T) {
	cancels := 0
	m := NewModel("live", true, Config{Cancel: func() { cancels++ }, MaxTime: 30 * time.Second, Now: func() time.Time { return fixedNow }})
	if m.Init() == nil {
		t.Fatal("no timer")
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(batchMsg{&store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen, HTTPStatus: 200}}})
	m.Update(maxTimeMsg{gen: 2}) // another session's: ignored
	if cancels != 0 || m.cancelled {
		t.Fatalf("a stale --max-time cancelled")
	}
	m.Update(maxTimeMsg{gen: 1})
	if cancels != 1 || !m.cancelled || !strings.Contains(screen(m), "stopped: --max-time 30s") {
		t.Fatalf("cancels %d\n%s", cancels, screen(m))
	}
	m.Update(maxTimeMsg{gen: 1})
	press(m, "x")
	if cancels != 1 {
		t.Errorf("cancelled twice: %d", cancels)
	}
	m.Update(batchMsg{&store.Batch{End: &invariants.End{Kind: "cancelled"}}})
	if s := screen(m); !strings.Contains(s, "stopped: --max-time 30s (cancelled)") {
		t.Errorf("header after the end:\n%s", s)
	}
	// Ended before the limit: nothing to do.
	m2 := NewModel("live", true, Config{Cancel: func() { cancels++ }, MaxTime: time.Second})
	m2.Update(batchMsg{&store.Batch{End: &invariants.End{Kind: "eof"}}})
	m2.Update(maxTimeMsg{gen: 1})
	if cancels != 1 || m2.stopped != "" {
		t.Errorf("--max-time after the end: cancels %d stopped %q", cancels, m2.stopped)
	}
	// No limit, or a capture: no timer.
	if NewModel("live", true, Config{Cancel: func() {}}).maxTimer() != nil ||
		NewModel("file", false, Config{MaxTime: time.Second}).maxTimer() != nil {
		t.Error("a timer without a limit or on a capture")
	}
}

// TestMaxTimePerSession: a reconnect starts a new --max-time; the old
// session's timer does not stop the new one.
func TestMaxTimePerSession(t *testing.T) {
	fr := &fakeRestarter{}
	m, _ := liveModel(t, fr)
	m.maxTime = time.Minute
	_, cmd := m.Update(keyMsg("r"))
	if cmd == nil || m.rs.gen != 2 {
		t.Fatalf("r: gen %d", m.rs.gen)
	}
	m.Update(genBatchMsg{gen: 2, b: &store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen, HTTPStatus: 200}}})
	m.Update(maxTimeMsg{gen: 1})
	if m.cancelled || fr.cancels != 0 {
		t.Fatal("session 1's --max-time stopped session 2")
	}
	m.Update(maxTimeMsg{gen: 2})
	if !m.cancelled || fr.cancels != 1 || m.stopped != "stopped: --max-time 1m0s" {
		t.Errorf("session 2: cancelled %v cancels %d stopped %q", m.cancelled, fr.cancels, m.stopped)
	}
}
