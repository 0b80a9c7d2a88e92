//go:build unix

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runStream runs the binary with args, the word STREAM in them replaced
// by a stream of data that can be read once: a FIFO a writer fills (fifo
// true, as `mkfifo ff; cat x.sse > ff & framescope check ff`) or a pipe
// the binary inherits as /dev/fd/3 (as `framescope check <(cat x.sse)`). A
// run that outlives 20 s has hung.
func runStream(t *testing.T, data []byte, fifo bool, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	path := "/dev/fd/3"
	var extra []*os.File
	if fifo {
		path = filepath.Join(t.TempDir(), "ff")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		go func() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0) // waits for the reader
			if err != nil {
				return
			}
			f.Write(data)
			f.Close()
		}()
	} else {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		go func() {
			w.Write(data)
			w.Close()
		}()
		extra = []*os.File{r}
	}
	for i, a := range args {
		if a == "STREAM" {
			args[i] = path
		}
	}
	cmd := exec.CommandContext(ctx, builtBinary, args...)
	cmd.Dir = moduleRoot()
	cmd.ExtraFiles = extra
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v: hung (killed after 20 s); stderr %q", args, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cliResult{out.String(), errb.String(), code}
}

// TestCheckStreamReadOnce: a pipe or a FIFO named on the command line is
// read once, as stdin is: check (in every format), stats, dump and
// reference --replay see every frame (check read a pipe as 0 bytes, and waited for ever on a
// FIFO whose writer had gone, when it opened the path a second time).
func TestCheckStreamReadOnce(t *testing.T) {
	happy, err := os.ReadFile(repoPath("testdata/examples/example-happy.sse"))
	if err != nil {
		t.Fatal(err)
	}
	broken, err := os.ReadFile(repoPath("testdata/examples/example-broken.sse"))
	if err != nil {
		t.Fatal(err)
	}
	wantReplay := runCLI(t, "", "reference", "--replay", "testdata/examples/example-happy.sse").stdout
	_, wantReplay, _ = strings.Cut(wantReplay, "\n") // its first line names the input
	for _, fifo := range []bool{false, true} {
		kind := map[bool]string{false: "pipe", true: "FIFO"}[fifo]
		res := runStream(t, happy, fifo, "check", "--format", "json", "STREAM")
		if reps := parseReports(t, res.stdout); res.code != 0 || len(reps) != 1 || reps[0].Frames != 13 || reps[0].Dialect != "pc3" {
			t.Errorf("%s: check: exit %d, %s %s", kind, res.code, res.stdout, res.stderr)
		}
		for _, format := range []string{"github", "sarif"} { // their alarms' lines are not read again from a stream
			res := runStream(t, broken, fifo, "check", "--format", format, "STREAM")
			if res.code != 1 || !strings.Contains(res.stdout, "tool-unfinished") {
				t.Errorf("%s: check --format %s: exit %d, %s %s", kind, format, res.code, res.stdout, res.stderr)
			}
		}
		res = runStream(t, happy, fifo, "dump", "STREAM")
		if res.code != 0 || strings.Count(res.stdout, "\n") != 14 {
			t.Errorf("%s: dump: exit %d, %d lines, want 14: %s", kind, res.code, strings.Count(res.stdout, "\n"), res.stderr)
		}
		res = runStream(t, happy, fifo, "stats", "--format", "json", "STREAM")
		if res.code != 0 || !strings.Contains(res.stdout, `"captures":1,"untimed":["`) || !strings.Contains(res.stdout, `"no_turns":[],"unreadable":[]`) {
			t.Errorf("%s: stats: exit %d, %s %s", kind, res.code, res.stdout, res.stderr)
		}
		res = runStream(t, happy, fifo, "reference", "--replay", "STREAM")
		if _, got, _ := strings.Cut(res.stdout, "\n"); res.code != 0 || got != wantReplay {
			t.Errorf("%s: reference --replay: exit %d, a replay other than the file's: %s", kind, res.code, res.stderr)
		}
	}
}
