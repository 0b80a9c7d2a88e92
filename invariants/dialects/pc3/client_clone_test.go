package pc3

import (
	"fmt"
	"testing"

	"framescope/decode"
)

// forkStream is two turns on one stream touching every part of the view:
// status, tools (one closed in place), a placeholder filled in place,
// cards, more telemetry than the view keeps, text in both turns.
func forkStream() []*decode.Frame {
	var fs []*decode.Frame
	add := func(typ, rid, extra string) { fs = append(fs, mkFrame(typ, "0.5", rid, extra)) }
	add("response_id", "r1", "")
	add("status", "r1", `"data":{"event_id":"searching","message":"Searching..."}`)
	add("tool_call", "r1", toolExtra)
	add("data_loading", "r1", dataExtra)
	add("text", "r1", `"chunk":"Hello "`)
	add("tool_completed", "r1", toolExtra)
	add("data_loaded", "r1", `"data":{"id":"list-1","type":"offer_list","key":{"ids":[]},"items":[{"id":"A"}]}`)
	add("component", "r1", `"chunk":{"type":"offer_card"},"tool_call":{"id":"cmp_1","name":"render_offer_card","type":"function"}`)
	for i := 0; i < maxTelemetry+2; i++ {
		add("usage", "r1", fmt.Sprintf(`"total_tokens":%d`, i))
	}
	add("error", "r1", `"error":{"code":"CCS_ENVELOPE_ERROR"},"is_final":false`)
	add("text", "r1", `"chunk":"world, a long first answer"`)
	add("completed", "r1", "")
	fs = append(fs, rawFrame("[DONE]"))
	add("response_id", "r2", "")
	add("text", "r2", `"chunk":"XY"`)
	add("tool_call", "r2", toolExtra)
	add("completed", "r2", "")
	fs = append(fs, rawFrame("[DONE]"))
	for i, f := range fs {
		f.Index = i
	}
	return fs
}

func startedRun(p Profile) *ClientRun {
	r := NewClientRun(p)
	r.TransportShared(TransportEvent{Input: InConnect})
	r.TransportShared(TransportEvent{Input: InFirstByte})
	return r
}

// TestForkIsIndependent forks a run after every frame, then steps the
// original to the end and the fork to the end: the fork shows at fork
// time what it showed before the original moved on, and ends where a run
// that was never forked ends (both profiles).
func TestForkIsIndependent(t *testing.T) {
	fs := forkStream()
	for _, p := range Profiles() {
		want := startedRun(p)
		for _, f := range fs {
			want.Step(f)
		}
		want.Transport(TransportEvent{Input: InEOF})
		for cut := 0; cut <= len(fs); cut++ {
			base := startedRun(p)
			for _, f := range fs[:cut] {
				base.StepShared(f)
			}
			fork := base.Fork()
			atFork := fork.View().String()
			for _, f := range fs[cut:] {
				base.StepShared(f)
			}
			base.TransportShared(TransportEvent{Input: InEOF})
			if got := fork.View().String(); got != atFork {
				t.Fatalf("%s cut %d: stepping the original changed the fork:\n%s\nwas:\n%s", p, cut, got, atFork)
			}
			// A fork of the fork, stepped to the end, must not touch its parent.
			again := fork.Fork()
			for _, f := range fs[cut:] {
				again.StepShared(f)
			}
			again.TransportShared(TransportEvent{Input: InEOF})
			if got := fork.View().String(); got != atFork {
				t.Fatalf("%s cut %d: stepping a fork changed its parent:\n%s\nwas:\n%s", p, cut, got, atFork)
			}
			for name, r := range map[string]*ClientRun{"original": base, "fork": again} {
				if r.State() != want.State() || r.View().String() != want.View().String() {
					t.Errorf("%s cut %d: the %s ends in %s:\n%s\nwant %s:\n%s", p, cut, name, r.State(), r.View(), want.State(), want.View())
				}
			}
		}
	}
}

// TestForkSharesText: a fork does not copy the bubble's text.
func TestForkSharesText(t *testing.T) {
	r := startedRun(ProfileV05)
	for _, f := range forkStream()[:5] {
		r.StepShared(f)
	}
	c := r.Fork()
	if r.View().TextLen() == 0 || &c.view.text[0] != &r.view.text[0] {
		t.Fatalf("the fork copied the text (%d bytes)", r.View().TextLen())
	}
	if cap(c.view.text) != len(c.view.text) {
		t.Errorf("the fork's text has spare capacity %d: its appends would land in the original's bytes", cap(c.view.text)-len(c.view.text))
	}
}

// TestForkRestartKeepsSharedText: the turn restarting on a run that shares
// its text (the case where the view reuses its storage) leaves the other
// run's text alone, on a frame and on connect.
func TestForkRestartKeepsSharedText(t *testing.T) {
	fs := forkStream()
	done := 0
	for i, f := range fs {
		if f.Done {
			done = i
			break
		}
	}
	r := startedRun(ProfileV05)
	for _, f := range fs[:done+1] {
		r.StepShared(f)
	}
	keep := r.Fork()
	want := keep.View().Text()
	r.StepShared(fs[done+1]) // opens turn 2
	r.StepShared(fs[done+2]) // "XY" written where turn 1's text began
	if got := keep.View().Text(); got != want {
		t.Errorf("the next turn wrote over the fork's text: %q, want %q", got, want)
	}
	other := keep.Fork()
	other.TransportShared(TransportEvent{Input: InConnect})
	other.StepShared(fs[done+1])
	other.StepShared(fs[done+2])
	if got := keep.View().Text(); got != want {
		t.Errorf("a retry on the fork wrote over its parent's text: %q, want %q", got, want)
	}
}

func BenchmarkForkLongTurn(b *testing.B) {
	r := startedRun(ProfileV05)
	r.StepShared(mkFrame("response_id", "0.5", "r1", ""))
	f := mkFrame("text", "0.5", "r1", `"chunk":"lorem ipsum "`)
	for i := 0; i < 100000; i++ {
		r.StepShared(f)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = r.Fork()
	}
}
