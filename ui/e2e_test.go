package ui

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"framescope/invariants"
	"framescope/sessions/live"
	"framescope/sessions/replay"
	"framescope/ui/source"
	"framescope/ui/store"
)

// The end-to-end tests drive the real program (renderer, input loop,
// feeder goroutine, pipeline) through teatest.

const e2eTimeout = 15 * time.Second

func newTestProgram(t *testing.T, m *Model, w, h int) *teatest.TestModel {
	t.Helper()
	return teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ANSI256)))
}

func waitSent(t *testing.T, f *store.Feeder) {
	t.Helper()
	select {
	case <-f.Sent():
	case <-time.After(e2eTimeout):
		t.Fatal("the stream never ended")
	}
}

func finalModel(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	// ctrl+c quits whatever is open (q only closes the help).
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	return tm.FinalModel(t, teatest.WithFinalTimeout(e2eTimeout)).(*Model)
}

func darkCfg() Config {
	dark := true
	return Config{Dark: &dark}
}

func TestE2EOpenCapture(t *testing.T) {
	m := NewModel("example-happy.jsonl", false, darkCfg())
	tm := newTestProgram(t, m, 120, 40)
	f := start(context.Background(), openSource(t, filepath.Join(examples, "example-happy.jsonl")), tm.Send, 0)
	waitSent(t, f)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("end-of-stream sentinel"))
	}, teatest.WithDuration(e2eTimeout))
	// Time travel: to the end, then back to frame 4 where call_5 is open.
	tm.Type("G")
	tm.Type(strings.Repeat("k", 8))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("t")
	fm := finalModel(t, tm)
	if fm.Selected() != 4 || fm.Focused() != PaneDetail || fm.detail.tab != TabRaw {
		t.Errorf("row %d focus %v tab %v", fm.Selected(), fm.Focused(), fm.detail.tab)
	}
	if got := fm.Pane(PaneTools).Title(); got != "Tools 1 (1 open)" {
		t.Errorf("tools as of frame 4: %q", got)
	}
	if st := fm.Store(); st.Frames != 13 || st.End == nil || st.End.Kind != "eof" {
		t.Errorf("store: %d frames, end %+v", st.Frames, st.End)
	}
}

func relayURL(t *testing.T, scenario string, speed float64) string {
	t.Helper()
	relay, err := replay.NewRelay(replay.RelayOptions{Scenario: scenario, Speed: speed})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(relay)
	t.Cleanup(srv.Close)
	return srv.URL + "/api/chat"
}

func liveOpts(url string) live.LiveOptions {
	return live.LiveOptions{Connect: live.ConnectOptions{URL: url, Method: "POST", Body: []byte(`{"message":"demo"}`)}}
}

func TestE2EDemoScenario(t *testing.T) {
	url := relayURL(t, "axis2", 0)
	out := &source.LiveOutcome{}
	m := NewModel("demo axis2", true, darkCfg())
	tm := newTestProgram(t, m, 160, 48)
	f := start(context.Background(), source.Live("demo axis2", liveOpts(url), out), tm.Send, 0)
	waitSent(t, f)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("CCS_ENVELOPE_ERROR"))
	}, teatest.WithDuration(e2eTimeout))
	tm.Type("gn") // the first alarm
	fm := finalModel(t, tm)
	st := fm.Store()
	if st.End == nil || st.End.Kind != "eof" || st.HTTPStatus != 200 || len(st.Turns) != 1 ||
		st.Turns[0].Terminal.String() != "completed" || !st.Turns[0].Done {
		t.Fatalf("end %+v status %d turns %+v", st.End, st.HTTPStatus, st.Turns)
	}
	if out.Result == nil || out.Result.Report.Frames != st.Frames {
		t.Errorf("the TUI and the report disagree: %+v vs %d frames", out.Result, st.Frames)
	}
	// The same alarms as check on the same stream.
	if st.Counts != out.Result.Report.Counts || st.Counts.Info != 2 {
		t.Errorf("alarms %+v, report %+v", st.Counts, out.Result.Report.Counts)
	}
	if r := fm.Selected(); r < 0 || len(st.Row(r).Alarms) == 0 {
		t.Errorf("n did not land on an alarm: row %d", r)
	}
	// Follow was on for the live stream: before g the cursor was at the end.
	if !fm.sh.follow {
		t.Errorf("follow should be on for a live stream")
	}
}

func TestE2ECancelLive(t *testing.T) {
	url := relayURL(t, "cancel", 1)
	out := &source.LiveOutcome{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := darkCfg()
	cfg.Cancel = cancel
	m := NewModel("demo cancel", true, cfg)
	tm := newTestProgram(t, m, 120, 40)
	f := start(ctx, source.Live("demo cancel", liveOpts(url), out), tm.Send, 0)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("text "))
	}, teatest.WithDuration(e2eTimeout))
	tm.Type("x")
	waitSent(t, f)
	fm := finalModel(t, tm)
	st := fm.Store()
	if st.End == nil || st.End.Kind != "cancelled" {
		t.Fatalf("end %+v", st.End)
	}
	found := false
	for _, a := range st.Alarms {
		if a.Rule == "terminal-missing" && a.Severity == invariants.SevInfo {
			found = true
		}
	}
	if !found {
		t.Errorf("a user cancel is terminal-missing info: %+v", st.Alarms)
	}
	if !strings.Contains(screen(fm), "ended: cancelled") {
		t.Errorf("header:\n%s", screen(fm))
	}
}

