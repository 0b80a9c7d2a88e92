package ui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"framescope/ui/store"
)

// flashFor is how long a timed notice stays in the footer (keys pressed
// meanwhile do not wipe it).
const flashFor = 4 * time.Second

// noticeExpiredMsg ends the timed notice seq (unless a later one replaced it).
type noticeExpiredMsg struct{ seq int }

// flash shows s in the footer for a few seconds.
func (m *Model) flash(s string) tea.Cmd {
	m.notice, m.flashed = s, s
	m.noticeSeq++
	m.noticeUntil = m.clock().Add(flashFor)
	seq := m.noticeSeq
	return tea.Tick(flashFor, func(time.Time) tea.Msg { return noticeExpiredMsg{seq} })
}

// pressed reports whether msg is one of b's keys, enabled or not: a key
// that cannot apply here still gets an answer (why not) in the footer.
func pressed(msg tea.KeyPressMsg, b key.Binding) bool {
	return slices.Contains(b.Keys(), msg.String())
}

// sourceKind names what the inspector shows, for the reasons below.
func (m *Model) sourceKind() string {
	switch {
	case !m.live:
		return "this is a recorded capture"
	case m.rs.r != nil && len(m.rs.r.Scenarios()) > 0:
		return "this is a demo"
	}
	return "this is a live connection"
}

// cannotCancel is why the cancel key does nothing now ("" when it can).
func (m *Model) cannotCancel() string {
	switch {
	case !m.live:
		return "x: nothing to cancel — " + m.sourceKind()
	case m.cancel == nil:
		return "x: this stream cannot be cancelled from here"
	case m.cancelled && m.sh.st.Conn != store.ConnEnded:
		return "x: already cancelling the stream"
	case m.sh.st.Conn == store.ConnEnded:
		return "x: nothing to cancel — the stream already ended (r reconnects)"
	}
	return ""
}

// cannotReconnect is why the reconnect key does nothing ("" when it can).
func (m *Model) cannotReconnect() string {
	switch {
	case !m.live:
		return "r: reconnect needs a live connection — " + m.sourceKind()
	case m.rs.r == nil:
		return "r: this source cannot reconnect"
	}
	return ""
}

// cannotSwitch is why the scenario key does nothing ("" when it can).
func (m *Model) cannotSwitch() string {
	if m.rs.r == nil || len(m.rs.r.Scenarios()) == 0 {
		return "s: scenarios switch only in demo — " + m.sourceKind()
	}
	return ""
}

// cancelStream ends the live stream the client-disconnect way (the cancel
// key, --max-time), with notice in the footer.
func (m *Model) cancelStream(notice string) {
	m.cancelled = true
	m.notice = notice
	m.cancel()
}

// stepDetailTab switches the Detail pane's tab from any pane; when the
// Detail pane is out of sight (tabbed layout) the footer says which tab
// it is on now.
func (m *Model) stepDetailTab(dir int) {
	m.detail.syncRow()
	m.detail.stepTab(dir)
	if !m.wide && m.focus != PaneDetail {
		m.notice = "Detail tab: " + m.detail.tabName() + " (enter on a row shows it)"
	}
}

// openDetail shows the Detail of the selected frame: the grid focuses
// the Detail pane, the tabbed layout switches to its tab; esc comes back.
func (m *Model) openDetail() {
	if m.sh.sel < 0 {
		m.notice = "enter: no row selected"
		return
	}
	m.setFocus(PaneDetail)
}
