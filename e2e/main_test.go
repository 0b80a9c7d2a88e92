package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

type cliResult struct {
	stdout, stderr string
	code           int
}

func runCLI(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	cmd := command(args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return cliResult{out.String(), errb.String(), code}
}

type jsonReport struct {
	Source  string `json:"source"`
	Dialect string `json:"dialect"`
	Frames  int    `json:"frames"`
	Turns   []struct {
		ResponseID *string `json:"response_id"`
		FirstFrame int     `json:"first_frame"`
		LastFrame  int     `json:"last_frame"`
		Terminal   *string `json:"terminal"`
		Done       bool    `json:"done"`
	} `json:"turns"`
	Alarms []struct {
		Rule       string  `json:"rule"`
		Severity   string  `json:"severity"`
		Frame      *int    `json:"frame"`
		ResponseID *string `json:"response_id"`
		Message    string  `json:"message"`
	} `json:"alarms"`
	Counts map[string]int `json:"counts"`
}

func parseReports(t *testing.T, out string) []jsonReport {
	t.Helper()
	var reps []jsonReport
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r jsonReport
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("report line is not JSON: %v\n%s", err, sc.Text())
		}
		reps = append(reps, r)
	}
	return reps
}

func alarmLines(r jsonReport) []string {
	var got []string
	for _, a := range r.Alarms {
		fr := "-"
		if a.Frame != nil {
			fr = fmt.Sprint(*a.Frame)
		}
		got = append(got, a.Rule+" "+a.Severity+" "+fr)
	}
	sort.Strings(got)
	return got
}

// TestRuleCaptures checks every testdata/rules capture through the real
// binary against its .want file: the complete list of alarms.
func TestRuleCaptures(t *testing.T) {
	t.Parallel() // reads testdata only: beside the scripts
	wants := repoGlob(t, "testdata/rules/*.want")
	fired := map[string]bool{}
	for _, wantFile := range wants {
		capture := strings.TrimSuffix(wantFile, ".want")
		t.Run(filepath.Base(capture), func(t *testing.T) {
			raw, err := os.ReadFile(repoPath(wantFile))
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"check", "--format", "json"}
			var want []string
			for _, line := range strings.Split(string(raw), "\n") {
				line = strings.TrimSpace(line)
				switch {
				case line == "":
				case line == "# registry":
					args = append(args, "--registry", "testdata/rules/registry")
				case strings.HasPrefix(line, "# idle "):
					args = append(args, "--idle", strings.TrimPrefix(line, "# idle "))
				case strings.HasPrefix(line, "# ttfe "):
					args = append(args, "--ttfe", strings.TrimPrefix(line, "# ttfe "))
				case strings.HasPrefix(line, "#"):
				default:
					want = append(want, strings.Join(strings.Fields(line), " "))
				}
			}
			sort.Strings(want)
			res := runCLI(t, "", append(args, capture)...)
			reps := parseReports(t, res.stdout)
			if len(reps) != 1 {
				t.Fatalf("want one report, got %d (exit %d, stderr %q)", len(reps), res.code, res.stderr)
			}
			got := alarmLines(reps[0])
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("alarms differ\n got:  %s\n want: %s", strings.Join(got, " | "), strings.Join(want, " | "))
			}
			wantCode := 0
			if reps[0].Counts["error"] > 0 {
				wantCode = 1
			}
			if res.code != wantCode {
				t.Errorf("exit %d, want %d", res.code, wantCode)
			}
			if strings.Contains(filepath.Base(capture), ".fires") {
				fired[strings.SplitN(filepath.Base(capture), ".", 2)[0]] = true
			}
		})
	}
	t.Run("every rule fires", func(t *testing.T) {
		for _, r := range pc3RuleNames() {
			if !fired[r] {
				t.Errorf("rule %s has no testdata/rules/%s.fires capture that passes", r, r)
			}
		}
	})
}

