package store

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"framescope/invariants/dialects/pc3"
)

// TestClientCheckpointsShared: frames that change nothing in the machines
// (a flood of `data: x` inside a turn) share one checkpoint's runs instead
// of forking new ones, and the runs the pane gets from every position —
// on a shared checkpoint, between two, after the flood — are exactly the
// runs fed every frame: view, state and last step.
func TestClientCheckpointsShared(t *testing.T) {
	var evs []string
	flood := func(n int) {
		for range n {
			evs = append(evs, "data: x\n\n")
		}
	}
	evs = append(evs, sseFrame("response_id", "r1", ""), sseFrame("text", "r1", `"chunk":"a "`))
	flood(5*ClientEvery + 3)
	evs = append(evs, sseFrame("text", "r1", `"chunk":"b "`), sseFrame("tool_call", "r1", `"tool_call":{"id":"c1","name":"x","type":"function"}`))
	flood(3 * ClientEvery)
	for i := range ClientEvery {
		evs = append(evs, sseFrame("text", "r1", fmt.Sprintf(`"chunk":"w%d "`, i)))
	}
	evs = append(evs, sseFrame("completed", "r1", ""), "data: [DONE]\n\n")
	flood(3 * ClientEvery)
	st := storeOf(t, openSource(t, writeSSE(t, evs)))
	x := &st.client
	if x.n != st.Frames {
		t.Fatalf("the machines read %d of %d frames", x.n, st.Frames)
	}
	if len(x.cps) != len(x.cpAt) {
		t.Fatalf("%d checkpoints at %d positions", len(x.cps), len(x.cpAt))
	}
	shared, forks := 0, map[*pc3.ClientRun]bool{}
	for k := range x.cps {
		forks[x.cps[k].V05] = true
		if k > 0 && x.cps[k] == x.cps[k-1] {
			shared++
		}
	}
	if shared < 3 || len(forks) > len(x.cps)-shared {
		t.Fatalf("%d checkpoints, %d shared with the one before, %d distinct runs", len(x.cps), shared, len(forks))
	}
	ref := StartClientPair(st.HTTPStatus, true)
	check := func(n int) {
		t.Helper()
		p, ok := x.at(st, n)
		if !ok {
			t.Fatalf("after %d frames: not ready", n)
		}
		for _, c := range []struct {
			name     string
			got, ref *pc3.ClientRun
		}{{"v0.5", p.V05, ref.V05}, {"v0.4", p.V04, ref.V04}} {
			if got, want := c.got.View().String(), c.ref.View().String(); got != want {
				t.Fatalf("after %d frames, %s view:\n%s\nwant\n%s", n, c.name, got, want)
			}
			if c.got.State() != c.ref.State() || !reflect.DeepEqual(c.got.Last(), c.ref.Last()) {
				t.Fatalf("after %d frames, %s: state %s last %+v, want %s %+v", n, c.name, c.got.State(), c.got.Last(), c.ref.State(), c.ref.Last())
			}
			if !c.got.SameButFrame(c.ref) {
				t.Fatalf("after %d frames, %s: the run differs from the one fed every frame", n, c.name)
			}
		}
	}
	check(0)
	for n := 0; n < st.Frames; n++ {
		ref.Step(st.RowFrame(st.RowOfFrame(n)))
		check(n + 1)
	}
}

// TestStepsDifferMatchesActions: the allocation-free action walk of
// StepsDiffer agrees with Step.Actions on every step of the examples,
// both profiles.
func TestStepsDifferMatchesActions(t *testing.T) {
	for _, name := range []string{"example-axis2-recovered.sse", "example-broken.sse", "example-happy.jsonl"} {
		st := storeOf(t, openSource(t, filepath.Join(examples, name)))
		p := StartClientPair(st.HTTPStatus, true)
		for n := 0; n < st.Frames; n++ {
			s05, s04 := p.Step(st.RowFrame(st.RowOfFrame(n)))
			for _, s := range []*pc3.Step{&s05, &s04} {
				want := s.Actions()
				if actionCount(s) != len(want) {
					t.Fatalf("%s frame %d: %d actions, want %v", name, n, actionCount(s), want)
				}
				for i, a := range want {
					if actionAt(s, i) != a {
						t.Errorf("%s frame %d: action %d is %s, want %s", name, n, i, actionAt(s, i), a)
					}
				}
			}
			a5, a4 := s05.Actions(), s04.Actions()
			slow := s05.To != s04.To || s05.Violation != s04.Violation || !reflect.DeepEqual(a5, a4)
			if StepsDiffer(&s05, &s04) != slow {
				t.Errorf("%s frame %d: StepsDiffer %v, want %v", name, n, !slow, slow)
			}
		}
	}
}
