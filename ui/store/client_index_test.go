package store

import (
	"fmt"
	"reflect"
	"testing"

	"framescope/invariants/machine"
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
	shared, forks := 0, map[machine.Run]bool{}
	for k := range x.cps {
		forks[x.cps[k].Ref] = true
		if k > 0 && x.cps[k] == x.cps[k-1] {
			shared++
		}
	}
	if shared < 3 || len(forks) > len(x.cps)-shared {
		t.Fatalf("%d checkpoints, %d shared with the one before, %d distinct runs", len(x.cps), shared, len(forks))
	}
	ref := StartClientPair(st.Machine(), st.HTTPStatus, true)
	check := func(n int) {
		t.Helper()
		p, ok := x.at(st, n)
		if !ok {
			t.Fatalf("after %d frames: not ready", n)
		}
		for _, c := range []struct {
			name     string
			got, ref machine.Run
		}{{"v0.5", p.Ref, ref.Ref}, {"v0.4", p.Dep, ref.Dep}} {
			if got, want := viewString(c.got), viewString(c.ref); got != want {
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

// viewString is what a run shows, as ClientView.String renders it.
func viewString(r machine.Run) string { return string(r.AppendView(nil, machine.ViewTextOptions{})) }
