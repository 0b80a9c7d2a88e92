package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"framescope/invariants"
)

// TestStagesMatchInline: the two-stage pipeline (two cores) and the inline
// one (one core) give byte-identical reports on every capture of testdata,
// and on a generated capture long enough to cross many batch boundaries.
func TestStagesMatchInline(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/rules/*.sse", "../testdata/rules/*.jsonl", "../testdata/examples/*", "../testdata/dialects/*/*.sse", "../testdata/dialects/*/*.jsonl"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	gen := filepath.Join(t.TempDir(), "gen.sse")
	if _, err := writeCaptureFile(gen, 3<<20, 7); err != nil {
		t.Fatal(err)
	}
	files = append(files, gen)
	report := func(name string, procs int) string {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		c, err := Open(name, OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		rep, err := Check(c, invariants.Options{})
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
