package report

import (
	"fmt"
	"os"
	"testing"

	"framescope/sessions/internal/sessiontest"
)

// TestWriteBenchCapture writes the benchmark capture (the generator and
// seed of BenchmarkCheckPipeline, FRAMESCOPE_BENCH_MB MB) to the file
// FRAMESCOPE_WRITE_CAPTURE names, for the whole-process comparison
// (e2e/process_bench_test.go), and prints its shape on one
// line. Without the variable it skips:
//
//	FRAMESCOPE_WRITE_CAPTURE=/tmp/c.sse FRAMESCOPE_BENCH_MB=300 go test ./sessions/ -run '^TestWriteBenchCapture$' -v
func TestWriteBenchCapture(t *testing.T) {
	path := os.Getenv("FRAMESCOPE_WRITE_CAPTURE")
	if path == "" {
		t.Skip("set FRAMESCOPE_WRITE_CAPTURE=FILE to write the benchmark capture")
	}
	st, err := sessiontest.WriteCaptureFile(path, benchMB(t)<<20, sessiontest.BenchSeed)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("capture: %d bytes, %d frames, %d turns\n", st.Bytes, st.Frames, st.Turns)
}
