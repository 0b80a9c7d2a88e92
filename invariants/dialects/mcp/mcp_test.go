package mcp

import (
	"fmt"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

func capture(t testing.TB, name string) string { return dialecttest.Capture(t, "mcp", name) }

func ev(s string) string { return "event: message\ndata: " + s + "\n\n" }

// post is the exchange of a POST whose body is body (a request-aware run).
func post(body string, headers ...string) invariants.Options {
	x := &invariants.Exchange{Method: "POST", URL: "http://127.0.0.1/mcp", RequestBody: []byte(body),
		RequestHeaders: map[string]string{}, ResponseHeaders: map[string]string{"Content-Type": "text/event-stream"}}
	for i := 0; i+1 < len(headers); i += 2 {
		x.RequestHeaders[headers[i]] = headers[i+1]
	}
	return invariants.Options{Exchange: x}
}

const (
	callReq  = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{},"_meta":{"progressToken":"p"}}}`
	progress = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2,"message":"Halfway"}}`
	result1  = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Sunny"}]}}`
	error1   = `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool"}}`
)

// TestMappingToolCall: with the request known, the tools/call opens at the
// stream's first frame under its own name, progress is a status line, and
// the response closes the call and ends the turn.
func TestMappingToolCall(t *testing.T) {
	res := dialecttest.RunOpts(Dialect, ev(progress)+ev(result1), post(callReq, "MCP-Protocol-Version", "2025-06-18"))
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start; tool-open key=1 name="get_weather"; progress text="Halfway"`,
		`text text="Sunny"; tool-close key=1 outcome=completed; terminal name="response" outcome=completed`,
	})
}

// TestJSONRPCErrorFailsTheCall: an error response is the call's and the
// turn's failed outcome, with its code and message.
func TestJSONRPCErrorFailsTheCall(t *testing.T) {
	res := dialecttest.RunOpts(Dialect, ev(error1), post(callReq))
	dialecttest.WantMoves(t, res, []string{
		`turn-start; tool-open key=1 name="get_weather"; tool-close key=1 outcome=failed; terminal name="response" text="Unknown tool" code=-32602 outcome=failed`,
	})
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnFailed {
		t.Errorf("turns %+v", res.Turns)
	}
}

// TestRules: each case raises exactly the rules named (serious and info).
func TestRules(t *testing.T) {
	rev26 := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	for _, tc := range []struct {
		name, body string
		opts       invariants.Options
		want       string
	}{
		{"answered", ev(result1), post(callReq), ""},
		{"unrequested", ev(`{"jsonrpc":"2.0","id":9,"result":{}}`) + ev(result1), post(callReq), "response-unrequested error 0"},
		{"raw any id", ev(`{"jsonrpc":"2.0","id":9,"result":{}}`), invariants.Options{}, ""},
		{"duplicate raw", ev(result1) + ev(result1), invariants.Options{}, "response-duplicate error 1"},
		{"duplicate after terminal is after-terminal", ev(result1) + ev(result1), post(callReq), "after-terminal error 1"},
		{"unanswered", ev(progress), post(callReq), "terminal-missing error -"},
		{"progress backwards", ev(progress) + ev(progress) + ev(result1), invariants.Options{}, "progress-order warn 1"},
		{"unknown token", ev(strings.Replace(progress, `"p"`, `"q"`, 1)) + ev(result1), post(callReq), "progress-token-unknown warn 0"},
		{"2026 server request", ev(`{"jsonrpc":"2.0","id":"s","method":"roots/list"}`) + ev(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`),
			post(rev26, "MCP-Protocol-Version", "2026-07-28"), "server-request-removed error 0"},
		{"2025 server request", ev(`{"jsonrpc":"2.0","id":"s","method":"roots/list"}`) + ev(result1), post(callReq, "MCP-Protocol-Version", "2025-06-18"), ""},
		{"2026 resultType bogus", ev(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"done"}}`), post(rev26), "result-type error 0"},
		{"header vs meta", ev(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`), post(rev26, "MCP-Protocol-Version", "2025-06-18"), "protocol-version-mismatch warn 0"},
		{"event named", "event: notice\ndata: " + result1 + "\n\n", invariants.Options{}, "event-name error 0"},
		{"both result and error", ev(`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`) + ev(result1), invariants.Options{}, "payload-malformed error 0"},
		{"not JSON", "data: hello\n\n" + ev(result1), invariants.Options{}, "frame-json error 0"},
		{"endpoint late", ev(progress) + "event: endpoint\ndata: /m\n\n" + ev(result1), invariants.Options{}, "endpoint-order error 1"},
		{"event id repeats", "id: a\n" + ev(progress) + "id: a\n" + ev(result1), invariants.Options{}, "event-id-duplicate warn 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.RunOpts(Dialect, tc.body, tc.opts)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestUnparsedBodyIsNotRequestAware: a body cut short says nothing, so
// no request-aware alarm (the stream's id is inferred instead).
func TestUnparsedBodyIsNotRequestAware(t *testing.T) {
	res := dialecttest.RunOpts(Dialect, ev(`{"jsonrpc":"2.0","id":9,"result":{}}`), post(callReq[:30]))
	if n := len(res.Alarms); n != 0 {
		t.Errorf("alarms %v", dialecttest.Lines(res.Alarms))
	}
}

// TestMutations: dropping, duplicating or moving a valid stream's answer
// raises an alarm.
func TestMutations(t *testing.T) {
	body := ev(progress) + ev(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`) + ev(result1)
	for name, mutated := range dialecttest.TerminalMutations(body, 2) {
		for _, opts := range []invariants.Options{post(callReq), {}} {
			res := dialecttest.RunOpts(Dialect, mutated, opts)
			if dialecttest.Serious(res.Alarms) == 0 && !(opts.Exchange == nil && name == "terminal first") {
				t.Errorf("%s (request known %v): no alarm", name, opts.Exchange != nil)
			}
		}
	}
	// Reordering progress raises progress-order.
	bs := dialecttest.Blocks(ev(progress) + ev(strings.Replace(progress, `"progress":1`, `"progress":2`, 1)) + ev(result1))
	res := dialecttest.Run(Dialect, bs[1]+bs[0]+bs[2])
	if dialecttest.Serious(res.Alarms) == 0 {
		t.Errorf("reordered progress: no alarm")
	}
}

// TestIDFloodIsBounded: a stream naming a new id on every frame keeps the
// mapper's state bounded and says so once.
func TestIDFloodIsBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < maxIDs+500; i++ {
		fmt.Fprintf(&b, "id: e%d\ndata: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{}}\n\n", i, i)
	}
	res := dialecttest.Run(Dialect, b.String())
	n := 0
	for _, a := range res.Alarms {
		if a.Rule == "ids-bounded" {
			n++
		}
	}
	if n != 1 || dialecttest.Serious(res.Alarms) != 0 {
		t.Errorf("ids-bounded %d times, alarms %v", n, dialecttest.Lines(res.Alarms)[:min(5, len(res.Alarms))])
	}
}

// TestDemos: the happy demo is clean, the broken one raises alarms.
func TestDemos(t *testing.T) {
	demos := Dialect.Demos()
	if len(demos) != 2 {
		t.Fatalf("%d demos", len(demos))
	}
	if res := dialecttest.Run(Dialect, demos[0].Body); len(res.Alarms) != 0 || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("happy demo: %v %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	if res := dialecttest.Run(Dialect, demos[1].Body); dialecttest.Serious(res.Alarms) < 3 {
		t.Errorf("broken demo: %v", dialecttest.Lines(res.Alarms))
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		ev(progress)+ev(result1)+ev(error1),
		"event: endpoint\ndata: /m\n\n"+ev(`{"jsonrpc":"2.0","id":null,"error":[]}`)+"data: [1,{\"jsonrpc\":\"2.0\",\"id\":{}}]\n\n",
		ev(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":{},"progress":"x"}}`)+ev(`{"jsonrpc":"2.0","id":1,"result":{"resultType":7,"content":{}}}`),
		capture(f, "valid-legacy-sse.sse"), capture(f, "valid-raw-tool-result.sse"))
}