// hostile is a capture whose every string tries to reach the terminal:
// OSC 52 (clipboard), ESC[2J (clear), cursor moves, C1 CSI (U+009B), bidi
// override (U+202E), both raw and JSON-escaped, in every field a pane shows.
const hostile = "event: text\x1b]52;c;aGk=\x07\n" +
	"data: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"r\\u001b[2J\",\"chunk\":\"\\u001b[2Jpwned1 \\u001b[5;5Hpwned2 \xc2\x9b31mpwned3 \u202epwned4 \\u001b]52;c;aGk=\\u0007\"}\n\n" +
	": comment \x1b[2Jpwned5\n\n" +
	"event: status\ndata: {\"event_type\":\"status\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.100Z\",\"response_id\":\"r\\u001b[2J\",\"data\":{\"event_id\":\"\\u001b[31mpwned6\",\"message\":\"\\u202epwned7\\u009b2J\"}}\n\n" +
	"event: tool_call\ndata: {\"event_type\":\"tool_call\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.200Z\",\"response_id\":\"r\\u001b[2J\",\"tool_call\":{\"id\":\"\\u001b[Hpwned8\",\"name\":\"\\u001b]52;c;aGk=\\u0007pwned9\",\"type\":\"mcp\"}}\n\n" +
	"event: data_loading\ndata: {\"event_type\":\"data_loading\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.300Z\",\"response_id\":\"r\\u001b[2J\",\"data\":{\"id\":\"\\u001b[1Apwned10\",\"type\":\"\u202ex\",\"key\":{\"ids\":[]}}}\n\n" +
	"event: error\ndata: {\"event_type\":\"error\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.400Z\",\"response_id\":\"r\\u001b[2J\",\"error\":{\"code\":\"\\u001b[2Jpwned11\"},\"is_final\":true}\n\n" +
	"data: {\"raw\":\"\x1b[2Jpwned12 \x1b]52;c;aGk=\x07\"}\n\n" +
	"data: [DONE]\n\n" +
	"event: x\x1b[2J\ndata: \x1b[2Jpwned13"

func TestE2EHostileCaptureIsTerminalSafe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostile\x1b[2J.sse")
	if err := os.WriteFile(path, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewModel(path, false, darkCfg())
	tm := newTestProgram(t, m, 160, 48)
	f := start(context.Background(), openSource(t, path), tm.Send, 0)
	waitSent(t, f)
	// Visit every row with every detail tab, and every pane as a tab at 80×24.
	for i := 0; i < 12; i++ {
		tm.Type("ttt")
		tm.Type("j")
	}
	tm.Type("/pwned\r")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	for i := 0; i < 6; i++ {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	}
	tm.Type("?")
	fm := finalModel(t, tm)
	raw, err := io.ReadAll(tm.FinalOutput(t))
	if err != nil {
		t.Fatal(err)
	}
	out := string(raw)
	if fm.Store().Frames < 7 {
		t.Fatalf("only %d frames", fm.Store().Frames)
	}
	// Nothing from the frames reaches the terminal as a control sequence.
	for _, bad := range []string{"\x1b]52", "\x1b[2Jpwned", "\x1b[5;5Hpwned", "\x1b[Hpwned", "\x1b[1Apwned", "\x1b[31mpwned",
		"\xc2\x9b", "\u202e", "\x07pwned"} {
		if strings.Contains(out, bad) {
			t.Errorf("raw output contains %q", bad)
		}
	}
	// Every escape sequence in the output is the program's own.
	checkOwnSequences(t, out)
	// And the frames were shown — escaped.
	plain := ansi.Strip(out)
	for _, want := range []string{`[2Jpwned1`, `\u202epwned4`, `pwned9`, `pwned10`, `pwned11`, `[2Jpwned12`} {
		if !strings.Contains(plain, want) {
			t.Errorf("screen never showed %q (escaped)", want)
		}
	}
}

// checkOwnSequences walks every escape sequence of the output: the
// renderer's CSI, SGR and mode sequences are fine; OSC is only the window
// title; no DCS/APC/PM/SOS, no C1 control.
func checkOwnSequences(t *testing.T, out string) {
	t.Helper()
	state := byte(0)
	p := ansi.NewParser()
	for s := out; len(s) > 0; {
		seq, _, n, newState := ansi.DecodeSequence(s, state, p)
		state = newState
		s = s[n:]
		if len(seq) == 0 || (seq[0] != 0x1b && seq[0] < 0x80 && seq[0] >= 0x20) {
			continue
		}
		switch {
		case strings.HasPrefix(seq, "\x1b]"):
			switch strings.TrimRight(strings.TrimPrefix(seq, "\x1b]"), "\a\x1b\\") {
			case "2;framescope", "0;framescope", "2;", "0;": // the window title, set and reset
			default:
				t.Errorf("foreign OSC %q", seq)
			}
		case strings.HasPrefix(seq, "\x1bP"), strings.HasPrefix(seq, "\x1b_"), strings.HasPrefix(seq, "\x1b^"), strings.HasPrefix(seq, "\x1bX"):
			t.Errorf("string sequence %q", seq)
		case seq[0] >= 0x80 && seq[0] < 0xa0:
			t.Errorf("C1 control %q", seq)
		}
	}
}

// TestE2EStepAxis2ThroughTheClientPane drives the real program on the live
// axis2 demo and steps to its non-terminal error: the Client pane (zoomed)
// shows the v0.5 client on the degraded path and where the v0.4 client
// ended the turn; at the end v0.5 completed while v0.4 failed.
func TestE2EStepAxis2ThroughTheClientPane(t *testing.T) {
	url := relayURL(t, "axis2", 0)
	m := NewModel("demo axis2", true, darkCfg())
	tm := newTestProgram(t, m, 160, 48)
	f := start(context.Background(), source.Live("demo axis2", liveOpts(url), &source.LiveOutcome{}), tm.Send, 0)
	waitSent(t, f)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("CCS_ENVELOPE_ERROR"))
	}, teatest.WithDuration(e2eTimeout))
	// Focus the Client pane and zoom it; g then n reaches the first
	// divergence (the status frame), n again the error.
	for range PaneClient {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	}
	tm.Type("zgnn")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("the v0.4 client diverges at this frame")) &&
			bytes.Contains(b, []byte("mark_degraded")) && bytes.Contains(b, []byte("end_turn_failed"))
	}, teatest.WithDuration(e2eTimeout))
	fm := finalModel(t, tm)
	if fm.Focused() != PaneClient || !fm.zoomed {
		t.Errorf("focus %v zoomed %v", fm.Focused(), fm.zoomed)
	}
	// The renderer sends only what changed, so the rest is read from the
	// final model: the cursor on the error, v0.5 degraded, v0.4 failed;
	// at the end v0.5 completed while v0.4 had failed.
	s := fm.client.current()
	if r := fm.Store().Row(fm.Selected()); r.Type != "error" || !s.origin ||
		!pc3View(s.ref).Degraded || s.ref.State() != "streaming" || s.dep.State() != "failed" {
		t.Errorf("at row %d (%s): origin %v, v0.5 %s degraded %v, v0.4 %s",
			fm.Selected(), r.Type, s.origin, s.ref.State(), pc3View(s.ref).Degraded, s.dep.State())
	}
	fm.setFocus(PaneTimeline) // G in the Client pane scrolls the pane
	press(fm, "G")
	if got := fm.client.Title(); got != "Client v0.5 · closed (completed) · v0.4 closed (failed)" {
		t.Errorf("at the end: %q", got)
	}
}

