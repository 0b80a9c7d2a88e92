package reference

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"framescope/invariants/dialects/pc3"
	"framescope/invariants/machine"
)

// probeDir holds the corner-case captures of the reference client
// (testdata/reference/probes/README.md says what each one probes).
const probeDir = "../../testdata/reference/probes"

// probeRec is one input of a probe replay as the v0.5 client took it.
type probeRec struct {
	in    pc3.Input
	frame int // -1 for a transport input
	step  pc3.Step
	state pc3.State
	view  pc3.ConformanceView
}

func runProbe(t *testing.T, name string, idle time.Duration) ([]probeRec, machine.Run) {
	t.Helper()
	var recs []probeRec
	opts := ReferenceOptions{Profiles: []pc3.Profile{pc3.ProfileV05}, ClientIdle: idle}
	res := runReference(t, filepath.Join(probeDir, name), opts, func(st ReferenceStep) {
		idx := -1
		if st.Frame != nil {
			idx = st.Frame.Index
		}
		r := st.Runs[0]
		recs = append(recs, probeRec{st.Input, idx, st.Steps[0], r.State(), clientView(r).Conformance()})
	})
	return recs, res.Runs[0]
}

// at returns the record of frame i.
func at(t *testing.T, recs []probeRec, i int) probeRec {
	t.Helper()
	for _, r := range recs {
		if r.frame == i {
			return r
		}
	}
	t.Fatalf("no frame %d", i)
	return probeRec{}
}

func hasRuleStep(s pc3.Step, rule string) bool {
	for _, r := range s.Rules {
		if r == rule {
			return true
		}
	}
	return false
}

// unchangedFrom checks that the frames from i on change nothing the user
// sees and name rule (when given).
func unchangedFrom(t *testing.T, recs []probeRec, i int, rule string) {
	t.Helper()
	for _, r := range recs {
		if r.frame < i {
			continue
		}
		if r.step.ViewChanged {
			t.Errorf("frame %d (%s) changed the view: %s", r.frame, r.in, r.step.Summary())
		}
		if rule != "" && r.in != pc3.InDone && !hasRuleStep(r.step, rule) {
			t.Errorf("frame %d (%s): rules %v, want %s", r.frame, r.in, r.step.Rules, rule)
		}
	}
}

