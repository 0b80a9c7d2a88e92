package ui

// toggleTiming shows the Timing view in the Client pane's place, focused
// (and the Client pane back): one key, found in the footer and the help,
// that keeps the layout a user knows.
func (m *Model) toggleTiming() {
	m.timingOn = !m.timingOn
	var p Pane = m.client
	if m.timingOn {
		p = m.timing
	}
	m.panes[m.focus].Blur()
	m.panes[PaneClient] = p
	m.focus = PaneClient
	p.Focus()
	m.layout()
	if m.timingOn {
		m.notice = "timing view (i back to the client view)"
	}
}
