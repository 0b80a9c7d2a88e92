package pc3

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// turnBuilder writes SSE frames with a valid envelope and increasing
// timestamps, so each test states only what it is about.
type turnBuilder struct {
	rid     string
	version string
	ms      int
	step    int // ms between frames' timestamps (0: 100)
	b       strings.Builder
}

func newTurn(rid string) *turnBuilder { return &turnBuilder{rid: rid, version: "0.5"} }

// f appends a frame of type typ with extra JSON members (without braces).
func (t *turnBuilder) f(typ, extra string) *turnBuilder {
	t.ms += 100
	if t.step != 0 {
		t.ms += t.step - 100
	}
	ts := time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC).Add(time.Duration(t.ms) * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
	data := fmt.Sprintf(`{"event_type":%q,"version":%q,"timestamp":%q,"response_id":%q`, typ, t.version, ts, t.rid)
	if extra != "" {
		data += "," + extra
	}
	data += "}"
	fmt.Fprintf(&t.b, "event: %s\ndata: %s\n\n", typ, data)
	return t
}

func (t *turnBuilder) raw(s string) *turnBuilder { t.b.WriteString(s); return t }
func (t *turnBuilder) done() *turnBuilder        { return t.raw("data: [DONE]\n\n") }
func (t *turnBuilder) String() string            { return t.b.String() }

// happy returns a minimal valid turn body without terminal.
func (t *turnBuilder) open() *turnBuilder { return t.f("response_id", "") }

func (t *turnBuilder) completed() *turnBuilder { return t.f("completed", "") }

// check runs the stream through framer, decoder and checker and returns the
// alarms as "rule severity frame" lines (frame "-" for none), sorted.
func check(t *testing.T, stream string, opts invariants.Options, end invariants.End) []string {
	t.Helper()
	c := New(opts)
	dec := decode.Decoder{Keys: Keys}
	var got []string
	add := func(as []invariants.Alarm) {
		for _, a := range as {
			fr := "-"
			if a.Frame != invariants.NoFrame {
				fr = fmt.Sprint(a.Frame)
			}
			got = append(got, fmt.Sprintf("%s %s %s", a.Rule, a.Severity, fr))
		}
	}
	fm := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			add(c.Observe(dec.Decode(ev, 0, false)))
		}
	}
	fm.Feed([]byte(stream), emit)
	fm.Close(emit)
	add(c.End(end))
	sort.Strings(got)
	return got
}

func eof() invariants.End { return invariants.End{Kind: invariants.EndEOF} }

