package ui

import (
	"context"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/replay"
	"framescope/ui/store"
)

// A live program can run several sessions one after the other: reconnect
// (the same request again) and, in the demo, another scenario. Each
// session has a generation; its batches carry it, so that batches still
// in flight from an ended session never reach the next session's store.

// Restarter starts the next session of a live program. The runner
// implements it; the model calls it from a tea.Cmd because it blocks.
type Restarter interface {
	// Restart ends the current session (the client-disconnect way if its
	// stream is still open), waits for it to be saved, and starts session
	// gen: the same request when scenario is "", else that scenario. It
	// returns the new session's title.
	Restart(gen int, scenario string) (title string, err error)
	// Scenarios lists the scenarios a restart may switch to (none: the
	// source is not a demo).
	Scenarios() []replay.Scenario
	// Cancel ends the current session's stream the client-disconnect way.
	Cancel()
}

// genBatchMsg is a batch of one session.
type genBatchMsg struct {
	gen int
	b   *store.Batch
}

// restartedMsg reports how starting session gen went.
type restartedMsg struct {
	gen   int
	title string
	err   error
}

// restartState is the model's part of restarting: the running generation
// and the scenario picker overlay.
type restartState struct {
	r    Restarter
	gen  int     // the session whose batches are applied (1 = the first)
	pick *picker // the scenario picker, while it is open
}

// restartMaxWait bounds how long a restart (or the exit) waits for the
// ended session to be saved.
const restartMaxWait = 5 * time.Second

// reconnect starts a new session with the same request.
func (m *Model) reconnect() tea.Cmd {
	if m.rs.r == nil {
		return nil
	}
	return m.restart("", m.source)
}

// restart swaps in a fresh store for the next generation and asks the
// runner (off the update loop) to end the current session and start it.
// title (sanitized) is the header's until the runner names the session.
func (m *Model) restart(scenario, title string) tea.Cmd {
	m.rs.gen++
	gen := m.rs.gen
	m.freshSession(title)
	m.notice = fmt.Sprintf("starting session %d…", gen)
	r := m.rs.r
	return tea.Batch(func() tea.Msg {
		t, err := r.Restart(gen, scenario)
		return restartedMsg{gen: gen, title: t, err: err}
	}, m.maxTimer()) // each session has its own --max-time
}

// freshSession resets everything that belonged to the previous session:
// the store, the panes' state, the search, the clock. title is sanitized.
func (m *Model) freshSession(title string) {
	m.source = title
	m.sh.st = store.NewStore()
	m.sh.sel = -1
	m.sh.follow = m.live
	m.cancelled = false
	m.stopped = ""
	m.started = m.clock()
	m.now = m.started
	focus := m.focus
	m.newPanes()
	m.focus = PaneTimeline
	m.setFocus(focus)
	m.clearSearch()
	if m.w > 0 {
		m.layout()
	}
}

func (m *Model) restarted(msg restartedMsg) {
	if msg.gen != m.rs.gen {
		return // a later restart superseded it
	}
	if msg.err != nil {
		m.sh.st.Apply(&store.Batch{End: &invariants.End{Kind: invariants.EndError, Detail: decode.Sanitize(msg.err.Error())}})
		m.notice = "session did not start"
		return
	}
	m.source = decode.Sanitize(msg.title)
	m.notice = fmt.Sprintf("session %d", msg.gen)
}

// applyGenBatch applies a batch of the running session and drops the rest.
func (m *Model) applyGenBatch(msg genBatchMsg) {
	if msg.gen == m.rs.gen {
		m.applyBatch(msg.b)
	}
}

// sessionMark is the header's marker of a restarted session.
func (m *Model) sessionMark() string {
	if m.rs.gen <= 1 {
		return ""
	}
	return " " + m.sh.sty.Bold.Render(fmt.Sprintf("session %d", m.rs.gen))
}

// openScenarioPicker shows the demo's scenarios over the panes.
func (m *Model) openScenarioPicker() {
	if m.rs.r == nil {
		return
	}
	scs := m.rs.r.Scenarios()
	if len(scs) == 0 {
		return
	}
	m.rs.pick = newPicker(m.sh.sty, &m.keys, scenarioItems(scs), false)
	m.rs.pick.title = "Run another scenario (a new session)"
	m.rs.pick.SetSize(m.w, max(m.h-headerH-1, 1))
}

// pickKey routes a key to the scenario picker.
func (m *Model) pickKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.rs.pick
	res := p.key(msg)
	switch {
	case res.quit:
		return tea.Quit
	case res.back:
		m.rs.pick = nil
	case res.chosen != nil:
		m.rs.pick = nil
		return m.restart(res.chosen.Value, decode.Sanitize("demo "+res.chosen.Value))
	}
	return nil
}

// runner owns the running session of a program and starts the next one
// on request.
type runner struct {
	send      func(tea.Msg)
	interval  time.Duration
	newSource func(gen int, scenario string) (store.Source, error)
	scenarios []replay.Scenario

	mu     sync.Mutex
	cur    *runSession
	closed bool
	// restartMu serialises restarts; a restart older than the running
	// session does nothing.
	restartMu sync.Mutex
}

// runSession is one running session: its pipeline's context and feeder.
type runSession struct {
	gen    int
	cancel context.CancelFunc
	f      *store.Feeder
}

// launch starts session gen over src, its batches tagged with gen, unless
// the program is gone (then it reports false and starts nothing).
func (r *runner) launch(gen int, src store.Source) bool {
	send := func(b *store.Batch) { r.send(genBatchMsg{gen: gen, b: b}) }
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cur = &runSession{gen: gen, cancel: cancel, f: store.Start(ctx, src, send, r.interval)}
	return true
}

// end cancels a session and waits (bounded) until its last batch went
// out, which is after the source finished (and saved the session).
func (s *runSession) end() {
	s.cancel()
	select {
	case <-s.f.Sent():
	case <-time.After(restartMaxWait):
	}
	s.f.Stop()
}

func (r *runner) Restart(gen int, scenario string) (string, error) {
	r.restartMu.Lock()
	defer r.restartMu.Unlock()
	r.mu.Lock()
	old, closed := r.cur, r.closed
	r.mu.Unlock()
	if closed || old != nil && old.gen >= gen {
		return "", nil
	}
	if old != nil {
		old.end()
	}
	src, err := r.newSource(gen, scenario)
	if err != nil {
		return "", err
	}
	r.launch(gen, src)
	return src.Name, nil
}

func (r *runner) Scenarios() []replay.Scenario { return r.scenarios }

func (r *runner) Cancel() {
	r.mu.Lock()
	s := r.cur
	r.mu.Unlock()
	if s != nil {
		s.cancel()
	}
}

// shutdown ends the running session once the program is gone; no
// restart starts after it.
func (r *runner) shutdown() {
	r.mu.Lock()
	r.closed = true
	s := r.cur
	r.mu.Unlock()
	if s == nil {
		return
	}
	s.f.Stop()
	s.end()
}
