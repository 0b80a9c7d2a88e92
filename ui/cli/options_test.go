package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/spf13/cobra"
)

// The commands are options + a run function (newXCmd(env, runF) declares
// the flags, xRun(opts) does the work): these tests give each command a
// runF that keeps the options it receives, and check that the command line
// was parsed into them and that the streams are the Env's.

// execWith runs cmd over args and fails the test on an error.
func execWith(t *testing.T, cmd *cobra.Command, args ...string) {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%s %s: %v", cmd.Name(), strings.Join(args, " "), err)
	}
}

func testEnv() (Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return Env{Stdin: strings.NewReader("data: x\n\n"), Stdout: &out, Stderr: &errOut,
		ReferenceKit: fstest.MapFS{"kit.sse": {Data: []byte("data: x\n\n")}}}, &out, &errOut
}

func TestCheckRunReceivesOptions(t *testing.T) {
	env, out, errOut := testEnv()
	var got *checkOptions
	cmd := newCheckCmd(env, func(o *checkOptions) error { got = o; return nil })
	execWith(t, cmd, "a.sse", "captures/", "--format", "junit", "--fail-on", "warn", "-q",
		"--entry", "2", "--idle", "5s", "--dialect", "openai-chat")
	if got == nil {
		t.Fatal("runF was not called")
	}
	if strings.Join(got.inputs, " ") != "a.sse captures/" {
		t.Errorf("inputs = %q, want [a.sse captures/]", got.inputs)
	}
	if got.format != "junit" || got.failOn != "warn" || !got.quiet || got.entry != 2 || got.idle != 5*time.Second || got.dialect != "openai-chat" {
		t.Errorf("flags not parsed into the options: %+v", *got)
	}
	if got.minSev != "info" || got.registry != "" || got.ttfe != 0 {
		t.Errorf("defaults: min-severity %q, registry %q, ttfe %v", got.minSev, got.registry, got.ttfe)
	}
	if got.stdin != env.Stdin || got.stdout != out || got.stderr != errOut {
		t.Error("the options do not carry the Env's streams")
	}
}

func TestServeRunReceivesOptions(t *testing.T) {
	env, _, _ := testEnv()
	var got *serveOptions
	cmd := newServeCmd(env, func(o *serveOptions) error { got = o; return nil })
	// --listen is serve's alias of --addr.
	execWith(t, cmd, "turn.jsonl", "--listen", "127.0.0.1:9999", "--stall", "2s", "--stall-at", "3",
		"--drop", "1", "--drop", "4", "--speed", "max", "--gzip")
	if got == nil {
		t.Fatal("runF was not called")
	}
	if !got.hasCapture || got.capture != "turn.jsonl" {
		t.Errorf("capture = %q (given %v), want turn.jsonl", got.capture, got.hasCapture)
	}
	if got.addr != "127.0.0.1:9999" || !got.changed("addr") {
		t.Errorf("--listen: addr %q, changed(addr) %v", got.addr, got.changed("addr"))
	}
	if strings.Join(got.stalls, ",") != "2s" || got.stallAt != 3 || len(got.drop) != 2 || got.drop[1] != 4 || got.speedText != "max" || !got.gzip {
		t.Errorf("fault flags not parsed into the options: %+v", *got)
	}
	if got.changed("scenario") || got.cutAfter != -1 || got.maxConns < 1 {
		t.Errorf("defaults: changed(scenario) %v, cut-after %d, max-conns %d", got.changed("scenario"), got.cutAfter, got.maxConns)
	}
	if got.ctx == nil {
		t.Error("no context in the options")
	}
}

func TestReferenceRunReceivesOptions(t *testing.T) {
	env, out, _ := testEnv()
	var got *referenceOptions
	cmd := newReferenceCmd(env, func(o *referenceOptions) error { got = o; return nil })
	execWith(t, cmd, "--export-tests", "kit-dir", "--force", "--profile", "both")
	if got == nil {
		t.Fatal("runF was not called")
	}
	if got.exportDir != "kit-dir" || !got.force || got.profile != "both" || !got.changed("force") || got.changed("replay") {
		t.Errorf("flags not parsed into the options: %+v", *got)
	}
	if got.format != "md" || got.diagram != "machine" || got.entry != -1 {
		t.Errorf("defaults: format %q, diagram %q, entry %d", got.format, got.diagram, got.entry)
	}
	if got.kit == nil || got.stdout != out {
		t.Error("the options do not carry the Env's reference kit and streams")
	}
	if _, err := got.kit.Open("kit.sse"); err != nil {
		t.Errorf("the kit is not the Env's: %v", err)
	}
}
