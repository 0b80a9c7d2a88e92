package pipeline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/report"
)

// TestStagesMatchInline: the two-stage pipeline (two cores) and the inline
// one (one core) give byte-identical reports on every capture of testdata,
// and on a generated capture long enough to cross many batch boundaries.
func TestStagesMatchInline(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../testdata/rules/*.sse", "../../testdata/rules/*.jsonl", "../../testdata/examples/*", "../../testdata/dialects/*/*.sse", "../../testdata/dialects/*/*.jsonl"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	gen := filepath.Join(t.TempDir(), "gen.sse")
	if _, err := sessiontest.WriteCaptureFile(gen, 3<<20, 7); err != nil {
		t.Fatal(err)
	}
	files = append(files, gen)
	report := func(name string, procs int) string {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		c, err := capture.Open(name, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		rep, err := report.Check(c, invariants.Options{})
		if rep == nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b bytes.Buffer
		rep.WriteJSON(&b)
		rep.WriteText(&b)
		rep.WriteJUnit(&b, invariants.SevError)
		return b.String()
	}
	if len(files) < 300 {
		t.Fatalf("only %d captures", len(files))
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		if inline, staged := report(f, 1), report(f, 2); inline != staged {
			t.Errorf("%s: the staged report differs from the inline one", f)
		}
	}
}

// TestTextReportShape: plurals, --min-severity, a repeated explanation
// said once, and messages wrapped under their column at word boundaries.
func TestTextReportShape(t *testing.T) {
	long := "a v0.4 client ignores it (status is new in v0.5: a v0.4 client ignores it as an unknown type); a v0.5 client goes on"
	rep := &report.Report{Source: "x.sse", Format: sessions.KindSSE, Dialect: "pc3", Frames: 1,
		Turns: []invariants.Turn{{ResponseID: "r", FirstFrame: 0, LastFrame: 0}},
		Alarms: []report.ReportAlarm{
			{Alarm: invariants.Alarm{Rule: "client-divergence", Severity: invariants.SevInfo, Frame: 1, Turn: 0, Message: long}},
			{Alarm: invariants.Alarm{Rule: "client-divergence", Severity: invariants.SevInfo, Frame: 4, Turn: 0, Message: long}},
			{Alarm: invariants.Alarm{Rule: "terminal-missing", Severity: invariants.SevError, Frame: invariants.NoFrame, Turn: 0, Message: "the turn ended (EOF) without a terminal frame"}},
		}}
	var b bytes.Buffer
	rep.WriteTextWith(&b, report.TextOptions{Width: 80})
	out := b.String()
	for _, want := range []string{"1 frame, 1 turn,", "(3 alarms)", "(as at frame 1 above)"} {
		if !bytes.Contains([]byte(out), []byte(want)) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	for _, line := range bytes.Split(b.Bytes(), []byte("\n")) {
		if n := len([]rune(string(line))); n > 80 {
			t.Errorf("line of %d runes at width 80: %q", n, line)
		}
	}
	b.Reset()
	rep.WriteTextWith(&b, report.TextOptions{MinSeverity: invariants.SevWarn})
	if out := b.String(); bytes.Contains(b.Bytes(), []byte("client-divergence")) || !bytes.Contains(b.Bytes(), []byte("(3 alarms, 1 shown)")) {
		t.Errorf("min severity warn:\n%s", out)
	}
}
