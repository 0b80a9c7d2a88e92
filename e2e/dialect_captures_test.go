package e2e

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestDialectCaptures checks every testdata/dialects/NAME capture through
// the real binary: the dialect detected must be NAME (unless the want file
// forces one with "# dialect X"), and the alarms exactly the .want file's
// (same format as testdata/rules). Every rule a dialect lists, but the
// transport rules tested once in testdata/rules, needs a fires capture.
func TestDialectCaptures(t *testing.T) {
	t.Parallel() // reads testdata only: beside the scripts
	dirs := repoGlob(t, "testdata/dialects/*")
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			wants := repoGlob(t, dir+"/*.want")
			fired := map[string]bool{}
			valid := 0
			for _, wantFile := range wants {
				capture := strings.TrimSuffix(wantFile, ".want")
				base := filepath.Base(capture)
				if strings.HasPrefix(base, "valid-") {
					valid++
				}
				t.Run(base, func(t *testing.T) {
					args, want, forced := wantArgs(t, wantFile)
					res := runCLI(t, "", append(append([]string{"check", "--format", "json"}, args...), capture)...)
					reps := parseReports(t, res.stdout)
					if len(reps) != 1 {
						t.Fatalf("want one report, got %d (exit %d, stderr %q)", len(reps), res.code, res.stderr)
					}
					wantDialect := name
					if forced != "" {
						wantDialect = forced
					}
					if reps[0].Dialect != wantDialect {
						t.Errorf("dialect %q, want %q", reps[0].Dialect, wantDialect)
					}
					got := alarmLines(reps[0])
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("alarms differ\n got:  %s\n want: %s", strings.Join(got, " | "), strings.Join(want, " | "))
						for _, a := range reps[0].Alarms {
							t.Logf("  %s %s %v: %s", a.Rule, a.Severity, a.Frame, a.Message)
						}
						return
					}
					if strings.HasPrefix(base, "valid-") {
						for _, a := range reps[0].Alarms {
							if a.Severity != "info" {
								t.Errorf("valid capture raises %s %s", a.Rule, a.Severity)
							}
						}
					}
					if strings.Contains(base, ".fires") {
						fired[strings.SplitN(base, ".", 2)[0]] = true
					}
				})
			}
			if valid < 2 {
				t.Errorf("%s has %d valid captures, want at least 2", name, valid)
			}
			res := runCLI(t, "", "rules", "--dialect", name, "--format", "names")
			if res.code != 0 {
				t.Fatalf("rules --dialect %s: exit %d %s", name, res.code, res.stderr)
			}
			for _, rule := range strings.Fields(res.stdout) {
				if transportRule[rule] {
					continue
				}
				if !fired[rule] {
					t.Errorf("rule %s of %s has no passing testdata/dialects/%s/%s.fires capture", rule, name, name, rule)
				}
			}
		})
	}
}

// transportRule: the rules every dialect shares unchanged, exercised once
// by testdata/rules and testdata/dialects/sse.
var transportRule = map[string]bool{"frame-utf8": true, "frame-size": true, "sse-truncated": true, "capture-corrupt": true,
	"capture-empty": true, "not-a-stream": true, "http-status": true, "content-type": true, "idle-gap": true, "ttfe": true,
	"id-limit": true, // the engine's bound, tested in invariants and sessions/report
	// public-sse-v1's 128 MiB cap: a capture over it is no file to keep in
	// the repository; publicsse.TestStreamSize checks both sides of the cap.
	"stream-size": true,
	// The delivery rules and budgets are the Engine's, whatever the
	// dialect: invariants/timing_test.go and e2e/testdata/script/timing_*.txtar
	// drive them over loopback HTTP.
	"delivery-buffered": true, "delivery-stall": true, "delivery-compressed": true,
	"budget-first-content": true, "budget-gap": true, "budget-rate": true}

// wantArgs reads a .want file: the check flags its option comments ask
// for, the sorted alarm lines, and a forced dialect.
func wantArgs(t *testing.T, wantFile string) (args, want []string, forced string) {
	t.Helper()
	raw, err := os.ReadFile(repoPath(wantFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "# idle "):
			args = append(args, "--idle", strings.TrimPrefix(line, "# idle "))
		case strings.HasPrefix(line, "# ttfe "):
			args = append(args, "--ttfe", strings.TrimPrefix(line, "# ttfe "))
		case strings.HasPrefix(line, "# dialect "):
			forced = strings.TrimPrefix(line, "# dialect ")
			args = append(args, "--dialect", forced)
		case strings.HasPrefix(line, "#"):
		default:
			want = append(want, strings.Join(strings.Fields(line), " "))
		}
	}
	sort.Strings(want)
	return args, want, forced
}
