package replay

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/report"
)

// relayLog collects the relay's log lines; safe for concurrent use.
type relayLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *relayLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *relayLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// relayServer serves a relay on loopback. served gets a value each time a
// request's ServeHTTP has returned.
type relayServer struct {
	*httptest.Server
	rl     *relay
	log    *relayLog
	served chan struct{}
}

func newRelayServer(t *testing.T, opts RelayOptions) *relayServer {
	t.Helper()
	rs := &relayServer{log: &relayLog{}, served: make(chan struct{}, 16)}
	if opts.Log == nil {
		opts.Log = rs.log
	}
	h, err := NewRelay(opts)
	if err != nil {
		t.Fatalf("NewRelay: %v", err)
	}
	rs.rl = h.(*relay)
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		select {
		case rs.served <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(rs.Close)
	return rs
}

// get streams path with Accept: text/event-stream and returns the body.
func (rs *relayServer) get(t *testing.T, ctx context.Context, path string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rs.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := rs.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp
}

// fetch reads a whole turn.
func (rs *relayServer) fetch(t *testing.T) []byte {
	t.Helper()
	resp := rs.get(t, context.Background(), "/api/chat")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the stream: %v", err)
	}
	return body
}

func checkSSE(t *testing.T, name string, r io.Reader) *report.Report {
	t.Helper()
	c, err := capture.OpenReader(name, r, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatalf("OpenReader: %v", err)
	}
	defer c.Close()
	rep, err := report.Check(c, invariants.Options{})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return rep
}

func alarmLines(rep *report.Report) string {
	var b strings.Builder
	for _, a := range rep.Alarms {
		frame := "-"
		if a.Frame != invariants.NoFrame {
			frame = fmt.Sprint(a.Frame)
		}
		fmt.Fprintf(&b, "  %s %s %s: %s\n", frame, a.Severity, a.Rule, a.Message)
	}
	return b.String()
}

// sseEvents splits a raw stream into its events (blank-line separated).
func sseEvents(body []byte) []string {
	var out []string
	for _, ev := range strings.Split(string(body), "\n\n") {
		if strings.TrimSpace(ev) != "" {
			out = append(out, ev)
		}
	}
	return out
}

func TestRelayScenariosMatchExpectedAlarms(t *testing.T) {
	terminals := map[string]string{
		"happy": "completed", "fanout": "completed", "axis1": "error", "axis2": "completed",
		"axis3": "completed", "cancel": "completed", "idle": "cancelled", "v04": "error",
		"broken": "completed", "flood": "completed", "buffered": "completed",
	}
	var pc3 []Scenario
	for _, scn := range Scenarios() {
		if scn.Dialect == "" {
			pc3 = append(pc3, scn)
		}
	}
	if got, want := len(pc3), len(terminals); got != want {
		t.Fatalf("%d PC3 scenarios, the test knows %d", got, want)
	}
	for _, scn := range pc3 {
		t.Run(scn.Name, func(t *testing.T) {
			opts := RelayOptions{Scenario: scn.Name, Speed: 0, FloodFrames: 500}
			if scn.Name == "idle" {
				opts.Idle = 150 * time.Millisecond
			}
			rs := newRelayServer(t, opts)
			resp := rs.get(t, context.Background(), "/api/chat")
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("Content-Type %q", ct)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("Cache-Control %q", cc)
			}
			rep := checkSSE(t, scn.Name, resp.Body)

			got := TallyAlarms(rep.Alarms)
			want := scn.Expect
			if len(got) == 0 {
				got = nil
			}
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("alarms differ\n got: %v\nwant: %v\nalarms:\n%s", got, want, alarmLines(rep))
			}
			if scn.Name != "broken" && (rep.Counts.Error > 0 || rep.Counts.Warn > 0 || !scn.Clean()) {
				t.Errorf("not clean: %+v\n%s", rep.Counts, alarmLines(rep))
			}
			if scn.Name == "broken" {
				distinct := map[string]bool{}
				for _, a := range rep.Alarms {
					if a.Severity != invariants.SevInfo {
						distinct[a.Rule] = true
					}
				}
				if len(distinct) < 12 {
					t.Errorf("broken trips %d different error/warn rules, want at least 12", len(distinct))
				}
			}
			if len(rep.Turns) != 1 {
				t.Fatalf("%d turns, want 1", len(rep.Turns))
			}
			turn := rep.Turns[0]
			if got := turn.Terminal.String(); got != terminals[scn.Name] {
				t.Errorf("terminal %q, want %q", got, terminals[scn.Name])
			}
			if !turn.Done {
				t.Error("no [DONE]")
			}
			if want := "resp_" + scn.Name + "_1"; turn.ResponseID != want {
				t.Errorf("response_id %q, want %q", turn.ResponseID, want)
			}
			select {
			case <-rs.served:
			case <-time.After(5 * time.Second):
				t.Fatal("the handler did not return after [DONE]")
			}
			if rs.rl.live.Load() != 0 {
				t.Error("upstream goroutine still running after the handler returned")
			}
		})
	}
}

