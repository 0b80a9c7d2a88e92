package invariants_test

import (
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// flavored is a dialect whose mapper names a flavor from a "via" member and
// says the stream is in an older shape when a frame lacks "seq".
var flavored = &invariants.Spec{
	ID: "flavored", Shape: invariants.Shape{Turns: invariants.TurnPerStream},
	Generic:    []string{"legacy-shape"},
	SniffFrame: func(*decode.Frame, invariants.Keys) invariants.Verdict { return invariants.Yes },
	NewMapper:  func() invariants.Mapper { return flavorMapper{} },
}

type flavorMapper struct{}

func (flavorMapper) Map(f *decode.Frame, m *invariants.Mapping) {
	if v, ok := f.Get("via").Str(); ok {
		m.SetFlavor(v)
	}
	if f.Get("seq") == nil {
		m.Legacy("before seq")
	}
}

func TestFlavorAndLegacyShape(t *testing.T) {
	body := "data: {\"via\":\"groq\"}\n\ndata: {\"x\":1}\n\ndata: {\"x\":2,\"seq\":1}\n\n"
	for _, tc := range []struct{ forced, want string }{{"", "groq"}, {"mistral", "mistral"}} {
		chk := flavored.NewChecker(invariants.Options{Flavor: tc.forced})
		res := dialecttest.RunOpts(flavored, body, invariants.Options{Flavor: tc.forced})
		legacy := 0
		for _, a := range res.Alarms {
			if a.Rule == "legacy-shape" {
				legacy++
				if a.Severity != invariants.SevInfo {
					t.Errorf("legacy-shape at %s, want info", a.Severity)
				}
			}
		}
		if legacy != 1 {
			t.Errorf("forced %q: %d legacy-shape alarms, want one for the stream", tc.forced, legacy)
		}
		var dec decode.Decoder
		fr := decode.NewFramer()
		fr.Feed([]byte(body), func(ev *decode.Event) {
			if ev.Dispatched() {
				chk.Observe(dec.Decode(ev, 0, false))
			}
		})
		if got := invariants.FlavorOf(chk); got != tc.want {
			t.Errorf("forced %q: flavor %q, want %q", tc.forced, got, tc.want)
		}
	}
}
