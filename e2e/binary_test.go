// Package e2e holds the tests that drive the framescope binary as a user
// does: built once from the repository (TestMain), run as a child process.
//
// Two kinds live here. The scripts, testdata/script/*.txtar, are
// transcripts of framescope runs, one per behaviour (TestScript; its doc
// comment in script_test.go lists the commands they have). The Go tests
// are the ones a transcript cannot say: loops over the corpus (the rule,
// dialect, PC3-golden and real captures, TestOutputIdentity), hostile
// servers and clients written in Go, signals sent once some output is
// seen, and the whole-process benchmarks.
//
// The binary runs in the repository's top folder (command), where a user
// runs it and where the docs' transcripts are written, so a path a test
// gives it, "testdata/rules/ttfe.fires.sse", is the repository's testdata
// and the reports name it as the docs do. The test process itself stays in
// e2e/ (go test's rule): Go code reads the repository's files through
// repoPath and repoGlob, and e2e/testdata holds this package's own files
// (the scripts, identity.tsv).
//
// Run one script, one test or the benchmarks with
//
//	go test ./e2e -run TestScript/check_examples
//	go test ./e2e -run '^TestRuleCaptures$'
//	go test ./e2e -run '^$' -bench Startup -benchtime 50x
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

// builtBinary is the framescope binary TestMain built for this run, and
// builtVersion what its --version prints after "framescope version ".
var builtBinary, builtVersion string

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
	// The scripts' $VERSION: the build stamps it (a pseudo-version from
	// the VCS), so only the binary knows it. A --version that prints
	// something else leaves it empty and version.txtar fails.
	if out, err := exec.Command(builtBinary, "--version").Output(); err == nil {
		if m := versionLine.FindSubmatch(out); m != nil {
			builtVersion = string(m[1])
		}
	}
	return m.Run()
}

var versionLine = regexp.MustCompile(`\Aframescope version (\S+)\n\z`)

// moduleRoot is the repository's top folder: this file's parent.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

func binaryPath(t *testing.T) string { t.Helper(); return builtBinary }

func repoRoot(t *testing.T) string { t.Helper(); return moduleRoot() }

// command is the built binary with args, to run in the repository's top
// folder with this process's environment.
func command(args ...string) *exec.Cmd {
	cmd := exec.Command(builtBinary, args...)
	cmd.Dir = moduleRoot()
	return cmd
}

// repoPath is the file at rel (slash-separated, from the repository's top
// folder: "testdata/rules/registry", "README.md").
func repoPath(rel string) string {
	return filepath.Join(moduleRoot(), filepath.FromSlash(rel))
}

// repoGlob is filepath.Glob of a pattern from the repository's top folder;
// the matches are from there too ("testdata/rules/ttfe.fires.sse"), to
// give the binary. A pattern that matches nothing fails the test: a moved
// corpus must not turn a loop over it into a test of nothing.
func repoGlob(t *testing.T, pattern string) []string {
	t.Helper()
	root := moduleRoot()
	abs, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
	if err != nil {
		t.Fatal(err)
	}
	if len(abs) == 0 {
		t.Fatalf("nothing in the repository matches %s", pattern)
	}
	rel := make([]string, len(abs))
	for i, p := range abs {
		r, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		rel[i] = filepath.ToSlash(r)
	}
	return rel
}

// goTool is a go command (build, test) run in the repository's top folder.
func goTool(args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot()
	return cmd
}
