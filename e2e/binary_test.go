// Package e2e holds the tests that drive the framescope binary as a user
// does: built once from the repository (TestMain), run as a child process.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// builtBinary is the framescope binary TestMain built for this run.
var builtBinary string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "framescope-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	builtBinary = filepath.Join(dir, "framescope")
	build := exec.Command("go", "build", "-o", builtBinary, ".")
	build.Dir = moduleRoot()
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building framescope:", err)
		return 2
	}
	return m.Run()
}

// moduleRoot is the repository's top folder: this file's parent.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

func binaryPath(t *testing.T) string { t.Helper(); return builtBinary }

func repoRoot(t *testing.T) string { t.Helper(); return moduleRoot() }
