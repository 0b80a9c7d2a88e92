package e2e

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// An event whose blank line is a lone CR at the end of a read is timed
// when that CR arrived, not when the next read came (1.5 s later): its
// arrival is early and no ttfe alarm is raised.
func TestLiveLoneCRTimedOnArrival(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.Write([]byte("data: x\r\r"))
		w.(http.Flusher).Flush()
		time.Sleep(1500 * time.Millisecond)
		w.Write([]byte("\ndata: y\r\n\r\n"))
	}))
	defer srv.Close()
	r := runCLI(t, "", "connect", "--headless", "--no-save", "--ttfe", "1s", srv.URL)
	if strings.Contains(r.stdout, "ttfe") {
		t.Errorf("false ttfe alarm:\n%s", r.stdout)
	}
	// The frame lines: index, then the arrival "+S.SSSs".
	re := regexp.MustCompile(`(?m)^\s+(\d+)\s+\+(\d+(?:\.\d+)?)s\s`)
	var arrivals []float64
	for _, m := range re.FindAllStringSubmatch(r.stdout, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		arrivals = append(arrivals, v)
	}
	if len(arrivals) != 2 {
		t.Fatalf("want 2 frames, got %v\n%s%s", arrivals, r.stdout, r.stderr)
	}
	if arrivals[0] >= 0.5 {
		t.Errorf("frame 0 timed at +%gs, want < 0.5 s (its CR came at once)\n%s", arrivals[0], r.stdout)
	}
	if arrivals[1] < 1.4 {
		t.Errorf("frame 1 timed at +%gs, want ≥ 1.4 s\n%s", arrivals[1], r.stdout)
	}
}

// The event is dispatched when its lone CR arrives: `connect --headless`
// prints frame 0 while the server still holds the rest of the stream (it
// sends nothing more until the test has seen that line).
func TestLiveLoneCRDispatchedOnArrival(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.Write([]byte("data: x\r\r"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		w.Write([]byte("\ndata: y\r\n\r\n"))
	}))
	defer srv.Close()
	cmd := command("connect", "--headless", "--no-save", srv.URL)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	frame0 := regexp.MustCompile(`^\s+0\s+\+`)
	sc := bufio.NewScanner(out)
	var lines []string
	seen := time.Duration(-1)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if seen < 0 && frame0.MatchString(sc.Text()) {
			seen = time.Since(start)
			close(release)
		}
	}
	cmd.Wait()
	if seen < 0 {
		close(release)
		t.Fatalf("no frame 0:\n%s", strings.Join(lines, "\n"))
	}
	if seen > 3*time.Second {
		t.Errorf("frame 0 printed after %v: held until the next read", seen)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "2 frames") {
		t.Errorf("the rest of the stream was lost:\n%s", strings.Join(lines, "\n"))
	}
}