// TestReferenceProbes is the table test of the machine behaviours issue 14
// fixed and of the leniency the document states: one probe capture each.
func TestReferenceProbes(t *testing.T) {
	lost := pc3.OutcomeConnectionLost
	type want struct {
		state   pc3.State
		outcome pc3.Outcome
		turn    int
		text    string
		cause   string
	}
	closedOK := func(turn int, text string) want {
		return want{pc3.StClosed, pc3.OutcomeCompleted, turn, text, ""}
	}
	settled := func(t *testing.T, v pc3.ConformanceView) {
		t.Helper()
		if v.Typing || v.Progress.Shows != pc3.SubNone || v.Progress.RunningTools != 0 {
			t.Errorf("ended turn still shows typing %v / progress %+v", v.Typing, v.Progress)
		}
		for _, tl := range v.Tools {
			if tl.State == pc3.ToolRunning {
				t.Errorf("tool %s still running after the end", tl.ID)
			}
		}
		for _, c := range v.Components {
			if c.State == pc3.CompLoading {
				t.Errorf("placeholder %s still loading after the end", c.ID)
			}
		}
	}
	// busy: the end-* probes leave call_1 running and offer-list-1 loading.
	busyEnd := func(t *testing.T, recs []probeRec) {
		v := recs[len(recs)-1].view
		settled(t, v)
		if len(v.Tools) != 1 || v.Tools[0].State != pc3.ToolStopped ||
			len(v.Components) != 1 || v.Components[0].State != pc3.CompUnavailable {
			t.Errorf("settled view: tools %+v components %+v", v.Tools, v.Components)
		}
	}
	tests := []struct {
		probe string
		idle  time.Duration
		want  want
		check func(t *testing.T, recs []probeRec)
	}{
		// 1. Phantom turns: after [DONE] a frame naming no turn is a
		// violation of the closed stream, not a new bubble.
		{"phantom-undecodable-after-done.sse", 0, closedOK(1, "Here you go."), func(t *testing.T, recs []probeRec) {
			unchangedFrom(t, recs, 4, "frame-json")
		}},
		{"phantom-no-response-id-after-done.sse", 0, closedOK(1, "Here you go."), func(t *testing.T, recs []probeRec) {
			unchangedFrom(t, recs, 4, "envelope-missing")
		}},
		// 2. A foreign response_id inside an open turn neither joins nor
		// ends it (the checker's envelope-drift).
		{"foreign-response-id-in-turn.sse", 0, closedOK(1, "Hello world"), func(t *testing.T, recs []probeRec) {
			for i := 2; i <= 4; i++ {
				r := at(t, recs, i)
				if r.step.ViewChanged || r.state != pc3.StStreaming || !hasRuleStep(r.step, "envelope-drift") {
					t.Errorf("frame %d: %s rules %v", i, r.step.Summary(), r.step.Rules)
				}
			}
			if v := recs[len(recs)-1].view; len(v.Tools) != 0 || v.ResponseID != "resp_a" {
				t.Errorf("the foreign turn leaked into the view: %+v", v)
			}
		}},
		// 3. The idle timer: fires after 60 s without a frame, disconnects,
		// and the late terminal is never seen.
		{"idle-timer-late-terminal.jsonl", pc3.DefaultClientIdle, want{pc3.StEndedWithoutTerminal, lost, 1, "Let me look that up", "idle_timer"}, func(t *testing.T, recs []probeRec) {
			fired := -1
			for i, r := range recs {
				if r.in == pc3.InIdleTimer {
					fired = i
				}
			}
			if fired < 0 || recs[fired+1].frame != 2 {
				t.Fatalf("the idle timer did not fire before the late completed")
			}
			if r := at(t, recs, 2); r.step.Transition == nil || r.step.Transition.Guard != pc3.GuardClientGone || r.step.ViewChanged {
				t.Errorf("late completed: %s", r.step.Summary())
			}
		}},
		{"idle-timer-late-terminal.jsonl", 0, closedOK(1, "Let me look that up"), nil},
		{"idle-timer-comments-do-not-reset.jsonl", pc3.DefaultClientIdle, want{pc3.StEndedWithoutTerminal, lost, 1, "", "idle_timer"}, nil},
		{"idle-timer-frames-reset.jsonl", pc3.DefaultClientIdle, closedOK(1, "Found them."), func(t *testing.T, recs []probeRec) {
			for _, r := range recs {
				if r.in == pc3.InIdleTimer {
					t.Errorf("the timer fired although no gap reached 60 s")
				}
			}
		}},
		// 4. A second turn after completed without [DONE]: ignored, no new
		// bubble (the checker's after-terminal); its [DONE] closes turn 1.
		{"second-turn-without-done.sse", 0, closedOK(1, "First answer."), func(t *testing.T, recs []probeRec) {
			for i := 3; i <= 5; i++ {
				r := at(t, recs, i)
				if r.step.ViewChanged || r.step.Transition == nil || r.step.Transition.Guard != pc3.GuardForeignRID || !hasRuleStep(r.step, "after-terminal") {
					t.Errorf("frame %d: %s", i, r.step.Summary())
				}
			}
		}},
		// 5. Every ending settles the bubble: no progress line or typing,
		// running tools stopped, loading placeholders unavailable.
		{"end-failed-with-running-tool.sse", 0, want{pc3.StClosed, pc3.OutcomeFailed, 1, "Looking", "SUB_AGENT_FAILED"}, busyEnd},
		{"end-cancelled-with-running-tool.sse", 0, want{pc3.StClosed, pc3.OutcomeCancelled, 1, "Looking", "IDLE_TIMEOUT"}, busyEnd},
		{"end-lost-with-running-tool.sse", 0, want{pc3.StEndedWithoutTerminal, lost, 1, "Looking", "eof"}, busyEnd},
		{"end-done-early-with-running-tool.sse", 0, want{pc3.StEndedWithoutTerminal, lost, 1, "Looking", "[DONE]"}, busyEnd},
		{"typing-and-progress-lifecycle.sse", 0, closedOK(2, "Second turn."), func(t *testing.T, recs []probeRec) {
			// What the bubble shows after each frame: typing, or the one
			// thing the progress line shows.
			want := []string{"typing", "typing", "thinking", "tools_running 1", "tools_running 2", "status", "status", "status",
				"none", "tools_running 1", "none", "none", "none",
				"typing", "tools_running 1", "typing", "none", "none", "none"}
			for i, w := range want {
				v := at(t, recs, i).view
				got := string(v.Progress.Shows)
				if v.Typing {
					got = "typing"
				} else if v.Progress.Shows == pc3.SubToolsRunning {
					got += " " + string(rune('0'+v.Progress.RunningTools))
				}
				if got != w {
					t.Errorf("frame %d: %s, want %s", i, got, w)
				}
				if v.Typing && v.Progress.Shows != pc3.SubNone {
					t.Errorf("frame %d: typing beside a progress line", i)
				}
			}
		}},
		// 6. Leniency.
		{"lenient-chunk-null.sse", 0, closedOK(1, "Still here."), func(t *testing.T, recs []probeRec) {
			if r := at(t, recs, 1); !r.step.Violation || !hasRuleStep(r.step, "text-malformed") {
				t.Errorf("text chunk null: %s", r.step.Summary())
			}
			if r := at(t, recs, 2); r.step.Violation || len(r.view.Cards) != 0 {
				t.Errorf("component chunk null: %s, cards %v", r.step.Summary(), r.view.Cards)
			}
		}},
		{"lenient-numeric-tool-call-id.sse", 0, closedOK(1, "Done."), func(t *testing.T, recs []probeRec) {
			for i := 1; i <= 2; i++ {
				if r := at(t, recs, i); !r.step.Violation || !hasRuleStep(r.step, "tool-malformed") || r.step.ViewChanged {
					t.Errorf("frame %d: %s", i, r.step.Summary())
				}
			}
		}},
		{"lenient-duplicate-sse-id.sse", 0, closedOK(1, "Twice. Twice. "), func(t *testing.T, recs []probeRec) {
			if r := at(t, recs, 4); !r.step.Violation || !hasRuleStep(r.step, "tool-duplicate") {
				t.Errorf("duplicate tool_call: %s", r.step.Summary())
			}
		}},
		{"lenient-huge-frame.sse", 0, closedOK(1, strings.Repeat("0123456789abcdef", 4096*5)), nil},
		{"lenient-deep-nesting.sse", 0, closedOK(1, ""), func(t *testing.T, recs []probeRec) {
			v := recs[len(recs)-1].view
			if len(v.Components) != 1 || v.Components[0].Items != 1 || len(v.Cards) != 1 {
				t.Errorf("deep nesting: %+v", v)
			}
		}},
		{"lenient-invalid-utf8.sse", 0, closedOK(1, "café a\ufffdb\ufffdc\ufffd\ufffd\ufffdd\ufffd"), nil},
		{"lenient-empty.sse", 0, want{pc3.StEndedWithoutTerminal, lost, 1, "", "eof"}, nil},
		{"lenient-json-dialect.sse", 0, closedOK(1, "two a\ufffdb"), func(t *testing.T, recs []probeRec) {
			if v := at(t, recs, 2).view; len(v.Tools) != 1 || v.Tools[0].ID != "call_y" {
				t.Errorf("repeated tool_call.id: the last should count: %+v", v.Tools)
			}
			for i := 3; i <= 5; i++ {
				if r := at(t, recs, i); r.in != pc3.InUndecodable || r.step.ViewChanged {
					t.Errorf("frame %d (not JSON): %s", i, r.step.Summary())
				}
			}
		}},
		// 7. Hidden state a client must keep exactly (the document's
		// declared extended state), pinned so the kit catches a wrong guess.
		{"hidden-late-rid-binds-after-terminal.sse", 0, closedOK(2, "Second turn."), func(t *testing.T, recs []probeRec) {
			if r := at(t, recs, 2); r.step.ViewChanged || r.view.ResponseID != "" {
				t.Errorf("late usage after completed: %s, response_id %q", r.step.Summary(), r.view.ResponseID)
			}
			if r := at(t, recs, 4); r.step.Via != nil || r.view.Turn != 1 || r.step.ViewChanged {
				t.Errorf("the late response_id after [DONE] opened a turn: %s", r.step.Summary())
			}
			if r := at(t, recs, 5); r.step.Via == nil || r.view.Turn != 2 {
				t.Errorf("a new response_id after [DONE]: %s", r.step.Summary())
			}
		}},
		{"hidden-terminal-frame-binds.sse", 0, closedOK(2, ""), func(t *testing.T, recs []probeRec) {
			if r := at(t, recs, 1); r.view.ResponseID != "resp_c" || r.view.Outcome != pc3.OutcomeCompleted {
				t.Errorf("the binding completed frame: response_id %q, outcome %q", r.view.ResponseID, r.view.Outcome)
			}
			if r := at(t, recs, 3); r.step.Via != nil || r.step.ViewChanged {
				t.Errorf("resp_c after [DONE] opened a turn: %s", r.step.Summary())
			}
			if r := at(t, recs, 4); r.step.Via == nil || r.view.Turn != 2 || r.view.ResponseID != "resp_d" {
				t.Errorf("a new response_id after [DONE]: %s", r.step.Summary())
			}
		}},
		{"hidden-done-twice-then-same-rid.sse", 0, closedOK(2, "Again."), func(t *testing.T, recs []probeRec) {
			if r := at(t, recs, 4); r.step.Transition == nil || r.step.Transition.Action != pc3.ActDropEmptyTurn || r.step.ViewChanged || r.view.ResponseID != "resp_a" {
				t.Errorf("second [DONE]: %s, response_id %q", r.step.Summary(), r.view.ResponseID)
			}
			if r := at(t, recs, 5); r.step.Via == nil || r.view.Turn != 2 || r.view.ResponseID != "resp_a" {
				t.Errorf("resp_a after the dropped turn: %s, view %+v", r.step.Summary(), r.view)
			}
		}},
		{"hidden-done-early-then-next-turn.sse", 0, closedOK(2, "Second turn."), func(t *testing.T, recs []probeRec) {
			if r := at(t, recs, 2); r.view.Done || r.view.Outcome != lost || r.view.Cause != "[DONE]" {
				t.Errorf("early [DONE]: view %+v", r.view)
			}
			if r := at(t, recs, 3); r.step.ViewChanged || r.view.Turn != 1 {
				t.Errorf("a frame of the lost turn after [DONE]: %s", r.step.Summary())
			}
			if r := at(t, recs, 4); r.step.Via == nil || r.view.Turn != 2 {
				t.Errorf("a new response_id after an early [DONE]: %s", r.step.Summary())
			}
		}},
		{"hidden-empty-ids-and-display-fields.sse", 0, want{pc3.StClosed, pc3.OutcomeFailed, 1, "", ""}, func(t *testing.T, recs []probeRec) {
			if v := at(t, recs, 1).view; v.Typing || v.Text != "" {
				t.Errorf("an empty text chunk: typing %v text %q", v.Typing, v.Text)
			}
			for i, rule := range map[int]string{2: "tool-malformed", 3: "component-malformed"} {
				if r := at(t, recs, i); !r.step.Violation || !hasRuleStep(r.step, rule) || r.step.ViewChanged {
					t.Errorf("frame %d with an empty id: %s", i, r.step.Summary())
				}
			}
			if v := at(t, recs, 4).view; len(v.Tools) != 1 || v.Tools[0].Name != "" || v.Tools[0].Type != "" {
				t.Errorf("non-string tool name/type: %+v", v.Tools)
			}
			if v := at(t, recs, 6).view; len(v.Components) != 1 || v.Components[0].Type != "offer_list" || v.Components[0].Items != 1 {
				t.Errorf("data_loaded with an empty type: %+v", v.Components)
			}
			if p := at(t, recs, 7).view.Progress; p.Shows != pc3.SubStatus || p.Message != "" || p.EventID != "searching_offers" {
				t.Errorf("status with a numeric message: %+v", p)
			}
			if r := at(t, recs, 8); r.step.Transition == nil || r.step.Transition.Guard != pc3.GuardV04Frame {
				t.Errorf(`error labelled "0\u002e4": %s`, r.step.Summary())
			}
		}},
	}
	covered := map[string]bool{}
	for _, tc := range tests {
		covered[tc.probe] = true
		t.Run(tc.probe+"/"+tc.idle.String(), func(t *testing.T) {
			recs, r := runProbe(t, tc.probe, tc.idle)
			v := clientView(r).Conformance()
			got := want{r.State(), r.Outcome(), v.Turn, v.Text, v.Cause}
			if got != tc.want {
				g, w := got, tc.want
				g.text, w.text = clipProbeText(g.text), clipProbeText(w.text)
				t.Errorf("final %+v, want %+v", g, w)
			}
			if pc3.IsFinished(r.State()) {
				settled(t, v)
			}
			if tc.check != nil {
				tc.check(t, recs)
			}
		})
	}
	// Every probe is in the table and in the README.
	readme, err := os.ReadFile(filepath.Join(probeDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(probeDir)
	for _, e := range entries {
		if e.Name() == "README.md" {
			continue
		}
		if !covered[e.Name()] {
			t.Errorf("probe %s has no row in TestReferenceProbes", e.Name())
		}
		if !bytes.Contains(readme, []byte("`"+e.Name()+"`")) {
			t.Errorf("probe %s is not described in the README", e.Name())
		}
	}
}

func clipProbeText(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// TestReplayProgressExclusive: the replay prints the progress line the
// document describes — one thing, the one its sub-state names — on every
// probe and rule capture.
func TestReplayProgressExclusive(t *testing.T) {
	files, _ := filepath.Glob(probeDir + "/*.*")
	rules, _ := filepath.Glob("../../testdata/rules/*.sse")
	n := 0
	for _, path := range append(files, rules...) {
		if strings.HasSuffix(path, ".md") {
			continue
		}
		opts := ReferenceOptions{Profiles: []pc3.Profile{pc3.ProfileV05}, ClientIdle: pc3.DefaultClientIdle}
		runReference(t, path, opts, func(st ReferenceStep) {
			n++
			v := clientView(st.Runs[0])
			text := v.String()
			var line string
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, "progress:") {
					line = strings.TrimSpace(strings.TrimPrefix(l, "progress:"))
				}
			}
			switch v.Progress {
			case pc3.SubThinking:
				if line != "thinking…" {
					t.Errorf("%s: thinking shows %q", path, line)
				}
			case pc3.SubToolsRunning:
				if !strings.HasSuffix(line, "running") || strings.Contains(line, "·") || v.StatusLine != "" || v.Thinking {
					t.Errorf("%s: tools_running shows %q (status %q, thinking %v)", path, line, v.StatusLine, v.Thinking)
				}
			case pc3.SubStatus:
				if strings.Contains(line, "running") && !strings.Contains(v.StatusLine, "running") || v.Thinking {
					t.Errorf("%s: status shows %q", path, line)
				}
			default:
				if line != "" {
					t.Errorf("%s: progress %q shows %q", path, v.Progress, line)
				}
			}
			if v.Pending && (line != "" || v.TextLen() > 0) {
				t.Errorf("%s: typing beside %q / text", path, line)
			}
		})
	}
	if n < 1000 {
		t.Fatalf("only %d steps", n)
	}
}