func TestRelayCancelOnDisconnect(t *testing.T) {
	// Speed 2: the full turn would take ~5 s; the client leaves after 5 frames.
	rs := newRelayServer(t, RelayOptions{Scenario: "cancel", Speed: 2})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := rs.get(t, ctx, "/api/chat")
	br := bufio.NewReader(resp.Body)
	frames := 0
	for frames < 5 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d frames: %v", frames, err)
		}
		if line == "\n" {
			frames++
		}
	}
	left := time.Now()
	cancel()
	resp.Body.Close()

	select {
	case <-rs.served:
	case <-time.After(5 * time.Second):
		t.Fatalf("the handler did not return after the client left; log: %q", rs.log.String())
	}
	if d := time.Since(left); d > 3*time.Second {
		t.Errorf("handler returned %s after the disconnect", d)
	}
	log := rs.log.String()
	for _, want := range []string{"scenario=cancel", "client disconnected at frame", "upstream cancelled", "cancelled REQUEST_CANCELLED"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q: %q", want, log)
		}
	}
	if strings.Contains(log, "ended with completed") {
		t.Errorf("the turn ran to its end: %q", log)
	}
	if n := rs.rl.live.Load(); n != 0 {
		t.Errorf("%d upstream goroutines still running", n)
	}
}

func TestRelayCancelScenarioCompletesWhenClientStays(t *testing.T) {
	rs := newRelayServer(t, RelayOptions{Scenario: "cancel", Speed: 0})
	rep := checkSSE(t, "cancel", bytes.NewReader(rs.fetch(t)))
	if len(rep.Turns) != 1 || rep.Turns[0].Terminal.String() != "completed" {
		t.Fatalf("turns %+v", rep.Turns)
	}
	<-rs.served
	if log := rs.log.String(); !strings.Contains(log, "ended with completed, then [DONE]") {
		t.Errorf("log: %q", log)
	}
}

func TestRelayIdleTimeout(t *testing.T) {
	idle := 100 * time.Millisecond
	rs := newRelayServer(t, RelayOptions{Scenario: "idle", Speed: 0, Idle: idle})
	start := time.Now()
	body := rs.fetch(t)
	if d := time.Since(start); d < idle {
		t.Errorf("turn ended after %s, before the idle timeout %s", d, idle)
	}
	evs := sseEvents(body)
	if len(evs) < 3 {
		t.Fatalf("only %d events:\n%s", len(evs), body)
	}
	last, term := evs[len(evs)-1], evs[len(evs)-2]
	if last != "data: [DONE]" {
		t.Errorf("last event %q, want data: [DONE]", last)
	}
	if !strings.HasPrefix(term, "event: cancelled\ndata: {") || !strings.Contains(term, `"error":{"code":"IDLE_TIMEOUT"}`) {
		t.Errorf("terminal event %q, want cancelled IDLE_TIMEOUT", term)
	}
	rep := checkSSE(t, "idle", bytes.NewReader(body))
	if rep.Counts.Error+rep.Counts.Warn > 0 {
		t.Errorf("alarms:\n%s", alarmLines(rep))
	}
	<-rs.served
	if log := rs.log.String(); !strings.Contains(log, "cancelled IDLE_TIMEOUT synthesized") {
		t.Errorf("log: %q", log)
	}
	if n := rs.rl.live.Load(); n != 0 {
		t.Errorf("%d upstream goroutines still running", n)
	}
}

func TestRelayFlood(t *testing.T) {
	rs := newRelayServer(t, RelayOptions{Scenario: "flood", Speed: 1})
	start := time.Now()
	body := rs.fetch(t)
	elapsed := time.Since(start)
	if n := bytes.Count(body, []byte("event: text\n")); n != defaultFloodFrames {
		t.Errorf("%d text frames, want %d", n, defaultFloodFrames)
	}
	rep := checkSSE(t, "flood", bytes.NewReader(body))
	if want := defaultFloodFrames + 3; rep.Frames != want {
		t.Errorf("%d frames, want %d (response_id + text + completed + [DONE])", rep.Frames, want)
	}
	if len(rep.Alarms) != 0 {
		t.Errorf("alarms:\n%s", alarmLines(rep))
	}
	if len(rep.Turns) != 1 || !rep.Turns[0].Done || rep.Turns[0].Terminal.String() != "completed" {
		t.Errorf("turns %+v", rep.Turns)
	}
	t.Logf("%d frames, %d bytes in %s", rep.Frames, len(body), elapsed)
}

