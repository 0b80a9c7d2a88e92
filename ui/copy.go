package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/ui/store"
)

// copyMax is the most a copy key puts on the clipboard. OSC 52 sends the
// text through the terminal base64-encoded in one escape sequence: many
// terminals and multiplexers drop a longer one (hterm stops near 100 KB,
// tmux at its buffer limits), and a frame may be 64 MiB.
const copyMax = 64 << 10

// copySelected puts the selected frame's data (other rows: their bytes)
// on the clipboard (OSC 52). y copies it sanitized — controls, bidi and
// zero-width characters as visible escapes, so pasting it into a shell or
// an editor runs nothing and hides nothing; Y (raw) copies the bytes as
// received. Either is cut at copyMax, and the notice says so.
func (m *Model) copySelected(raw bool) tea.Cmd {
	st := m.sh.st
	if m.sh.sel < 0 || m.sh.sel >= st.Len() {
		return nil
	}
	r := st.Row(m.sh.sel)
	data, what := st.RowRaw(m.sh.sel), "row"
	if r.Kind == store.RowFrame {
		data, what = st.RowData(m.sh.sel), fmt.Sprintf("frame %d", r.Frame)
	}
	if data == nil {
		data = []byte(r.Summary)
	}
	text, how, cut := clipText(data, raw)
	m.notice = fmt.Sprintf("copied %s (%s, %s) to the clipboard", what, fmtBytes(int64(len(text))), how)
	if cut {
		m.notice = fmt.Sprintf("copied the first %s of %s (%s, %s) to the clipboard: cut at the clipboard limit",
			fmtBytes(int64(len(text))), what, fmtBytes(int64(len(data))), how)
	}
	return tea.SetClipboard(text)
}

// clipText is what a copy key puts on the clipboard: data as received
// (raw) or sanitized with its line breaks kept, cut at copyMax bytes on a
// character boundary (cut says so).
func clipText(data []byte, raw bool) (text, how string, cut bool) {
	s, how := string(data[:min(len(data), copyMax)]), "raw"
	if !raw {
		s, how = decode.SanitizeMultiline(s), "sanitized"
	}
	text = decode.Cut(s, copyMax)
	return text, how, len(data) > copyMax || len(text) < len(s)
}