func TestCheckerRules(t *testing.T) {
	divergence := "client-divergence info"
	tests := []struct {
		name   string
		stream string
		want   []string // exact, sorted
	}{
		{"happy turn is clean", newTurn("r1").open().f("text", `"chunk":"hi"`).completed().done().String(), nil},
		{"status diverges for v0.4 clients", newTurn("r1").open().f("status", `"data":{"event_id":"searching_offers","message":"Searching..."}`).completed().done().String(),
			[]string{divergence + " 1"}},
		{"terminal missing at EOF", newTurn("r1").open().f("text", `"chunk":"hi"`).String(),
			[]string{"terminal-missing error -"}},
		{"done early", newTurn("r1").open().done().String(),
			[]string{"done-early error 1", "terminal-missing error -"}},
		{"done missing", newTurn("r1").open().completed().String(),
			[]string{"done-missing warn -"}},
		{"duplicate terminal", newTurn("r1").open().completed().f("error", `"error":{"code":"INTERNAL_ERROR"},"is_final":true`).done().String(),
			[]string{"after-terminal error 2", "terminal-duplicate error 2"}},
		{"after terminal text", newTurn("r1").open().completed().f("text", `"chunk":"late"`).done().String(),
			[]string{"after-terminal error 2"}},
		{"non-final error then text then completed", newTurn("r1").open().
			f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"offers","reason":"upstream_timeout"},"is_final":false`).
			f("text", `"chunk":"Sorry, I could not load offers."`).completed().done().String(),
			[]string{divergence + " 1"}},
		{"non-final error unacknowledged", newTurn("r1").open().f("reasoning", `"chunk":"Looking"`).
			f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"offers","reason":"upstream_timeout"},"is_final":false`).
			completed().done().String(),
			[]string{divergence + " 2", "error-unacknowledged warn -"}},
		{"apology before the error acknowledges it (AC-3)", newTurn("r1").open().f("text", `"chunk":"I could not load that."`).
			f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"offers","reason":"upstream_timeout"},"is_final":false`).
			completed().done().String(),
			[]string{divergence + " 2"}},
		{"late frame then repeated done stays in the closed turn", newTurn("r1").open().completed().done().f("text", `"chunk":"x"`).done().String(),
			[]string{"after-terminal error 3"}},
		{"mcp prefix is deprecated", newTurn("r1").open().f("mcp_tool_ping", "").completed().done().String(),
			[]string{"event-deprecated info 1", "event-unknown info 1"}},
		{"non-final error then EOF", newTurn("r1").open().
			f("error", `"error":{"code":"PARTIAL_FAN_OUT","failed":[{"sub_agent_id":"shop"}]},"is_final":false`).String(),
			[]string{divergence + " 1", "error-unacknowledged warn -", "terminal-missing error -"}},
		{"missing is_final is terminal", newTurn("r1").open().f("error", `"error":{"code":"INTERNAL_ERROR"}`).f("text", `"chunk":"x"`).done().String(),
			[]string{"after-terminal error 2", "error-is-final error 1"}},
		{"v0.4 error is terminal and may cancel", func() string {
			b := newTurn("r1")
			b.version = "0.4"
			return b.open().f("text", `"type":"chunk","chunk":"hi"`).f("error", `"error":{"code":"REQUEST_CANCELLED"}`).done().String()
		}(), nil},
		{"v0.5 legacy cancel", newTurn("r1").open().f("error", `"error":{"code":"IDLE_TIMEOUT"},"is_final":true`).done().String(),
			[]string{"error-legacy-cancel warn 1"}},
		{"cancelled ok", newTurn("r1").open().f("cancelled", `"error":{"code":"IDLE_TIMEOUT"}`).done().String(),
			[]string{divergence + " 1"}},
		{"cancel code", newTurn("r1").open().f("cancelled", `"error":{"code":"INTERNAL_ERROR"}`).done().String(),
			[]string{"cancel-code error 1", divergence + " 1"}},
		{"tools", newTurn("r1").open().
			f("tool_call", `"tool_call":{"id":"a","name":"search","type":"mcp"}`).
			f("tool_call", `"tool_call":{"id":"a","name":"search","type":"mcp"}`).
			f("tool_completed", `"tool_call":{"id":"b","name":"search","type":"mcp"}`).
			f("tool_call", `"tool_call":{"id":"c","name":"lookup","type":"mcp"}`).
			f("tool_completed", `"tool_call":{"id":"c","name":"lookup2","type":"function"}`).
			f("tool_call", `"tool_call":{"id":"d","name":"x","type":"mcp"}`).
			f("tool_call", `"tool_call":{"id":"","name":"x","type":"mcp"}`).
			completed().done().String(),
			[]string{"tool-duplicate error 2", "tool-malformed error 7", "tool-mismatch error 5", "tool-orphan error 3",
				"tool-unfinished error 8", "tool-unfinished error 8"}},
		{"unfinished tool before error terminal is warn", newTurn("r1").open().
			f("tool_call", `"tool_call":{"id":"a","name":"search","type":"mcp"}`).
			f("error", `"error":{"code":"SUB_AGENT_FAILED","sub_agent_id":"shop"},"is_final":true`).done().String(),
			[]string{"tool-unfinished warn 2"}},
		{"components", newTurn("r1").open().
			f("data_loading", `"data":{"id":"p1","type":"offer_list","key":{"ids":[1,2]}}`).
			f("data_loaded", `"data":{"type":"offer_list","id":"p1","key":{ "ids" : [1,2] },"items":[]}`).
			f("data_loading", `"data":{"id":"p2","type":"offer_list","key":{"ids":[1]}}`).
			f("data_loaded", `"data":{"id":"p2","type":"card","key":{"ids":[2]},"items":[]}`).
			f("data_loaded", `"data":{"id":"p3","type":"card","items":[]}`).
			f("data_loading", `"data":{"id":"p4","type":"card"}`).
			f("data_loaded", `"data":{"id":"p5","type":"card","items":{}}`).
			f("component", `"chunk":{"k":1}`).
			completed().done().String(),
			[]string{"component-malformed error 7", "component-malformed error 8", "component-mismatch warn 4", "component-unannounced warn 5",
				"component-unannounced warn 7", "component-unfilled error 9"}},
		{"envelope leak", newTurn("r1").open().
			f("data_loading", `"data":{"id":"p1","type":"offer_list"}`).
			f("data_loaded", `"data":{"id":"p1","type":"offer_list","items":[{"payload":{"id":1},"enricher_id":"offers"}]}`).
			f("component", `"chunk":{"a":{"cache_meta":{}}},"tool_call":{"id":"t","name":"render_x","type":"function"}`).
			f("data_loading", `"data":{"id":"p2","type":"offer_list","items":[{"payload":{"id":1}},{"status":"active"}]}`).
			completed().done().String(),
			[]string{"component-unfilled error 5", "envelope-leak error 2", "envelope-leak error 3"}},
		{"envelope rules", newTurn("r1").open().
			raw("event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"response_id\":\"r1\",\"chunk\":\"x\"}\n\n").
			raw("event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"yesterday\",\"response_id\":\"r1\",\"chunk\":\"x\"}\n\n").
			raw("event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T17:00:00Z\",\"response_id\":\"r2\",\"chunk\":\"x\"}\n\n").
			raw("event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.7\",\"timestamp\":\"2026-05-15T19:00:00+01:00\",\"response_id\":\"r1\",\"chunk\":\"x\"}\n\n").
			raw("event: txt\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T19:00:00Z\",\"response_id\":\"r1\",\"chunk\":1}\n\n").
			raw("data: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T19:00:00Z\",\"response_id\":\"r1\",\"chunk\":\"x\"}\n\n").
			completed().done().String(),
			[]string{"envelope-drift error 3", "envelope-drift error 4", "envelope-missing error 1", "envelope-timestamp error 2",
				"sse-event-mismatch error 5", "sse-event-missing info 6", "text-malformed error 5", "timestamp-order warn 3", "version-unknown warn 4",
				"timestamp-order warn 7"}}, // completed is stamped 18:00, before the 19:00 frames
		{"frame json", newTurn("r1").open().raw("event: text\ndata: {not json\n\n").raw("data: [1,2]\n\n").completed().done().String(),
			[]string{"frame-json error 1", "frame-json error 2"}},
		{"vocabulary", newTurn("r1").open().f("support_content", `"x":1`).f("mcp_session_start", "").f("shiny_new", "").completed().done().String(),
			[]string{"event-deprecated info 2", "event-unknown info 1", "event-unknown info 3", "internal-leak error 1"}},
		{"response_id frame late and repeated", newTurn("r1").f("thinking", "").open().open().completed().done().String(),
			[]string{"response-id-frame warn 1", "response-id-frame warn 2"}},
		{"response_id frame absent", newTurn("r1").f("thinking", "").completed().done().String(),
			[]string{"response-id-frame warn -"}},
		{"two turns", newTurn("r1").open().completed().done().String() + newTurn("r2").open().completed().done().String(), nil},
		{"same rid after done is after-terminal", newTurn("r1").open().completed().done().f("text", `"chunk":"x"`).String(),
			[]string{"after-terminal error 3"}},
		{"second done starts an empty turn", newTurn("r1").open().completed().done().done().String(),
			[]string{"done-early error 3", "response-id-frame warn -", "terminal-missing error -"}},
		{"errors", newTurn("r1").open().
			f("error", `"error":{"code":"SUB_AGENT_FAILED"},"is_final":false`).
			f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"e","reason":"boom"},"is_final":false`).
			f("error", `"error":{"code":"PARTIAL_FAN_OUT","failed":[{"x":1}]},"is_final":false`).
			f("error", `"error":{"code":"WEIRD"},"is_final":false`).
			f("error", `"error":"oops","is_final":false`).
			f("text", `"chunk":"Sorry: INTERNAL_ERROR"`).
			f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"e","reason":"upstream_timeout"},"is_final":true`).done().String(),
			[]string{divergence + " 1", divergence + " 2", divergence + " 3", divergence + " 4", divergence + " 5",
				"error-code-in-text warn 6", "error-code-unknown warn 4", "error-malformed error 5", "error-payload error 1", "error-payload error 3",
				"error-reason-unknown warn 2", "error-terminality warn 7"}},
		{"error leaks", newTurn("r1").open().
			f("error", `"error":{"code":"INTERNAL_ERROR","message":"Traceback (most recent call last):\n  File \"/app/x.py\", line 3"},"is_final":false`).
			f("error", `"error":{"code":"INTERNAL_ERROR","message":"dial tcp 10.2.3.4:443 refused"},"is_final":false`).
			f("error", `"error":{"code":"INTERNAL_ERROR","detail":"db.prod.svc.cluster.local down"},"is_final":false`).
			f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"e","reason":"upstream_timeout","cache_meta":{}},"is_final":false`).
			f("error", `"error":{"code":"INTERNAL_ERROR","message":"Something went wrong. Error: try again"},"is_final":false`).
			f("text", `"chunk":"Sorry."`).completed().done().String(),
			[]string{divergence + " 1", divergence + " 2", divergence + " 3", divergence + " 4", divergence + " 5",
				"error-leak error 1", "error-leak error 2", "error-leak error 3", "error-leak error 4"}},
		{"status rules", newTurn("r1").open().
			f("status", `"data":{"event_id":"Searching offers...","message":"Searching offers..."}`).
			f("status", `"data":{"event_id":"searching_offers"}`).
			completed().done().String(),
			[]string{divergence + " 1", divergence + " 2", "status-malformed error 2", "status-prose error 1"}},
		{"usage and episode", newTurn("r1").open().
			f("episode", `"episode_id":""`).
			f("usage", `"input_tokens":10,"output_tokens":5,"total_tokens":15,"reasoning_tokens":0,"cached_tokens":2`).
			f("usage", `"input_tokens":10,"output_tokens":5,"total_tokens":16`).
			f("usage", `"input_tokens":-1,"output_tokens":1.5,"total_tokens":0`).
			completed().done().String(),
			[]string{"episode-malformed warn 1", "usage-malformed warn 3", "usage-malformed warn 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := check(t, tt.stream, invariants.Options{}, eof())
			sort.Strings(tt.want)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("alarms:\n  got  %q\n  want %q", got, tt.want)
			}
		})
	}
}

