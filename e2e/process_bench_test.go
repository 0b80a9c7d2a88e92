package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProcessComparison is the whole-process comparison of issue 13: the
// real binary against the baseline a user would write instead (go-sse +
// encoding/json, testdata/procbench/baseline), each a process of its own,
// on the benchmark captures (the generator of the pipeline benchmarks) and
// on captures of many short turns. For each it reports wall time, MB/s,
// CPU/wall and peak RSS (getrusage ru_maxrss), the best of a few runs.
// Slow (it writes about 1.9 GB of captures), so it runs only when asked:
//
//	FRAMESCOPE_PROCESS_BENCH=1 go test ./e2e -run '^TestProcessComparison$' -v -timeout 30m
//
// FRAMESCOPE_PROCESS_MB (default "100,300,1024") sets the benchmark
// captures' sizes, FRAMESCOPE_PROCESS_TURNS (default "100000,1000000") the
// many-turn captures, FRAMESCOPE_PROCESS_RUNS (default 3) the runs. It
// fails when a process fails, reads the wrong number of frames, or when
// `check` peaks over 40 MB RSS (the bound, any size, any format).
func TestProcessComparison(t *testing.T) {
	if os.Getenv("FRAMESCOPE_PROCESS_BENCH") != "1" {
		t.Skip("set FRAMESCOPE_PROCESS_BENCH=1 to run (writes ~1.9 GB of captures)")
	}
	dir := t.TempDir()
	baseline := filepath.Join(dir, "baseline")
	if out, err := goTool("build", "-o", baseline, "./testdata/procbench/baseline").CombinedOutput(); err != nil {
		t.Fatalf("building the baseline: %v\n%s", err, out)
	}
	// The release build TestMain made (go build, no flags).
	framescope := builtBinary
	runs := envInts(t, "FRAMESCOPE_PROCESS_RUNS", "3")[0]

	type capture struct {
		name   string
		path   string
		bytes  int64
		frames int
	}
	var captures []capture
	for _, mb := range envInts(t, "FRAMESCOPE_PROCESS_MB", "100,300,1024") {
		path := filepath.Join(dir, fmt.Sprintf("bench-%dMB.sse", mb))
		cmd := goTool("test", "./sessions/report/", "-run", "^TestWriteBenchCapture$", "-count=1", "-v")
		cmd.Env = append(os.Environ(), "FRAMESCOPE_WRITE_CAPTURE="+path, "FRAMESCOPE_BENCH_MB="+strconv.Itoa(mb))
		out, err := cmd.CombinedOutput()
		var bytes int64
		var frames, turns int
		if i := strings.Index(string(out), "capture: "); err != nil || i < 0 {
			t.Fatalf("writing the %d MB capture: %v\n%s", mb, err, out)
		} else if _, err := fmt.Sscanf(string(out[i:]), "capture: %d bytes, %d frames, %d turns", &bytes, &frames, &turns); err != nil {
			t.Fatalf("the %d MB capture: %v\n%s", mb, err, out)
		}
		captures = append(captures, capture{fmt.Sprintf("bench %d MB", mb), path, bytes, frames})
	}
	for _, n := range envInts(t, "FRAMESCOPE_PROCESS_TURNS", "100000,1000000") {
		path := filepath.Join(dir, fmt.Sprintf("turns-%d.sse", n))
		size, frames := writeShortTurns(t, path, n)
		captures = append(captures, capture{fmt.Sprintf("%dk turns", n/1000), path, size, frames})
	}

	type result struct {
		wall, cpu time.Duration
		rssKB     int64
	}
	// measure runs a process runs times: the best wall time (and its CPU),
	// the highest peak RSS.
	measure := func(check func(stdout []byte) error, name string, args ...string) result {
		best := result{wall: time.Duration(1<<63 - 1)}
		for range runs {
			cmd := exec.Command(name, args...)
			out, err := os.CreateTemp(dir, "out-*")
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = out
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err = cmd.Run()
			wall := time.Since(start)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.Bytes())
			}
			// Only the head of the output is checked (a report of a
			// million turns is tens of MB).
			head := make([]byte, 4096)
			n, _ := out.ReadAt(head, 0)
			out.Close()
			os.Remove(out.Name())
			if err := check(head[:n]); err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(name), strings.Join(args, " "), err)
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if wall < best.wall {
				best.wall, best.cpu = wall, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime()
			}
			best.rssKB = max(best.rssKB, ru.Maxrss) // KB on Linux
		}
		return best
	}

	var table strings.Builder
	fmt.Fprintf(&table, "%d cores (GOMAXPROCS %d), best of %d runs\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runs)
	fmt.Fprintf(&table, "%-16s %-22s %9s %9s %8s %9s %8s\n", "capture", "program", "wall", "MB/s", "CPU/wall", "peak RSS", "× base")
	row := func(c capture, prog string, r result, base time.Duration) {
		x := "—"
		if base > 0 {
			x = fmt.Sprintf("%.1f×", base.Seconds()/r.wall.Seconds())
		}
		fmt.Fprintf(&table, "%-16s %-22s %8.2fs %9.0f %8.2f %6.1f MB %8s\n", c.name, prog, r.wall.Seconds(),
			float64(c.bytes)/1e6/r.wall.Seconds(), r.cpu.Seconds()/r.wall.Seconds(), float64(r.rssKB)/1024, x)
	}
	for _, c := range captures {
		wantEvents := fmt.Sprintf("%d events", c.frames)
		base := measure(func(out []byte) error {
			if !bytes.HasPrefix(out, []byte(wantEvents)) {
				return fmt.Errorf("read %q, want %s", out, wantEvents)
			}
			return nil
		}, baseline, c.path)
		row(c, "go-sse+encoding/json", base, 0)
		for _, format := range []string{"json", "text", "junit"} {
			r := measure(func(out []byte) error { return checkReportHead(format, out, c.frames) }, framescope, "check", "--format", format, c.path)
			row(c, "framescope "+format, r, base.wall)
			if r.rssKB > 40<<10 {
				t.Errorf("%s, check --format %s: peak RSS %.1f MB, over the 40 MB bound", c.name, format, float64(r.rssKB)/1024)
			}
		}
	}
	t.Logf("whole-process comparison:\n%s", table.String())
}

