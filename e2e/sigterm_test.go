package e2e

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM (what `timeout`, `docker stop` and systemd send) stops a run as
// Ctrl-C does (red-team item 15): the in-flight recording ends with its end
// line, the total is printed, and the exit status is a cancel's — it was 143
// (killed by the signal), with no total and no end line.

// stTrickle is a loopback SSE server that sends one event every 50 ms for a
// minute; it closes started when the first one is sent.
func stTrickle(t *testing.T) (url string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < 1200; i++ {
			if _, err := fmt.Fprintf(w, "data: {\"n\":%d}\n\n", i); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/stream"
}

// stWait waits until cond holds (at most 10 s).
func stWait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stExit is the exit status of a finished command (-1: killed by a signal
// is reported by ExitCode as -1; the shell's figure is 128+N).
func stExit(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	if err != nil {
		return -2
	}
	return 0
}

// stLastLine is the last line of a file.
func stLastLine(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return lines[len(lines)-1]
}

func TestSigtermRecordAndConnect(t *testing.T) {
	url := stTrickle(t)
	for _, sub := range []string{"record", "connect"} {
		t.Run(sub, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "rec.jsonl")
			args := []string{sub, url, "--no-save", "-o", out}
			if sub == "connect" {
				args = []string{sub, url, "--headless", "--no-save", "--record", out}
			}
			cmd := command(args...)
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stWait(t, "the first frames recorded", func() bool {
				b, _ := os.ReadFile(out)
				return strings.Count(string(b), `\"n\":`) >= 3
			})
			cmd.Process.Signal(syscall.SIGTERM)
			code := stExit(cmd.Wait())
			if code == 143 {
				t.Fatalf("%s: killed by SIGTERM (exit 143)\n%s%s", sub, stdout.String(), stderr.String())
			}
			if last := stLastLine(t, out); !strings.Contains(last, `"end":"cancelled`) {
				t.Errorf("%s: the recording has no end line; last line %q", sub, last)
			}
			if !strings.Contains(stdout.String()+stderr.String(), "cancelled") {
				t.Errorf("%s: no report of the cancel:\n%s\n%s", sub, stdout.String(), stderr.String())
			}
		})
	}
}

func TestSigtermProxyAndServe(t *testing.T) {
	url := stTrickle(t)
	p := phStart(t, "--listen", "127.0.0.1:0", "--fail-on", "error", strings.TrimSuffix(url, "/stream"))
	resp, err := http.Get("http://" + p.addr + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for i := 0; i < 3; i++ {
		if _, err := br.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	code := stExit(p.cmd.Wait())
	if code != 0 {
		t.Errorf("proxy: exit %d after SIGTERM, want 0 (as Ctrl-C)\n%s", code, p.stderr.String())
	}
	if !strings.Contains(p.stdout.String(), "total: 1 flow") {
		t.Errorf("proxy: no total after SIGTERM:\n%s", p.stdout.String())
	}

	cmd := command("serve", filepath.Join(repoRoot(t), "testdata/examples/example-happy.sse"), "--addr", "127.0.0.1:0")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stWait(t, "serve's address", func() bool { return strings.Contains(stderr.String(), "http://") })
	cmd.Process.Signal(syscall.SIGTERM)
	if code := stExit(cmd.Wait()); code != 0 {
		t.Errorf("serve: exit %d after SIGTERM, want 0 (as Ctrl-C)\n%s", code, stderr.String())
	}
}