func TestCheckerClientCancelledIsInfo(t *testing.T) {
	got := check(t, newTurn("r1").open().String(), invariants.Options{}, invariants.End{Kind: invariants.EndCancelled})
	if strings.Join(got, ",") != "terminal-missing info -" {
		t.Fatalf("got %v", got)
	}
}

func TestCheckerTiming(t *testing.T) {
	c := New(invariants.Options{Idle: 5 * time.Second, TTFE: time.Second})
	dec := decode.Decoder{Keys: Keys}
	var got []string
	feed := func(block string, at time.Duration) {
		fm := decode.NewFramer()
		fm.Feed([]byte(block), func(ev *decode.Event) {
			for _, a := range c.Observe(dec.Decode(ev, at, true)) {
				got = append(got, fmt.Sprintf("%s %d", a.Rule, a.Frame))
			}
		})
	}
	b := newTurn("r1")
	feed(b.open().String(), 1500*time.Millisecond)
	b.b.Reset()
	feed(b.f("text", `"chunk":"a"`).String(), 3*time.Second)
	b.b.Reset()
	feed(b.f("text", `"chunk":"b"`).String(), 9*time.Second)
	b.b.Reset()
	feed(b.f("cancelled", `"error":{"code":"IDLE_TIMEOUT"}`).String(), 20*time.Second)
	want := "ttfe 0,idle-gap 2,client-divergence 3"
	if strings.Join(got, ",") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	as := c.End(invariants.End{Kind: invariants.EndEOF, At: 60 * time.Second, HasTime: true})
	if len(as) != 1 || as[0].Rule != "done-missing" {
		t.Fatalf("end alarms %+v", as)
	}
}

