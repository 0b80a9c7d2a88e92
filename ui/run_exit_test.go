package ui

import (
	"io"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions/capture"
)

// TestOpenCaptureReturnsCounts: the inspector on a capture hands back the
// alarms it read, so `open` exits as `connect` and `demo` do (1 on an
// error alarm). The program quits by itself once the stream has ended.
func TestOpenCaptureReturnsCounts(t *testing.T) {
	for _, tc := range []struct {
		file   string
		errors bool
	}{
		{"example-broken.sse", true},
		{"example-happy.jsonl", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := capture.Open(filepath.Join(examples, tc.file), capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			quitAtEnd := tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
				if mm, ok := m.(*Model); ok && mm.Store().End != nil {
					return tea.QuitMsg{}
				}
				return msg
			})
			o := RunOptions{ProgramOptions: []tea.ProgramOption{
				tea.WithInput(tickingKeys{}), tea.WithOutput(io.Discard),
				tea.WithWindowSize(100, 30), quitAtEnd,
			}}
			counts, err := OpenCapture(tc.file, c, invariants.Options{}, o)
			if err != nil {
				t.Fatal(err)
			}
			if got := counts.Reaches(invariants.SevError); got != tc.errors {
				t.Errorf("error alarms %v, want %v (counts %+v)", got, tc.errors, counts)
			}
		})
	}
}

// tickingKeys types "j" every 20 ms: each key is a message the filter sees
// after the stream's end has been applied.
type tickingKeys struct{}

func (tickingKeys) Read(p []byte) (int, error) {
	time.Sleep(20 * time.Millisecond)
	return copy(p, "j"), nil
}
