package replay

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/report"
)

// TestHARBase64StreamsBoundedMemory: a 40 MB stream as a 55 MB base64 HAR
// (escaped slashes and line breaks, as exporters write them) is read, loaded
// for serve and checked with a heap bounded by a few chunks (read) or by the
// body once (serve), not by the file four times over as before (a 500 MB
// HAR: 2.15 GB in check, 2.5 GB in serve).
func TestHARBase64StreamsBoundedMemory(t *testing.T) {
	const size = 40 << 20
	path := filepath.Join(t.TempDir(), "big.har")
	want, st := sessiontest.WriteBase64HAR(t, path, size)
	fi, _ := os.Stat(path)
	mb := func(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

	// Reading: every byte, in chunks, with the heap flat.
	var n int64
	var chunks int
	sum := sha256.New()
	peak := sessiontest.HeapPeak(func() {
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		n, chunks = sessiontest.DrainInto(t, c, sum)
	})
	t.Logf("HAR %s (stream %s): read in %d chunks, peak heap %s above the start", mb(uint64(fi.Size())), mb(uint64(n)), chunks, mb(peak))
	if n != st.Bytes || !bytes.Equal(sum.Sum(nil), want) {
		t.Fatalf("read %d bytes, want %d (or the bytes differ)", n, st.Bytes)
	}
	if peak > 8<<20 {
		t.Errorf("reading the HAR: peak heap %s above the start, want ≤ 8 MB (the body is streamed)", mb(peak))
	}

	// Checking: the pipeline's own bound, not the body's size.
	var rep *report.Report
	peak = sessiontest.HeapPeak(func() {
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if rep, err = report.Check(c, invariants.Options{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("check: %d frames, peak heap %s above the start", rep.Frames, mb(peak))
	if rep.Frames != st.Frames || rep.Counts.Reaches(invariants.SevWarn) {
		t.Errorf("check: %d frames (want %d), counts %+v", rep.Frames, st.Frames, rep.Counts)
	}
	if peak > 32<<20 {
		t.Errorf("checking the HAR: peak heap %s above the start, want ≤ 32 MB", mb(peak))
	}

	// serve holds the body once, for its lifetime, and little more while
	// loading.
	var r *Replay
	peak = sessiontest.HeapPeak(func() {
		var err error
		if r, err = LoadReplay(path); err != nil {
			t.Fatal(err)
		}
	})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("serve: loaded %d chunks, peak heap %s, %s in use after loading", len(r.Chunks), mb(peak), mb(ms.HeapInuse))
	if got := rpConcat(r); int64(len(got)) != st.Bytes || sha256.Sum256(got) != [32]byte(want) {
		t.Fatalf("replay holds %d bytes, want %d (or they differ)", len(got), st.Bytes)
	}
	if limit := uint64(size + size/8 + 16<<20); peak > limit {
		t.Errorf("loading for serve: peak heap %s, want ≤ %s (the body once)", mb(peak), mb(limit))
	}
	runtime.KeepAlive(r)
}