func TestCheckerIdleAtEnd(t *testing.T) {
	c := New(invariants.Options{Idle: 5 * time.Second})
	dec := decode.Decoder{Keys: Keys}
	fm := decode.NewFramer()
	fm.Feed([]byte(newTurn("r1").open().String()), func(ev *decode.Event) { c.Observe(dec.Decode(ev, 0, true)) })
	var rules []string
	for _, a := range c.End(invariants.End{Kind: invariants.EndError, Detail: "reset", At: 10 * time.Second, HasTime: true}) {
		rules = append(rules, a.Rule)
	}
	if strings.Join(rules, ",") != "idle-gap,terminal-missing" {
		t.Fatalf("got %v", rules)
	}
}

func TestCheckerHTTP(t *testing.T) {
	c := New(invariants.Options{})
	var rules []string
	for _, a := range c.HTTP(500, "text/html; charset=utf-8") {
		rules = append(rules, a.Rule)
	}
	if strings.Join(rules, ",") != "http-status,content-type" {
		t.Fatalf("got %v", rules)
	}
	if as := New(invariants.Options{}).HTTP(200, "Text/Event-Stream; charset=utf-8"); len(as) != 0 {
		t.Fatalf("clean response raised %+v", as)
	}
}

func TestCheckerTurnsSummary(t *testing.T) {
	c := New(invariants.Options{})
	dec := decode.Decoder{Keys: Keys}
	fm := decode.NewFramer()
	stream := newTurn("a").open().completed().done().String() + newTurn("b").open().f("error", `"error":{"code":"INTERNAL_ERROR"},"is_final":true`).String()
	fm.Feed([]byte(stream), func(ev *decode.Event) { c.Observe(dec.Decode(ev, 0, false)) })
	c.End(eof())
	turns := c.Turns()
	if len(turns) != 2 {
		t.Fatalf("turns %+v", turns)
	}
	if turns[0].ResponseID != "a" || turns[0].FirstFrame != 0 || turns[0].LastFrame != 2 || turns[0].Terminal != invariants.TerminalCompleted || !turns[0].Done {
		t.Errorf("turn 0 %+v", turns[0])
	}
	if turns[1].ResponseID != "b" || turns[1].FirstFrame != 3 || turns[1].LastFrame != 4 || turns[1].Terminal != invariants.TerminalError || turns[1].Done {
		t.Errorf("turn 1 %+v", turns[1])
	}
}
