package ui

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"framescope/invariants"
	"framescope/sessions/replay"
	"framescope/ui/store"
)

// fakeRestarter records what the model asked for.
type fakeRestarter struct {
	scenarios []replay.Scenario
	err       error
	restarts  []string // "gen:scenario"
	cancels   int
}

func (f *fakeRestarter) Restart(gen int, scenario string) (string, error) {
	f.restarts = append(f.restarts, strings.Join([]string{string(rune('0' + gen)), scenario}, ":"))
	if f.err != nil {
		return "", f.err
	}
	if scenario == "" {
		return "same", nil
	}
	return "demo " + scenario, nil
}

func (f *fakeRestarter) Scenarios() []replay.Scenario { return f.scenarios }
func (f *fakeRestarter) Cancel()                      { f.cancels++ }

// liveModel is a live model over a restarter, with a whole capture applied
// as session 1's batches.
func liveModel(t *testing.T, r Restarter) (*Model, []*store.Batch) {
	t.Helper()
	dark := true
	m := NewModel("demo happy", true, Config{Dark: &dark, Now: func() time.Time { return fixedNow }, Cancel: r.Cancel, Restarter: r})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	var bs []*store.Batch
	for _, msg := range feedAll(t, openSource(t, filepath.Join(examples, "example-happy.jsonl"))) {
		b := msg.(batchMsg).b
		bs = append(bs, b)
		m.Update(genBatchMsg{gen: 1, b: b})
	}
	if m.Store().Frames == 0 {
		t.Fatal("session 1 applied nothing")
	}
	return m, bs
}

func TestReconnectSwapsInAFreshStore(t *testing.T) {
	fr := &fakeRestarter{}
	m, bs := liveModel(t, fr)
	old := m.Store()
	press(m, "j", "/") // a moved cursor and a search being typed…
	press(m, "esc")
	_, cmd := m.Update(keyMsg("r"))
	if cmd == nil {
		t.Fatal("r gave no command")
	}
	st := m.Store()
	if st == old || st.Len() != 0 || m.Selected() != -1 {
		t.Fatalf("not a fresh store: %d rows, selected %d", st.Len(), m.Selected())
	}
	if scr := screen(m); !strings.Contains(scr, "session 2") {
		t.Errorf("header does not mark session 2:\n%s", scr)
	}
	// The old session's last batches still arrive: they are dropped.
	for _, b := range bs {
		m.Update(genBatchMsg{gen: 1, b: b})
	}
	if st.Len() != 0 || old.Frames == 0 {
		t.Fatalf("a stale batch reached the new store: %d rows", st.Len())
	}
	// The runner's answer, then session 2's batches.
	m.Update(cmd())
	if len(fr.restarts) != 1 || fr.restarts[0] != "2:" {
		t.Errorf("restarts %v", fr.restarts)
	}
	for _, b := range bs {
		m.Update(genBatchMsg{gen: 2, b: b})
	}
	if st.Frames != old.Frames || m.Selected() < 0 {
		t.Errorf("session 2: %d frames (session 1 had %d), selected %d", st.Frames, old.Frames, m.Selected())
	}
	if scr := screen(m); !strings.Contains(scr, "same session 2") {
		t.Errorf("header after the restart:\n%s", scr)
	}
}

func TestRestartSupersededAndFailed(t *testing.T) {
	fr := &fakeRestarter{}
	m, _ := liveModel(t, fr)
	_, c2 := m.Update(keyMsg("r"))
	_, c3 := m.Update(keyMsg("r"))
	// Session 3's answer first, then session 2's late one: ignored.
	m.Update(c3())
	m.Update(c2())
	if m.rs.gen != 3 || !strings.Contains(screen(m), "same session 3") {
		t.Errorf("gen %d:\n%s", m.rs.gen, screen(m))
	}
	fr.err = errors.New("connect: refused\x1b[2J")
	_, c4 := m.Update(keyMsg("r"))
	m.Update(c4())
	st := m.Store()
	if st.End == nil || st.End.Kind != "error" || strings.Contains(st.End.Detail, "\x1b") {
		t.Errorf("a failed start: end %+v", st.End)
	}
	if scr := screen(m); !strings.Contains(scr, "ended: error") {
		t.Errorf("header:\n%s", scr)
	}
}