// TestEventIDsRemembered: a repeat within the latest maxEventIDs ids is
// event-id-duplicate; a long stream of fresh ids raises nothing.
func TestEventIDsRemembered(t *testing.T) {
	var b strings.Builder
	for i := 0; i < maxEventIDs+10; i++ {
		fmt.Fprintf(&b, "id: e%d\n%s", i, ev(strings.Replace(progress, `"progress":1`, fmt.Sprintf(`"progress":%d`, i+1), 1)))
	}
	fresh := b.String()
	if res := dialecttest.Run(Dialect, fresh+ev(result1)); len(res.Alarms) != 0 {
		t.Fatalf("fresh ids: %v", dialecttest.Lines(res.Alarms))
	}
	again := fmt.Sprintf("id: e%d\n%s", maxEventIDs, ev(result1))
	res := dialecttest.Run(Dialect, fresh+again)
	if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); !strings.Contains(got, "event-id-duplicate warn") {
		t.Errorf("a recent id repeated: %q", got)
	}
}

// TestLongLivedStreamForgets: a legacy session stream answering more ids
// than the bound forgets the old ones instead of raising ids-bounded.
func TestLongLivedStreamForgets(t *testing.T) {
	var b strings.Builder
	b.WriteString("event: endpoint\ndata: /messages?s=1\n\n")
	for i := 0; i < maxIDs+10; i++ {
		fmt.Fprintf(&b, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{}}\n\n", i)
	}
	res := dialecttest.Run(Dialect, b.String())
	if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != "legacy-shape info 0" {
		t.Errorf("alarms %q", got)
	}
}