// checkReportHead checks the start of a report: the frame count the
// capture was written with, and no error or warning (the benchmark
// capture has info alarms).
func checkReportHead(format string, out []byte, frames int) error {
	var want string
	switch format {
	case "json":
		var head struct {
			Frames int `json:"frames"`
		}
		// The head is cut: decode the members before "turns" only.
		i := bytes.Index(out, []byte(`,"turns":`))
		if i < 0 || json.Unmarshal(append(out[:i:i], '}'), &head) != nil || head.Frames != frames {
			return fmt.Errorf("report head %.200q, want %d frames", out, frames)
		}
		return nil
	case "text":
		want = fmt.Sprintf(", %d frames,", frames)
		if line, _, _ := bytes.Cut(out, []byte("\n")); !bytes.Contains(line, []byte(want)) || !bytes.Contains(line, []byte("— 0 error, 0 warn,")) {
			return fmt.Errorf("report head %.200q, want %d frames and no error or warning", line, frames)
		}
		return nil
	default:
		if !bytes.Contains(out, []byte(`<testsuite `)) || !bytes.Contains(out, []byte(`failures="0"`)) {
			return fmt.Errorf("report head %.300q, want a suite without failures", out)
		}
		return nil
	}
}

// writeShortTurns writes n valid PC3 turns of four frames each (response_id,
// text, completed, [DONE]) and returns the size and the frame count.
func writeShortTurns(t *testing.T, path string, n int) (int64, int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var size int64
	for i := range n {
		env := `"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"resp_` + strconv.Itoa(i) + `"`
		k, _ := fmt.Fprintf(w, "event: response_id\ndata: {\"event_type\":\"response_id\",%s}\n\n"+
			"event: text\ndata: {\"event_type\":\"text\",%s,\"chunk\":\"hello %d \"}\n\n"+
			"event: completed\ndata: {\"event_type\":\"completed\",%s}\n\ndata: [DONE]\n\n", env, env, i, env)
		size += int64(k)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return size, 4 * n
}

// envInts reads a comma-separated list of positive whole numbers.
func envInts(t *testing.T, name, def string) []int {
	s := os.Getenv(name)
	if s == "" {
		s = def
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want positive whole numbers, comma-separated", name, s)
		}
		out = append(out, n)
	}
	return out
}