func TestScenarioPickerOverlay(t *testing.T) {
	fr := &fakeRestarter{scenarios: replay.Scenarios()}
	m, _ := liveModel(t, fr)
	press(m, "s")
	scr := screen(m)
	if !strings.Contains(scr, "Run another scenario") || !strings.Contains(scr, "axis1") || !strings.Contains(scr, "esc clear / back") {
		t.Fatalf("no picker:\n%s", scr)
	}
	if strings.Contains(scr, "q quit") {
		t.Errorf("the footer offers q, which types into the filter:\n%s", scr)
	}
	// esc closes it and nothing restarts.
	press(m, "esc")
	if m.rs.pick != nil || len(fr.restarts) != 0 || m.rs.gen != 1 {
		t.Fatalf("esc: pick %v restarts %v", m.rs.pick != nil, fr.restarts)
	}
	// ctrl+c in the picker quits the program, as its help line says.
	press(m, "s")
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}); cmd == nil {
		t.Error("ctrl+c in the picker did not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("ctrl+c in the picker did not quit")
	}
	press(m, "esc")
	// Typed keys filter: s types, it does not reopen.
	press(m, "s")
	m.Update(tea.PasteMsg{Content: "axi"})
	press(m, "s", "1")
	_, cmd := m.Update(keyMsg("enter"))
	if cmd == nil || m.rs.pick != nil {
		t.Fatalf("enter did not choose: %s", screen(m))
	}
	m.Update(cmd())
	if len(fr.restarts) != 1 || fr.restarts[0] != "2:axis1" {
		t.Errorf("restarts %v", fr.restarts)
	}
	if scr := screen(m); !strings.Contains(scr, "demo axis1 session 2") {
		t.Errorf("header:\n%s", scr)
	}
}

func TestNoRestartWithoutARestarter(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 120, 40, true)
	rows := m.Store().Len()
	for _, k := range []string{"r", "s"} {
		// Only the footer's answer (why not), which expires.
		if _, cmd := m.Update(keyMsg(k)); cmd == nil || !strings.HasPrefix(m.notice, k+": ") {
			t.Errorf("%s on a capture: notice %q", k, m.notice)
		}
	}
	if m.rs.gen != 1 || m.rs.pick != nil || m.Store().Len() != rows {
		t.Errorf("a capture restarted: gen %d", m.rs.gen)
	}
	press(m, "?")
	if scr := screen(m); strings.Contains(scr, "reconnect") {
		t.Errorf("help offers reconnect on a capture:\n%s", scr)
	}
	// A live connection (no scenarios) reconnects but has no scenario key.
	lm, _ := liveModel(t, &fakeRestarter{})
	if lm.Update(keyMsg("s")); lm.rs.pick != nil || !strings.HasPrefix(lm.notice, "s: scenarios switch only in demo") {
		t.Error("s opened a picker on a connect session")
	}
}

// sourceLog records what the test sources did, in order.
type sourceLog struct {
	mu     sync.Mutex
	events []string
}

func (l *sourceLog) add(s string) {
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
}

func (l *sourceLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.events, " ")
}

// blockingSource is a live source that streams nothing and ends, the
// client-disconnect way, when its context is cancelled.
func blockingSource(name string, log *sourceLog) store.Source {
	return store.Source{Name: name, Live: true, Run: func(ctx context.Context, f *store.Feeder) {
		log.add("start " + name)
		f.SetConn(store.ConnUpdate{State: store.ConnOpen, HTTPStatus: 200})
		<-ctx.Done()
		log.add("cancelled " + name)
		f.Finish(invariants.End{Kind: "cancelled"}, nil)
	}}
}