func TestRelayUnknownScenario(t *testing.T) {
	_, err := NewRelay(RelayOptions{Scenario: "nope"})
	if err == nil {
		t.Fatal("no error")
	}
	for _, name := range ScenarioNames() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %q", err, name)
		}
	}
	for _, bad := range []RelayOptions{{Speed: -1}, {Idle: -time.Second}, {FloodFrames: -1}, {Path: "api"}} {
		if _, err := NewRelay(bad); err == nil {
			t.Errorf("NewRelay(%+v): no error", bad)
		}
	}
}

func TestRelayDeterministicWithInjectedClock(t *testing.T) {
	t0 := time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	calls := 0
	step := func() time.Time { // +100 ms per frame
		mu.Lock()
		defer mu.Unlock()
		calls++
		return t0.Add(time.Duration(calls-1) * 100 * time.Millisecond)
	}
	rs := newRelayServer(t, RelayOptions{Scenario: "happy", Now: step})
	body := string(rs.fetch(t))
	first := "event: response_id\n" +
		`data: {"event_type":"response_id","version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"resp_happy_1"}` + "\n\n" +
		"event: episode\n" +
		`data: {"event_type":"episode","version":"0.5","timestamp":"2026-05-15T18:00:00.100Z","response_id":"resp_happy_1","episode_id":"ep_5f1c9a"}` + "\n\n"
	if !strings.HasPrefix(body, first) {
		t.Errorf("stream starts\n%.400s\nwant\n%s", body, first)
	}
	if !strings.HasSuffix(body, `"timestamp":"2026-05-15T18:00:01.300Z","response_id":"resp_happy_1"}`+"\n\ndata: [DONE]\n\n") {
		t.Errorf("stream ends\n%s", body[max(0, len(body)-300):])
	}

	// A fixed clock: every run is the same bytes but for its response_id.
	fixed := func() time.Time { return t0 }
	rs2 := newRelayServer(t, RelayOptions{Scenario: "happy", Now: fixed})
	a, b := string(rs2.fetch(t)), string(rs2.fetch(t))
	if strings.Contains(a, "resp_happy_2") || !strings.Contains(b, "resp_happy_2") {
		t.Fatalf("response_ids: first run %q…, second %q…", a[:min(len(a), 200)], b[:min(len(b), 200)])
	}
	if strings.ReplaceAll(a, "resp_happy_1", "resp_happy_2") != b {
		t.Errorf("two runs differ beyond the response_id:\n%s\n---\n%s", a, b)
	}
	frames := len(sseEvents([]byte(a))) - 1 // all but [DONE]
	if n := strings.Count(a, `"timestamp":"2026-05-15T18:00:00.000Z"`); n != frames {
		t.Errorf("%d frames stamped with the injected clock, want %d", n, frames)
	}
}

func TestRelayRouting(t *testing.T) {
	rs := newRelayServer(t, RelayOptions{Scenario: "axis2", Path: "/chat"})
	resp, err := rs.Client().Post(rs.URL+"/chat", "application/json", strings.NewReader(`{"message":"points?"}`))
	if err != nil {
		t.Fatal(err)
	}
	rep := checkSSE(t, "post", resp.Body)
	resp.Body.Close()
	if len(rep.Turns) != 1 || rep.Turns[0].Terminal.String() != "completed" || rep.Counts.Error+rep.Counts.Warn > 0 {
		t.Errorf("POST turn: %+v\n%s", rep.Turns, alarmLines(rep))
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/api/chat", http.StatusNotFound},
		{http.MethodDelete, "/chat", http.StatusMethodNotAllowed},
	} {
		req, _ := http.NewRequest(c.method, rs.URL+c.path, nil)
		resp, err := rs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: status %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
	}
}

func TestRelayConcurrentTurns(t *testing.T) {
	rs := newRelayServer(t, RelayOptions{Scenario: "fanout", Speed: 0})
	const n = 4
	ids := make(chan string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := rs.Client().Get(rs.URL + "/api/chat")
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			c, err := capture.OpenReader("fanout", resp.Body, capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Error(err)
				return
			}
			rep, err := report.Check(c, invariants.Options{})
			if err != nil {
				t.Error(err)
				return
			}
			if len(rep.Turns) != 1 || rep.Counts.Error+rep.Counts.Warn > 0 {
				t.Errorf("turns %+v counts %+v", rep.Turns, rep.Counts)
				return
			}
			ids <- rep.Turns[0].ResponseID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("response_id %s served twice", id)
		}
		seen[id] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct response_ids, want %d", len(seen), n)
	}
}
