package machine_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants/dialects/pc3"
	"framescope/invariants/machine"
)

// exampleFrames decodes an example capture: raw SSE, or the blocks of a
// framescope JSONL capture.
func exampleFrames(t *testing.T, name string) []*decode.Frame {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".jsonl") {
		var sse bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l struct {
				Data *string `json:"data"`
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			if l.Data != nil {
				sse.WriteString(*l.Data)
			}
		}
		b = sse.Bytes()
	}
	var out []*decode.Frame
	var dec decode.Decoder
	keep := func(ev *decode.Event) {
		if ev.Dispatched() {
			e := ev.Clone()
			out = append(out, dec.Decode(&e, 0, false))
		}
	}
	fm := decode.NewFramer()
	fm.Feed(b, keep)
	fm.Close(keep)
	return out
}

// TestStepsDifferMatchesActions: the allocation-free action walk of
// StepsDiffer agrees with Step.Actions on every step of the examples,
// both profiles.
func TestStepsDifferMatchesActions(t *testing.T) {
	m := machine.Of(pc3.Dialect)
	for _, name := range []string{"example-axis2-recovered.sse", "example-broken.sse", "example-happy.jsonl"} {
		ps := m.Profiles()
		r05, r04 := m.NewRun(ps[0]), m.NewRun(ps[1])
		for _, in := range []machine.Input{machine.InConnect, machine.InFirstByte} {
			r05.Transport(machine.TransportEvent{Input: in})
			r04.Transport(machine.TransportEvent{Input: in})
		}
		for n, f := range exampleFrames(t, name) {
			s05, s04 := r05.StepShared(f), r04.StepShared(f)
			for _, s := range []*machine.Step{&s05, &s04} {
				want := s.Actions()
				if machine.ActionCount(s) != len(want) {
					t.Fatalf("%s frame %d: %d actions, want %v", name, n, machine.ActionCount(s), want)
				}
				for i, a := range want {
					if machine.ActionAt(s, i) != a {
						t.Errorf("%s frame %d: action %d is %s, want %s", name, n, i, machine.ActionAt(s, i), a)
					}
				}
			}
			a5, a4 := s05.Actions(), s04.Actions()
			slow := s05.To != s04.To || s05.Violation != s04.Violation || !reflect.DeepEqual(a5, a4)
			if machine.StepsDiffer(&s05, &s04) != slow {
				t.Errorf("%s frame %d: StepsDiffer %v, want %v", name, n, !slow, slow)
			}
		}
	}
}
