package main

import (
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
