package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/ui/store"
)

// connect --max-time in the inspector: each live session is cancelled
// after the duration, the way the cancel key does it, and the header says
// why it stopped.

// maxTimeMsg is session gen's --max-time running out.
type maxTimeMsg struct{ gen int }

// maxTimer starts the running session's --max-time (nil: no limit).
func (m *Model) maxTimer() tea.Cmd {
	if m.maxTime <= 0 || !m.live {
		return nil
	}
	gen := m.rs.gen
	return tea.Tick(m.maxTime, func(time.Time) tea.Msg { return maxTimeMsg{gen} })
}

// maxTimeReached cancels session msg.gen if it is still the running one
// and its stream is still open.
func (m *Model) maxTimeReached(msg maxTimeMsg) {
	if msg.gen != m.rs.gen || m.cancel == nil || m.cancelled || m.sh.st.Conn == store.ConnEnded {
		return
	}
	m.stopped = "stopped: --max-time " + m.maxTime.String()
	m.cancelStream(m.stopped)
}