// FuzzRequest: any request body with any stream neither panics nor hangs.
func FuzzRequest(f *testing.F) {
	f.Add(callReq, ev(progress)+ev(result1), "2025-06-18")
	f.Add(`[{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}},1,null]`, ev(error1)+"data: [1]\n\n", "2026-07-28")
	f.Fuzz(func(t *testing.T, body, stream, version string) {
		dialecttest.RunOpts(Dialect, stream, post(body, "MCP-Protocol-Version", version, "Last-Event-ID", "e1"))
	})
}

func TestSmallUint(t *testing.T) {
	for in, want := range map[string]float64{"0": 0, "42": 42, "999999999999999": 999999999999999} {
		if v, ok := smallUint([]byte(in)); !ok || v != want {
			t.Errorf("%s: %v %v", in, v, ok)
		}
	}
	for _, in := range []string{"", "1.5", "-1", "1e3", "1234567890123456"} {
		if _, ok := smallUint([]byte(in)); ok {
			t.Errorf("%s read as plain digits", in)
		}
	}
}

// TestHotPathAllocs: a log notification on a warm stream maps without
// allocating (the bulk of a long tool's stream).
func TestHotPathAllocs(t *testing.T) {
	dialecttest.HotPathAllocs(t, Dialect, ev(progress),
		ev(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"deepwiki","data":"Processing query (14s elapsed)"}}`))
}

// TestMethodAfterKnownOne: the mapper remembers the last method it looked
// up; a method that is not it — unknown, empty, a request among
// notifications, escaped — is looked up afresh.
func TestMethodAfterKnownOne(t *testing.T) {
	body := ev(progress) + ev(`{"jsonrpc":"2.0","method":""}`) + ev(strings.Replace(progress, `"progress":1`, `"progress":2`, 1)) + ev(`{"jsonrpc":"2.0","method":"notifications/bogus"}`) +
		ev(`{"jsonrpc":"2.0","id":"s","method":"notifications/progress"}`) + ev(`{"jsonrpc":"2.0","id":"s","method":"roots/list"}`) +
		ev(`{"jsonrpc":"2.0","method":"notifications/m\u0065ssage","params":{"data":"esc"}}`) + ev(result1)
	res := dialecttest.Run(Dialect, body)
	if got, want := strings.Join(dialecttest.Lines(res.Alarms), " | "), "event-unknown info 1 | event-unknown info 3 | event-unknown info 4"; got != want {
		t.Errorf("alarms %q, want %q", got, want)
	}
	dialecttest.WantMoves(t, res, []string{`turn-start; progress text="Halfway"`, "", `progress text="Halfway"`, "", "",
		`progress text="roots/list"`, `progress text="esc"`,
		`text text="Sunny"; tool-open key=1 name="tools/call"; tool-close key=1 outcome=completed`})
	// An empty method before any known one is not the "" remembered.
	res = dialecttest.Run(Dialect, ev(`{"jsonrpc":"2.0","method":""}`)+ev(result1))
	if got, want := strings.Join(dialecttest.Lines(res.Alarms), " | "), "event-unknown info 0"; got != want {
		t.Errorf("empty method first: alarms %q, want %q", got, want)
	}
}

// TestEventIDRepeats: a repeat of one of the latest ids is found whether
// the ids grow (a counter) or not (the TypeScript SDK's
// streamId_milliseconds_random, the Python SDK's UUIDs); one further back
// than the ids remembered goes unseen, and nothing else raises.
func TestEventIDRepeats(t *testing.T) {
	for name, idOf := range map[string]func(int) string{
		"counter": func(i int) string { return fmt.Sprintf("s1_%d", i) },
		"ts sdk":  func(i int) string { return fmt.Sprintf("3f2b6a1e_%d_%08x", 1764180012345+i/2, uint32(i*2654435761)) },
	} {
		var b strings.Builder
		n := maxEventIDs + 100
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "id: %s\n%s", idOf(i), ev(`{"method":"notifications/message","params":{"data":"x"},"jsonrpc":"2.0"}`))
		}
		b.WriteString("id: " + idOf(n-5) + "\n" + ev(`{"method":"notifications/message","params":{"data":"x"},"jsonrpc":"2.0"}`)) // recent
		b.WriteString("id: " + idOf(3) + "\n" + ev(result1))                                                                      // forgotten
		res := dialecttest.Run(Dialect, b.String())
		if got, want := strings.Join(dialecttest.Lines(res.Alarms), " | "), fmt.Sprintf("event-id-duplicate warn %d", n); got != want {
			t.Errorf("%s: alarms %q, want %q", name, got, want)
		}
	}
}

// TestHotPathAllocsWithEventIDs: progress notifications whose event ids
// do not grow (the map of the latest ids in use) map without allocating.
func TestHotPathAllocsWithEventIDs(t *testing.T) {
	chk := Dialect.NewChecker(invariants.Options{})
	var frames []*decode.Frame
	fr := decode.NewFramer()
	for i := 0; i < 600; i++ {
		body := fmt.Sprintf("id: 3f2b6a1e_%d_%08x\n", 1764180012345+i/2, uint32(i*2654435761)) +
			ev(strings.Replace(progress, `"progress":1`, fmt.Sprintf(`"progress":%d`, i+1), 1))
		fr.Feed([]byte(body), func(ev *decode.Event) {
			if ev.Dispatched() {
				c := ev.Clone()
				frames = append(frames, decode.DecodeFrame(&c, len(frames)))
			}
		})
	}
	for _, f := range frames[:300] { // warm: the ids stopped growing, the ring and map are made
		if as := chk.Observe(f); len(as) != 0 {
			t.Fatalf("frame %d raises %v", f.Index, dialecttest.Lines(as))
		}
	}
	next := 300
	n := testing.AllocsPerRun(200, func() {
		chk.Observe(frames[next])
		next++
	})
	if n != 0 {
		t.Errorf("a progress notification with an event id allocates %.1f times, want 0", n)
	}
}

// TestAuditEventsAndBatches: what the SDKs' stream readers do decides.
// An event of another name whose data is no JSON-RPC message (a
// keep-alive some servers send) is dropped by both SDKs without harm: no
// event-name, no payload-malformed. A batch array in a stream is parsed by
// neither SDK (TS JSONRPCMessageSchema.parse throws, python answers the
// request with PARSE_ERROR): error, warn in 2025-03-26 whose transport
// allowed it.
func TestAuditEventsAndBatches(t *testing.T) {
	batch := "data: [" + progress + "," + result1 + "]\n\n"
	for _, tc := range []struct {
		name, body string
		opts       invariants.Options
		want       string
	}{
		{"ping event with JSON", "event: ping\ndata: {}\n\n" + ev(result1), invariants.Options{}, ""},
		{"keep-alive event with JSON", "event: heartbeat\ndata: {\"ts\":1}\n\n" + ev(result1), invariants.Options{}, "event-unknown info 0"},
		{"JSON-RPC in another event", "event: notice\ndata: " + result1 + "\n\n", invariants.Options{}, "event-name error 0"},
		{"batch", batch, invariants.Options{}, "payload-malformed error 0"},
		{"batch 2025-06-18", batch, post(callReq, "MCP-Protocol-Version", "2025-06-18"), "payload-malformed error 0"},
		{"batch 2025-03-26", batch, post(callReq, "MCP-Protocol-Version", "2025-03-26"), "payload-malformed info 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.RunOpts(Dialect, tc.body, tc.opts)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSniffTasks: a 2025-11-25 task-augmented request is answered with a
// CreateTaskResult ({"task":{"taskId",…,"status":"working"}}), tasks/get
// with the Task itself: both MCP's (an A2A task has id and contextId, a
// status object, never taskId inside task).
func TestSniffTasks(t *testing.T) {
	for data, want := range map[string]invariants.Verdict{
		`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"786512e2","status":"working","createdAt":"2025-11-25T10:30:00Z","ttl":60000}}}`: invariants.Yes,
		`{"jsonrpc":"2.0","id":2,"result":{"taskId":"786512e2","status":"completed","createdAt":"2025-11-25T10:30:00Z","ttl":60000}}`:        invariants.Yes,
		`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}`:                      invariants.No,
	} {
		ev := decode.Event{Data: []byte(data), HasData: true}
		f := decode.DecodeFrame(&ev, 0)
		if got := Dialect.Sniff(f, invariants.KeysOf("type", "object")); got != want {
			t.Errorf("%s: sniff %v, want %v", data, got, want)
		}
	}
}

// TestIDCoercion: both SDKs correlate a response id "7" with request id 7
// (TS protocol.ts _onresponse: Number(response.id); python
// shared/dispatcher.py coerce_request_id: int() of a string id), progress
// tokens alike. So a response whose id is the request's stringified is the
// request's answer: the turn ends, no terminal-missing; response-unrequested
// says it at warn (JSON-RPC §5 wants the same id). A progress token so
// written is the request's, silently. Unaware, "1" then 1 is one id twice.
func TestIDCoercion(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"f","_meta":{"progressToken":7}}}`
	prog := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"7","progress":1}}`
	for _, tc := range []struct {
		name, body string
		opts       invariants.Options
		want       string
	}{
		{"string for number", ev(prog) + ev(`{"jsonrpc":"2.0","id":"7","result":{"content":[]}}`), post(req), "response-unrequested warn 1"},
		{"same literal", ev(`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`), post(req), ""},
		{"really another id", ev(`{"jsonrpc":"2.0","id":"8","result":{"content":[]}}`), post(req), "response-unrequested error 0 | terminal-missing error -"},
		{"raw twice coerced", ev(`{"jsonrpc":"2.0","id":"1","result":{}}`) + ev(`{"jsonrpc":"2.0","id":1,"result":{}}`), invariants.Options{}, "response-duplicate error 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.RunOpts(Dialect, tc.body, tc.opts)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPollingDisconnect: 2025-11-25 Transports §Sending Messages lets the
// server close a POST's stream before the response once it has sent an
// event with an id (SSE polling); both SDKs then resume with a GET and
// Last-Event-ID (TS streamableHttp.ts _handleSseStream: hasPrimingEvent
// && !receivedResponse → _scheduleReconnection; python
// streamable_http.py: "Stream ended without response - reconnect if we
// received an event with ID"). So such a stream owes no response yet:
// no terminal-missing. Without any event id the client cannot resume:
// terminal-missing stays.
func TestPollingDisconnect(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		opts       invariants.Options
		want       string
	}{
		{"priming then close", "id: e1\nretry: 1000\ndata:\n\n", post(callReq, "MCP-Protocol-Version", "2025-11-25"), ""},
		{"progress with id then close", "id: e1\n" + ev(progress), post(callReq, "MCP-Protocol-Version", "2025-11-25"), ""},
		{"raw priming then close", "id: e1\ndata:\n\nid: e2\n" + ev(progress), invariants.Options{}, ""},
		{"no id then close", ev(progress), post(callReq, "MCP-Protocol-Version", "2025-11-25"), "terminal-missing error -"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.RunOpts(Dialect, tc.body, tc.opts)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEndpointOrigin: on the legacy HTTP+SSE transport both SDKs resolve
// the endpoint event's URI against the stream's URL and refuse one on
// another origin (TS sse.ts: "Endpoint origin does not match connection
// origin", python sse.py: the same ValueError): the client never starts.
// Needs the exchange (the stream's URL); a relative URI is the common case.
func TestEndpointOrigin(t *testing.T) {
	get := func(u string) invariants.Options {
		return invariants.Options{Exchange: &invariants.Exchange{Method: "GET", URL: u, RequestHeaders: map[string]string{},
			ResponseHeaders: map[string]string{"Content-Type": "text/event-stream"}}}
	}
	msg := "event: message\ndata: " + result1 + "\n\n"
	for _, tc := range []struct {
		name, body string
		opts       invariants.Options
		want       string
	}{
		{"relative", "event: endpoint\ndata: /messages/?session_id=abc\n\n" + msg, get("http://127.0.0.1:8000/sse"), "legacy-shape info 0"},
		{"absolute same origin", "event: endpoint\ndata: http://127.0.0.1:8000/messages/?session_id=abc\n\n" + msg, get("http://127.0.0.1:8000/sse"), "legacy-shape info 0"},
		{"default port", "event: endpoint\ndata: https://mcp.example.com:443/messages\n\n" + msg, get("https://mcp.example.com/sse"), "legacy-shape info 0"},
		{"other host", "event: endpoint\ndata: https://evil.example/messages\n\n" + msg, get("https://mcp.example.com/sse"), "endpoint-origin error 0 | legacy-shape info 0"},
		{"other scheme", "event: endpoint\ndata: http://mcp.example.com/messages\n\n" + msg, get("https://mcp.example.com/sse"), "endpoint-origin error 0 | legacy-shape info 0"},
		{"raw body", "event: endpoint\ndata: https://evil.example/messages\n\n" + msg, invariants.Options{}, "legacy-shape info 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.RunOpts(Dialect, tc.body, tc.opts)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTaskAugmentedCall: a 2025-11-25 tools/call with params.task is
// answered by a CreateTaskResult: the call is accepted, its result comes
// later from tasks/result. The call and the turn are handed over
// (interrupted), not completed; no alarm.
func TestTaskAugmentedCall(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"long_job","arguments":{},"task":{"ttl":60000}}}`
	res := dialecttest.RunOpts(Dialect, ev(`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"786512e2","status":"working","createdAt":"2025-11-25T10:30:00Z","ttl":60000}}}`),
		post(req, "MCP-Protocol-Version", "2025-11-25"))
	if len(res.Alarms) != 0 {
		t.Fatalf("alarms %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start; tool-open key=1 name="long_job"; tool-close key=1 outcome=interrupted; terminal name="response" outcome=interrupted`,
	})
}

// TestStrictEnvelope: the TS client parses every message with
// JSONRPCMessageSchema, whose four members are z.object(...).strict()
// (packages/core/src/schemas.ts): a member beside jsonrpc, id, method,
// params, result, error — or a notification with "id": null — fails the
// parse (onerror, the message lost). Python's models ignore extras, but a
// mainstream client breaks: payload-malformed, once per stream.
func TestStrictEnvelope(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"extra member", ev(`{"jsonrpc":"2.0","id":1,"result":{"content":[]},"timestamp":"2026-01-01T00:00:00Z"}`), "payload-malformed error 0"},
		{"once per stream", ev(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"},"seq":1}`) +
			ev(`{"jsonrpc":"2.0","id":1,"result":{"content":[]},"seq":2}`), "payload-malformed error 0"},
		{"notification id null", ev(`{"jsonrpc":"2.0","id":null,"method":"notifications/message","params":{"level":"info","data":"x"}}`) + ev(result1), "payload-malformed error 0"},
		{"plain", ev(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`) + ev(result1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}
