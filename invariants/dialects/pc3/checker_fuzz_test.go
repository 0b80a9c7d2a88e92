package pc3

import (
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

func FuzzChecker(f *testing.F) {
	f.Add([]byte(newTurn("r").open().f("text", `"chunk":"x"`).completed().done().String()), false)
	f.Add([]byte(newTurn("r").open().f("error", `"error":{"code":"PARTIAL_FAN_OUT","failed":[{}]},"is_final":false`).done().done().String()), true)
	f.Add([]byte("data: {\"event_type\":\"data_loaded\",\"data\":{\"items\":[{\"payload\":1,\"status\":2}]}}\n\ndata: [DONE]\n\n"), false)
	f.Fuzz(func(t *testing.T, stream []byte, cancelled bool) {
		// A few frames reach every rule. Longer inputs are cut (min adds
		// no coverage edge, where an early return would be one the
		// engine's minimizer then works on for seconds at "0 execs/sec":
		// see decode's fuzzMaxInput).
		stream = stream[:min(len(stream), 2<<10)]
		c := New(invariants.Options{})
		dec := decode.Decoder{Keys: Keys}
		check := func(as []invariants.Alarm) {
			for _, a := range as {
				if _, ok := LookupRule(a.Rule); !ok {
					t.Fatalf("unknown rule %q", a.Rule)
				}
				if a.Frame < invariants.NoFrame || a.Frame >= dec.NextIndex() {
					t.Fatalf("alarm %s on frame %d of %d", a.Rule, a.Frame, dec.NextIndex())
				}
			}
		}
		fm := decode.NewFramer()
		emit := func(ev *decode.Event) {
			if ev.Dispatched() {
				check(c.Observe(dec.Decode(ev, 0, false)))
			}
		}
		fm.Feed(stream, emit)
		fm.Close(emit)
		end := invariants.End{Kind: invariants.EndEOF}
		if cancelled {
			end.Kind = invariants.EndCancelled
		}
		check(c.End(end))
		if n := len(c.Turns()); dec.NextIndex() > 0 && n == 0 {
			t.Fatal("frames but no turn")
		}
	})
}