func pc3RuleNames() []string {
	// PC3's rule catalog (the public interface, docs/rules.md); framescope's own extra
	// rules are tested in invariants.
	return strings.Fields(`frame-json frame-utf8 frame-size sse-event-mismatch sse-event-missing http-status content-type
		envelope-missing envelope-timestamp envelope-drift version-unknown event-unknown event-deprecated internal-leak timestamp-order
		terminal-missing terminal-duplicate after-terminal done-early done-missing response-id-frame
		error-malformed error-is-final error-code-unknown error-legacy-cancel error-payload error-reason-unknown error-terminality
		error-leak error-unacknowledged error-code-in-text cancel-code
		tool-malformed tool-orphan tool-unfinished tool-mismatch tool-duplicate
		component-malformed component-unfilled component-unannounced component-mismatch envelope-leak
		status-malformed status-prose status-unregistered status-deprecated status-suppressed
		text-malformed usage-malformed episode-malformed idle-gap ttfe client-divergence`)
}

// TestHostileOutputIsTerminalSafe: nothing from a frame may reach the
// terminal as an escape sequence, in any output format.
func TestHostileOutputIsTerminalSafe(t *testing.T) {
	hostile := "event: text\x1b]52;c;aGk=\x07\n" +
		"data: {\"event_type\":\"te\\u001bxt\x1b[2J\",\"version\":\"0.5\\u009b\",\"timestamp\":\"\u202e2026\",\"response_id\":\"r\x1b[31m\u200b\",\"chunk\":\"\x1b[H\xc2\x9b\xff\"}\n\n" +
		": comment \x1b[5m\u2066\n" +
		"event: status\ndata: {\"event_type\":\"status\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00Z\",\"response_id\":\"r\",\"data\":{\"event_id\":\"\\u001b[31mred\",\"message\":\"\\u202eevil\"}}\n\n" +
		"data: \x1b]0;title\x07\n\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "hostile\x1b[1m.sse")
	if err := os.WriteFile(path, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", path}, {"check", "--format", "json", path}, {"check", "--format", "junit", path},
		{"dump", path}, {"dump", "--format", "ndjson", path}, {"check", path + ".missing"},
	} {
		r := runCLI(t, "", args...)
		for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			for i, c := range []byte(out) {
				if c == 0x1b || c == 0x07 || c == 0x9b || (c < 0x20 && c != '\n' && c != '\t') {
					t.Fatalf("%v %s has control byte %#x at %d: %q", args, name, c, i, out)
				}
			}
			for _, bad := range []string{"\u009b", "\u202e", "\u2066", "\u200b"} {
				if strings.Contains(out, bad) {
					t.Fatalf("%v %s contains %U: %q", args, name, []rune(bad)[0], out)
				}
			}
		}
	}
}

// startServe runs `framescope serve ARGS --addr 127.0.0.1:0` and returns
// the base URL it prints; the process is killed when the test ends.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	cmd := command(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "http://"); i >= 0 && strings.HasPrefix(line, "serving ") {
			url := strings.Fields(line[i:])[0]
			go func() {
				for sc.Scan() {
				}
			}()
			return url
		}
	}
	t.Fatalf("serve printed no address")
	return ""
}

// TestConnectCancel: Ctrl-C during a live turn is the client-disconnect path:
// the session ends "cancelled" and terminal-missing is only info.
func TestConnectCancel(t *testing.T) {
	url := startServe(t, "--scenario", "cancel")
	out := filepath.Join(t.TempDir(), "cancel.jsonl")
	cmd := command("connect", url, "--no-save", "--record", out)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "text") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != 0 || err != nil && !ok {
		t.Fatalf("connect exit: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "ended cancelled") || !strings.Contains(stdout.String(), "terminal-missing") {
		t.Fatalf("report:\n%s", stdout.String())
	}
	rep := parseReports(t, runCLI(t, "", "check", "--format", "json", out).stdout)[0]
	if got := strings.Join(alarmLines(rep), ","); !strings.Contains(got, "terminal-missing info -") {
		t.Fatalf("recording check: %s", got)
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
