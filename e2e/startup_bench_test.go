package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkStartup runs whole processes, side by side in one run: an empty
// Go program (the floor every Go binary pays), `framescope --version`, and
// `framescope check --format json` of a small capture — what a CI job that
// checks captures one per call, and shell completion, pay each time. The
// framescope is the release build TestMain made; the empty program is
// built here, once:
//
//	go test ./e2e -run '^$' -bench Startup -benchtime 50x
//
// Target (issue 23 item 14): version and check of a small capture within
// 15 ms of wall time; ns/op is one process, start to exit.
func BenchmarkStartup(b *testing.B) {
	empty := emptyProgram(b)
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"empty", []string{empty}},
		{"version", []string{builtBinary, "--version"}},
		{"check-small", []string{builtBinary, "check", "--format", "json", "testdata/examples/example-happy.sse"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(tc.argv[0], tc.argv[1:]...)
				cmd.Dir = moduleRoot()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", tc.argv, err, out)
				}
			}
		})
	}
}

// emptyProgram builds testdata/procbench/empty. (A benchmark with
// sub-benchmarks runs its body once: built once.)
func emptyProgram(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "empty")
	if out, err := goTool("build", "-o", path, "./testdata/procbench/empty").CombinedOutput(); err != nil {
		b.Fatalf("building the empty program: %v\n%s", err, out)
	}
	return path
}
