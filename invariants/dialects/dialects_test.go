package dialects

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// detect runs a body's frames through the registry's detector as the
// pipeline does, and settles at the end of the body.
func detect(body []byte) invariants.Dialect {
	d := NewDetector()
	var got invariants.Dialect
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if got != nil || !ev.Dispatched() {
			return
		}
		if c, ok := d.Feed(decode.DecodeFrame(ev, 0)); ok {
			got = c
		}
	}
	fr.Feed(body, emit)
	fr.Close(emit)
	if got == nil {
		got = d.Finish()
	}
	return got
}

// TestDetection: every capture under testdata/dialects/NAME is detected as
// NAME and as no other dialect (a want file may force one: "# dialect X";
// those are skipped), and every registered dialect has captures.
func TestDetection(t *testing.T) {
	dirs, _ := filepath.Glob("../../testdata/dialects/*")
	seen := map[string]int{}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*.sse"))
		for _, f := range files {
			if want, err := os.ReadFile(f + ".want"); err == nil && strings.Contains(string(want), "# dialect ") {
				continue
			}
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			seen[name]++
			if got := detect(body); got.Name() != name {
				t.Errorf("%s: detected as %s", f, got.Name())
			}
		}
	}
	for _, d := range All {
		if d.Name() != "pc3" && seen[d.Name()] == 0 {
			t.Errorf("dialect %s has no capture under testdata/dialects/%s", d.Name(), d.Name())
		}
	}
	// PC3's captures are the rule oracle's.
	files, _ := filepath.Glob("../../testdata/rules/valid-*.sse")
	for _, f := range files {
		body, _ := os.ReadFile(f)
		if got := detect(body); got.Name() != "pc3" {
			t.Errorf("%s: detected as %s", f, got.Name())
		}
	}
}

func TestLookup(t *testing.T) {
	for _, d := range All {
		got, ok := Lookup(strings.ToUpper(d.Name()))
		if !ok || got != d {
			t.Errorf("Lookup(%q) = %v, %v", strings.ToUpper(d.Name()), got, ok)
		}
		if d.Description() == "" || len(d.Rules()) == 0 {
			t.Errorf("%s: no description or no rules", d.Name())
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found a dialect")
	}
	if All[len(All)-1] != invariants.SSE {
		t.Error("sse must be the last dialect (the fallback)")
	}
}

// FuzzDetect: any bytes settle on exactly one registered dialect, and the
// chosen dialect's checker takes the stream without panicking.
func FuzzDetect(f *testing.F) {
	f.Add("data: {\"type\":\"ping\"}\n\n")
	f.Add("data: {\"event_type\":\"text\"}\n\n")
	f.Add("event: stream.begin\ndata: {}\n\n")
	f.Add("data: [DONE]\n\ndata: x\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		body = body[:min(len(body), 1<<10)] // detection reads the first frames (and see decode's fuzzMaxInput)
		d := detect([]byte(body))
		if _, ok := Lookup(d.Name()); !ok {
			t.Fatalf("detected %q, not a registered dialect", d.Name())
		}
	})
}
