package reference

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"framescope/decode"
	"framescope/invariants/dialects/pc3"
)

// replayKitCase runs a client profile over an exported capture as a client
// team's harness would: the steps' transport inputs are fired, and each
// frame is the next event an independent pass of the SSE framer finds in
// the exported bytes. It returns the first disagreement with the exported
// expectations ("" when there is none).
func replayKitCase(t *testing.T, raw []byte, exp *KitExpect) string {
	t.Helper()
	var frames []*decode.Frame
	var dec decode.Decoder
	fm := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			frames = append(frames, dec.Decode(ev, 0, false).Clone())
		}
	}
	fm.Feed(raw, emit)
	fm.Close(emit)

	r := pc3.NewClientRun(pc3.Profile(exp.Profile))
	var want []byte
	next := 0
	for i, st := range exp.Steps {
		var s pc3.Step
		if st.Input == "frame" {
			if next >= len(frames) {
				return "step " + strconv.Itoa(i) + ": the capture has no more frames"
			}
			f := frames[next]
			next++
			if st.Frame == nil || *st.Frame != f.Index || *st.Offset != f.Offset || *st.Length != f.Size || st.Type != string(pc3.ClassifyFrame(f)) {
				return "step " + strconv.Itoa(i) + ": frame " + strconv.Itoa(f.Index) + " is not the one the step describes"
			}
			s = r.Step(f)
		} else {
			s = r.Transport(pc3.TransportEvent{Input: pc3.Input(st.Input)})
		}
		_ = s
		if r.State() != st.State {
			return "step " + strconv.Itoa(i) + ": state " + string(r.State()) + ", want " + string(st.State)
		}
		if st.View != nil {
			want, _ = json.Marshal(st.View)
		}
		got, _ := json.Marshal(r.View().Conformance())
		if !bytes.Equal(got, want) {
			return "step " + strconv.Itoa(i) + ": view\n got  " + string(got) + "\n want " + string(want)
		}
	}
	if next != len(frames) {
		return "the expectations skip frames"
	}
	return ""
}

// TestExportKitRoundTrips exports the kit from this repository and replays
// every exported capture: the machine gives exactly the exported
// expectations, for both profiles.
func TestExportKitRoundTrips(t *testing.T) {
	src := os.DirFS("../..")
	sources, err := KitSources(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	idx, err := ExportKit(dir, src, sources, KitOptions{
		Profiles:   pc3.Profiles(),
		ClientIdle: pc3.DefaultClientIdle,
		Readme:     []byte("# kit\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.Cases) < 250 {
		t.Fatalf("only %d cases", len(idx.Cases))
	}
	var onDisk KitIndex
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil || json.Unmarshal(b, &onDisk) != nil || onDisk.Format != KitFormat || len(onDisk.Cases) != len(idx.Cases) {
		t.Fatalf("index.json: %v", err)
	}
	steps, undelivered, idles := 0, 0, 0
	for _, kc := range onDisk.Cases {
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(kc.Capture)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pc3.Profiles() {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(kc.Expect[string(p)])))
			if err != nil {
				t.Fatal(err)
			}
			var exp KitExpect
			if err := json.Unmarshal(b, &exp); err != nil {
				t.Fatalf("%s: %v", kc.Expect[string(p)], err)
			}
			if exp.Format != KitFormat || exp.Profile != string(p) || len(exp.Steps) < 2 || exp.Steps[0].View == nil {
				t.Fatalf("%s: malformed expectations", kc.Expect[string(p)])
			}
			if msg := replayKitCase(t, raw, &exp); msg != "" {
				t.Errorf("%s (%s): %s", kc.Name, p, msg)
			}
			for _, st := range exp.Steps {
				steps++
				if st.Delivered != nil && !*st.Delivered {
					undelivered++
				}
				if st.Input == string(pc3.InIdleTimer) {
					idles++
				}
			}
		}
	}
	// The kit exercises what it documents: frames a disconnected client
	// never reads, and the idle timer as an input.
	if undelivered == 0 || idles == 0 {
		t.Errorf("kit has %d undelivered frames and %d idle_timer steps", undelivered, idles)
	}
	t.Logf("%d cases, %d steps", len(onDisk.Cases), steps)
}

// TestExportKitCaseShape pins one small case exactly.
func TestExportKitCaseShape(t *testing.T) {
	src := os.DirFS("../..")
	dir := t.TempDir()
	_, err := ExportKit(dir, src, []KitSource{{Group: "probes", Path: "testdata/reference/probes/lenient-empty.sse", About: "empty"}},
		KitOptions{ClientIdle: pc3.DefaultClientIdle})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "cases", "probes", "lenient-empty.v0.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp KitExpect
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, s := range exp.Steps {
		inputs = append(inputs, s.Input+"→"+string(s.State))
	}
	got, _ := json.Marshal(inputs)
	if string(got) != `["connect→connecting","first_byte→awaiting_first_frame","eof→ended_without_terminal"]` {
		t.Errorf("steps %s", got)
	}
	var last pc3.ConformanceView
	if v := exp.Steps[2].View; v != nil {
		_ = json.Unmarshal(v, &last)
	}
	if exp.Steps[2].View == nil || last.Outcome != pc3.OutcomeConnectionLost || last.Cause != "eof" || last.Typing || last.Turn != 1 {
		t.Errorf("final view %+v", last)
	}
	if exp.Steps[1].View != nil {
		t.Errorf("first_byte changed nothing the user sees, yet carries a view")
	}
	// The replay notices a wrong expectation.
	last.Cause = "transport_error"
	exp.Steps[2].View, _ = json.Marshal(last)
	if replayKitCase(t, nil, &exp) == "" {
		t.Error("a wrong expectation round-tripped")
	}
}
