package ui

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"framescope/ui/source"
)

// The everyday keys (issue 12) through the real program.

func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(want))
	}, teatest.WithDuration(e2eTimeout))
}

// captureProgram is the program on example-happy.jsonl at w×h, read to the end.
func captureProgram(t *testing.T, w, h int) *teatest.TestModel {
	t.Helper()
	m := NewModel("example-happy.jsonl", false, darkCfg())
	tm := newTestProgram(t, m, w, h)
	f := start(context.Background(), openSource(t, filepath.Join(examples, "example-happy.jsonl")), tm.Send, 0)
	waitSent(t, f)
	waitScreen(t, tm, "end-of-stream sentinel")
	return tm
}

func TestE2EEnterTabEsc(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
	}{{"grid", 120, 40}, {"tabbed", 90, 28}} {
		t.Run(tc.name, func(t *testing.T) {
			tm := captureProgram(t, tc.w, tc.h)
			tm.Type("gjj")
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			waitScreen(t, tm, "back to Timeline") // the Detail's footer
			tm.Type("t")                          // the Detail, focused: Raw
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
			waitScreen(t, tm, "open in Detail") // the Timeline's footer again
			tm.Type("t")                        // from the Timeline: Alarms
			fm := finalModel(t, tm)
			if fm.Focused() != PaneTimeline || fm.Selected() != 2 || fm.detail.tab != TabAlarms {
				t.Errorf("focus %v row %d tab %v", fm.Focused(), fm.Selected(), fm.detail.tab)
			}
		})
	}
}

func TestE2EQClosesHelp(t *testing.T) {
	tm := captureProgram(t, 120, 40)
	tm.Type("?")
	waitScreen(t, tm, "close help")
	tm.Type("q") // closes the help, the program goes on
	tm.Type("t")
	fm := finalModel(t, tm) // ctrl+c
	if fm.showHelp || fm.detail.tab != TabRaw {
		t.Errorf("after ? q t: help %v tab %v", fm.showHelp, fm.detail.tab)
	}
}

func TestE2EUnavailableKeysSayWhy(t *testing.T) {
	tm := captureProgram(t, 120, 40)
	for _, k := range []struct{ key, want string }{
		{"x", "x: nothing to cancel — this is a recorded capture"},
		{"r", "r: reconnect needs a live connection"},
		{"s", "s: scenarios switch only in demo"},
	} {
		tm.Type(k.key)
		waitScreen(t, tm, k.want)
	}
	if fm := finalModel(t, tm); fm.rs.gen != 1 || fm.Store().Frames != 13 {
		t.Errorf("gen %d frames %d", fm.rs.gen, fm.Store().Frames)
	}
}

// TestE2EMaxTime: --max-time stops a long live stream the way x does.
func TestE2EMaxTime(t *testing.T) {
	url := relayURL(t, "cancel", 1) // ~10 s
	out := &source.LiveOutcome{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := darkCfg()
	cfg.Cancel = cancel
	cfg.MaxTime = 400 * time.Millisecond
	m := NewModel("demo cancel", true, cfg)
	tm := newTestProgram(t, m, 120, 40)
	begun := time.Now()
	f := start(ctx, source.Live("demo cancel", liveOpts(url), out), tm.Send, 0)
	waitScreen(t, tm, "stopped: --max-time 400ms")
	waitSent(t, f)
	if d := time.Since(begun); d > 8*time.Second {
		t.Errorf("stopped after %v", d)
	}
	fm := finalModel(t, tm)
	st := fm.Store()
	if st.End == nil || st.End.Kind != "cancelled" {
		t.Fatalf("end %+v", st.End)
	}
	if s := screen(fm); !strings.Contains(s, "stopped: --max-time 400ms (cancelled)") {
		t.Errorf("header:\n%s", s)
	}
}

// TestConnectLiveMaxTime: connect's --max-time through ConnectLive (the
// runner's cancel): the session ends as cancelled at the limit, long before
// the quit that follows.
func TestConnectLiveMaxTime(t *testing.T) {
	opts := liveOpts(relayURL(t, "cancel", 1)) // ~10 s
	in, inW := io.Pipe()
	defer inW.Close()
	go func() {
		time.Sleep(1500 * time.Millisecond)
		inW.Write([]byte{3}) // ctrl+c
	}()
	dark := true
	outs, err := ConnectLive("max", opts, RunOptions{
		Config:         Config{Dark: &dark, MaxTime: 200 * time.Millisecond},
		ProgramOptions: []tea.ProgramOption{tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40)},
	})
	if err != nil || len(outs) != 1 || outs[0].Result == nil {
		t.Fatalf("outs %v err %v", outs, err)
	}
	res := outs[0].Result
	if res.Report.End.Kind != "cancelled" || res.Duration > 1200*time.Millisecond {
		t.Errorf("end %q after %v, want cancelled at ~200ms", res.Report.End.Kind, res.Duration)
	}
}