func TestRunnerRestartCancelsTheOldStreamFirst(t *testing.T) {
	var log sourceLog
	msgs := make(chan tea.Msg, 100)
	r := &runner{send: func(m tea.Msg) { msgs <- m }, interval: time.Millisecond,
		newSource: func(gen int, scenario string) (store.Source, error) {
			log.add("new " + scenario)
			return blockingSource(scenario, &log), nil
		}}
	r.launch(1, blockingSource("one", &log))
	recv := func() genBatchMsg {
		t.Helper()
		select {
		case m := <-msgs:
			return m.(genBatchMsg)
		case <-time.After(e2eTimeout):
			t.Fatalf("no batch; sources: %s", log.String())
		}
		return genBatchMsg{}
	}
	if b := recv(); b.gen != 1 || b.b.Conn == nil {
		t.Fatalf("first batch %#v", b)
	}
	title, err := r.Restart(2, "two")
	if err != nil || title != "two" {
		t.Fatalf("restart: %q %v", title, err)
	}
	// The old stream was cancelled (and finished) before the new source was made.
	if got := log.String(); !strings.HasPrefix(got, "start one cancelled one new two") {
		t.Errorf("order: %s", got)
	}
	var gens []int
	for len(gens) < 2 {
		gens = append(gens, recv().gen)
	}
	if gens[0] != 1 || gens[1] != 2 {
		t.Errorf("batch generations %v: want the old session's end, then session 2", gens)
	}
	// A restart older than the running session does nothing.
	if _, err := r.Restart(2, "late"); err != nil || strings.Contains(log.String(), "late") {
		t.Errorf("a stale restart ran: %s", log.String())
	}
	r.Cancel()
	if b := recv(); b.gen != 2 || b.b.End == nil || b.b.End.Kind != "cancelled" {
		t.Errorf("cancel: %#v", b)
	}
	r.shutdown()
	if _, err := r.Restart(3, "after"); err != nil || strings.Contains(log.String(), "after") {
		t.Errorf("a restart after shutdown ran: %s", log.String())
	}
}

func TestNumberedPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		gen  int
		want string
	}{
		{"", 3, ""},
		{"turn.jsonl", 1, "turn.jsonl"},
		{"turn.jsonl", 2, "turn-2.jsonl"},
		{"dir/turn", 3, "dir/turn-3"},
	} {
		if got := numberedPath(tc.path, tc.gen); got != tc.want {
			t.Errorf("numberedPath(%q, %d) = %q, want %q", tc.path, tc.gen, got, tc.want)
		}
	}
}

// TestE2EDemoScenarioPicker drives the real program through a demo: happy
// streams, the scenario key opens the picker, axis1 is chosen and runs as
// session 2 on a fresh store.
func TestE2EDemoScenarioPicker(t *testing.T) {
	var outs outcomes
	d := DemoOptions{Scenario: "happy", Speed: 0}
	r := &runner{newSource: demoSessions(d, &outs), scenarios: replay.Scenarios()}
	cfg := darkCfg()
	cfg.Cancel, cfg.Restarter = r.Cancel, r
	m := NewModel("demo happy", true, cfg)
	tm := newTestProgram(t, m, 140, 40)
	r.send = tm.Send
	src, err := r.newSource(1, "")
	if err != nil {
		t.Fatal(err)
	}
	r.launch(1, src)
	defer r.shutdown()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("completed + [DONE]"))
	}, teatest.WithDuration(e2eTimeout))
	tm.Type("s")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Run another scenario"))
	}, teatest.WithDuration(e2eTimeout))
	tm.Type("axis1")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	// The picker's own text names SUB_AGENT_FAILED too: wait for the
	// timeline's row of the error frame, and for session 2 to have ended.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("is_final=true")) && bytes.Contains(b, []byte("session 2")) &&
			bytes.Contains(b, []byte("ended: eof"))
	}, teatest.WithDuration(e2eTimeout))
	fm := finalModel(t, tm)
	st := fm.Store()
	if fm.source != "demo axis1" || fm.rs.gen != 2 {
		t.Errorf("source %q gen %d", fm.source, fm.rs.gen)
	}
	if len(st.Turns) != 1 || st.Turns[0].Terminal.String() != "error" {
		t.Fatalf("session 2 turns %+v", st.Turns)
	}
	if scr := screen(fm); !strings.Contains(scr, "demo axis1 session 2") || !strings.Contains(scr, "SUB_AGENT_FAILED") {
		t.Errorf("screen:\n%s", scr)
	}
	r.shutdown()
	all := outs.list()
	if len(all) != 2 || all[0].Result == nil || all[1].Result == nil {
		t.Fatalf("outcomes %+v", all)
	}
	if all[0].Result.Report.Frames == st.Frames || all[1].Result.Report.Frames != st.Frames {
		t.Errorf("the fresh store holds session 2 only: %d frames; reports %d, %d",
			st.Frames, all[0].Result.Report.Frames, all[1].Result.Report.Frames)
	}
}