// TestE2EDialectDemos drives the real program on each spec-set dialect's
// demo, happy and broken, served live: the header names the dialect, the
// panes fill from the moves, and the inspector counts the same alarms as
// the report of the same stream.
func TestE2EDialectDemos(t *testing.T) {
	for _, scenario := range []string{"typed-lines", "go-bus", "chunk-framed", "public-sse-v1", "anthropic-messages-broken", "gemini", "ollama", "a2a", "langgraph"} {
		t.Run(scenario, func(t *testing.T) {
			url := relayURL(t, scenario, 0)
			out := &source.LiveOutcome{}
			m := NewModel("demo "+scenario, true, darkCfg())
			tm := newTestProgram(t, m, 160, 48)
			f := start(context.Background(), source.Live("demo "+scenario, liveOpts(url), out), tm.Send, 0)
			waitSent(t, f)
			name := strings.TrimSuffix(scenario, "-broken")
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				return bytes.Contains(b, []byte("ended: eof"))
			}, teatest.WithDuration(e2eTimeout))
			fm := finalModel(t, tm)
			st := fm.Store()
			if st.Dialect != name || st.End == nil || len(st.Turns) == 0 {
				t.Fatalf("dialect %q, end %+v, %d turns", st.Dialect, st.End, len(st.Turns))
			}
			if out.Result == nil || st.Counts != out.Result.Report.Counts || st.Frames != out.Result.Report.Frames {
				t.Errorf("the TUI and the report disagree: %+v %d frames vs %+v", st.Counts, st.Frames, out.Result)
			}
			broken := strings.HasSuffix(scenario, "-broken")
			if broken != (st.Counts.Error > 0) {
				t.Errorf("counts %+v", st.Counts)
			}
			if !broken && (st.Turns[len(st.Turns)-1].Outcome == "" || len(st.Comps)+len(st.Tools)+len(st.Statuses) == 0) {
				t.Errorf("panes empty: turn %+v, %d spans, %d tools, %d progress lines", st.Turns[len(st.Turns)-1], len(st.Comps), len(st.Tools), len(st.Statuses))
			}
			if text, _, n := st.TextAsOf(0, st.Frames, 0); n == 0 && name != "chunk-framed" || strings.ContainsRune(text, 0x1b) {
				t.Errorf("client text %q in %d deltas", text, n)
			}
		})
	}
}
