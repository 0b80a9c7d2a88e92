package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkStartup runs whole processes, side by side in one run: an empty
// Go program (the floor every Go binary pays), `framescope --version`, and
// `framescope check --format json` of a small capture — what a CI job that
// checks captures one per call, and shell completion, pay each time. The
// release binary is built once (not the test binary the scripts run):
//
//	go test -run '^$' -bench Startup -benchtime 50x .
//
// Target (issue 23 item 14): version and check of a small capture within
// 15 ms of wall time; ns/op is one process, start to exit.
func BenchmarkStartup(b *testing.B) {
	bins := startupBinaries(b)
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"empty", []string{bins.empty}},
		{"version", []string{bins.framescope, "--version"}},
		{"check-small", []string{bins.framescope, "check", "--format", "json", "testdata/examples/example-happy.sse"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if out, err := exec.Command(tc.argv[0], tc.argv[1:]...).CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", tc.argv, err, out)
				}
			}
		})
	}
}

type startupBins struct{ empty, framescope string }

// startupBinaries builds the empty program and the release framescope.
// (A benchmark with sub-benchmarks runs its body once: built once.)
func startupBinaries(b *testing.B) startupBins {
	b.Helper()
	dir := b.TempDir()
	bins := startupBins{filepath.Join(dir, "empty"), filepath.Join(dir, "framescope")}
	for _, p := range [][2]string{{bins.empty, "./testdata/procbench/empty"}, {bins.framescope, "."}} {
		if out, err := exec.Command("go", "build", "-o", p[0], p[1]).CombinedOutput(); err != nil {
			b.Fatalf("building %s: %v\n%s", p[1], err, out)
		}
	}
	return bins
}
