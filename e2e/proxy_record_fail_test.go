package e2e

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// prStart runs `framescope proxy --headless ARGS` recording into the
// session library under dataDir, and waits for the address it prints.
func prStart(t *testing.T, dataDir string, env []string, args ...string) *phProxy {
	t.Helper()
	cmd := exec.Command(binaryPath(t), append([]string{"proxy", "--headless"}, args...)...)
	cmd.Env = append(append(os.Environ(), "FRAMESCOPE_DATA_DIR="+dataDir), env...)
	p := &phProxy{cmd: cmd, stdout: &phBuffer{}, stderr: &phBuffer{}}
	cmd.Stdout = p.stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(pipe)
	re := regexp.MustCompile(`^framescope proxy: (?:forward proxy at )?http://(\S+)`)
	for sc.Scan() {
		p.stderr.Write([]byte(sc.Text() + "\n"))
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			p.addr = m[1]
			go io.Copy(p.stderr, pipe)
			return p
		}
	}
	t.Fatalf("proxy printed no address: %s", p.stderr.String())
	return nil
}

// TestProxyFailedRecordingFails (item 18): a stream whose recording in the
// session library failed fails the run, as `record` does (exit 2): the
// proxy exited 0 and printed a clean total. The failure forced here: the
// library's directory is a file.
func TestProxyFailedRecordingFails(t *testing.T) {
	serve := phServe(t, "testdata/examples/example-happy.sse")
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "sessions"), []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := prStart(t, data, nil, "--listen", "127.0.0.1:0", "http://"+serve)
	resp, err := http.Get("http://" + p.addr + "/api/chat")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "data:") {
		t.Fatalf("the app did not get the stream: %q", body)
	}
	out := p.stop(t)
	if code := p.cmd.ProcessState.ExitCode(); code != 2 {
		t.Errorf("exit %d, want 2 (a recording failed)\n%s\n%s", code, out, p.stderr.String())
	}
	if !strings.Contains(out, "1 stream was not recorded whole (not saved: ") {
		t.Errorf("the total does not say the recording failed:\n%s", out)
	}
}
