package ollama

import (
	"strconv"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

func capture(t testing.TB, name string) string { return dialecttest.Capture(t, "ollama", name) }

// TestMappingChat: /api/chat's message.thinking is reasoning, content the
// turn's text, a whole tool call is opened, filled and ready in one frame,
// and the done frame is the terminal.
func TestMappingChat(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-chat-tools.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`reasoning text="Need the weather."`,
		`tool-open key="call_a1b2c3" name="get_weather"; tool-args key="call_a1b2c3" text={"city":"Paris"}; tool-ready key="call_a1b2c3"`,
		`text text="It is 18 °C"`,
		`text text=" in Paris."`,
		`terminal name="done" outcome=completed`,
	})
}

// TestMappingGenerate: /api/generate's thinking and response are on the
// frame itself.
func TestMappingGenerate(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-generate.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`reasoning text="Three words."`,
		`text text="Fluffy,"`,
		`text text=" quick,"`,
		`text text=" shy."`,
		`terminal name="done" outcome=completed`,
	})
}

// TestGenerateToolCalls: /api/generate sends the calls of a model with a
// builtin parser on its done frame (api/types.go GenerateResponse.ToolCalls,
// server/routes.go GenerateHandler): they are the turn's tool calls.
func TestGenerateToolCalls(t *testing.T) {
	body := `data: {"model":"qwen3","created_at":"t","response":"","thinking":"Weather.","done":false}` + "\n\n" +
		`data: {"model":"qwen3","created_at":"t","response":"","done":true,"done_reason":"stop","context":[1,2],"tool_calls":[{"id":"call_1","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]}` + "\n\n"
	res := dialecttest.Run(Dialect, body)
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`reasoning text="Weather."`,
		`tool-open key="call_1" name="get_weather"; tool-args key="call_1" text={"city":"Paris"}; tool-ready key="call_1"; terminal name="done" outcome=completed`,
	})
}

// TestToolsWithoutIDs: calls without an id (older servers) get keys of
// our own, one per call of the stream.
func TestToolsWithoutIDs(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-tools-no-id.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	got := strings.Join(res.Moves[0], "; ")
	if !strings.Contains(got, `tool-open key="call 1" name="get_weather"`) || !strings.Contains(got, `tool-open key="call 2" name="get_time"`) {
		t.Errorf("moves %s", got)
	}
}

// TestOutcomes: done_reason decides the outcome; an error line fails the
// turn.
func TestOutcomes(t *testing.T) {
	for reason, want := range map[string]string{"stop": "completed", "length": "incomplete", "load": "completed", "unload": "completed"} {
		body := `data: {"model":"m","created_at":"t","response":"x","done":false}` + "\n\n" +
			`data: {"model":"m","created_at":"t","response":"","done":true,"done_reason":"` + reason + `"}` + "\n\n"
		res := dialecttest.Run(Dialect, body)
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want || len(res.Alarms) != 0 {
			t.Errorf("%s: turns %+v alarms %v, want one %s turn", reason, res.Turns, dialecttest.Lines(res.Alarms), want)
		}
	}
	// A turn cut by num_predict after a whole tool call: the call ends
	// with the turn, no tool-unfinished.
	cut := `data: {"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{}}}]},"done":false}` + "\n\n" +
		`data: {"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"length"}` + "\n\n"
	if res := dialecttest.Run(Dialect, cut); len(res.Alarms) != 0 || res.Turns[0].Outcome != invariants.TurnIncomplete {
		t.Errorf("length after a tool call: %v %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	res := dialecttest.Run(Dialect, capture(t, "error-midstream.fires.sse"))
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnFailed {
		t.Errorf("error line: turns %+v, want a failed turn", res.Turns)
	}
}

// TestOneDefectOneAlarm: the broken shapes raise exactly one alarm each.
func TestOneDefectOneAlarm(t *testing.T) {
	chat := func(extra string) string {
		return `data: {"model":"m","created_at":"t","message":{"role":"assistant","content":"x"` + extra + `},"done":false}` + "\n\n"
	}
	done := `data: {"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n\n"
	for name, tc := range map[string]struct{ body, rule string }{
		"second done":        {chat("") + done + done, "after-terminal"},
		"error after done":   {chat("") + done + `data: {"error":"late"}` + "\n\n", "after-terminal"},
		"nameless tool":      {chat(`,"tool_calls":[{"function":{"arguments":{}}}]`) + done, "tool-malformed"},
		"tool_calls object":  {chat(`,"tool_calls":{}`) + done, "payload-malformed"},
		"content number":     {`data: {"model":"m","created_at":"t","message":{"role":"assistant","content":7},"done":false}` + "\n\n" + done, "payload-malformed"},
		"message string":     {`data: {"model":"m","created_at":"t","message":"x","done":false}` + "\n\n" + done, "payload-malformed"},
		"done missing":       {`data: {"model":"m","created_at":"t","message":{"role":"assistant","content":"x"}}` + "\n\n" + done, "payload-malformed"},
		"error object":       {chat("") + `data: {"error":{"message":"x"}}` + "\n\n", "payload-malformed"},
		"done_reason number": {chat("") + `data: {"model":"m","created_at":"t","response":"","done":true,"done_reason":1}` + "\n\n", "payload-malformed"},
		"no done at all":     {chat("") + chat(""), "terminal-missing"},
		"error after a call": {chat(`,"tool_calls":[{"function":{"name":"f","arguments":{}}}]`) + `data: {"error":"runner stopped"}` + "\n\n", "error-midstream"},
		// ollama-python's Message.role and Function.arguments are
		// required: the line fails pydantic validation.
		"role missing":           {`data: {"model":"m","created_at":"t","message":{"content":"x"},"done":false}` + "\n\n" + done, "payload-malformed"},
		"role missing twice":     {strings.Repeat(`data: {"model":"m","created_at":"t","message":{"content":"x"},"done":false}`+"\n\n", 2) + done, "payload-malformed"},
		"arguments missing":      {chat(`,"tool_calls":[{"function":{"name":"f"}}]`) + done, "payload-malformed"},
		"generate nameless tool": {`data: {"model":"m","created_at":"t","response":"","done":true,"done_reason":"stop","tool_calls":[{"function":{"arguments":{}}}]}` + "\n\n", "tool-malformed"},
		"model changes twice":    {chat("") + `data: {"model":"n","created_at":"t","response":"","done":false}` + "\n\n" + `data: {"model":"o","created_at":"t","response":"","done":false}` + "\n\n" + done, "envelope-drift"},
	} {
		res := dialecttest.Run(Dialect, tc.body)
		rules := []string{}
		for _, a := range res.Alarms {
			if !(name == "error object" && a.Rule == "error-midstream") {
				rules = append(rules, a.Rule)
			}
		}
		if len(rules) != 1 || rules[0] != tc.rule {
			t.Errorf("%s: alarms %v, want one %s", name, dialecttest.Lines(res.Alarms), tc.rule)
		}
	}
}

// TestToolFlood: a stream that opens a new tool id on every line stops
// being tracked at maxToolCalls, with one alarm, so the Engine's tool table
// stays bounded.
func TestToolFlood(t *testing.T) {
	var b strings.Builder
	for i := range 3 * maxToolCalls {
		b.WriteString(`data: {"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"id":"c` + strconv.Itoa(i) + `","function":{"name":"f","arguments":{}}}]},"done":false}` + "\n\n")
	}
	b.WriteString(`data: {"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n\n")
	res := dialecttest.Run(Dialect, b.String())
	if len(res.Alarms) != 1 || res.Alarms[0].Rule != "tool-flood" || res.Alarms[0].Frame != maxToolCalls {
		t.Fatalf("alarms %v, want one tool-flood at frame %d", dialecttest.Lines(res.Alarms), maxToolCalls)
	}
	for i := maxToolCalls; i < 3*maxToolCalls; i++ {
		if len(res.Moves[i]) != 0 {
			t.Fatalf("frame %d past the bound still moves: %v", i, res.Moves[i])
		}
	}
}

// TestMutations: dropping, duplicating or moving the done frame of a valid
// stream raises an alarm; so does dropping a frame in favour of an error.
func TestMutations(t *testing.T) {
	for _, name := range []string{"valid-chat-tools.sse", "valid-generate.sse"} {
		valid := capture(t, name)
		blocks := dialecttest.Blocks(valid)
		for mut, body := range dialecttest.TerminalMutations(valid, len(blocks)-1) {
			if res := dialecttest.Run(Dialect, body); dialecttest.Serious(res.Alarms) == 0 {
				t.Errorf("%s, %s: no alarm", name, mut)
			}
		}
		// The middle frame replaced by a server error line.
		mid := len(blocks) / 2
		cut := strings.Join(blocks[:mid], "") + "data: {\"error\":\"runner stopped\"}\n\n"
		if res := dialecttest.Run(Dialect, cut); dialecttest.Serious(res.Alarms) == 0 {
			t.Errorf("%s, error line mid-stream: no alarm", name)
		}
	}
}

// TestSniff: the signature and the frames that are not Ollama's.
func TestSniff(t *testing.T) {
	foreign := invariants.KeysOf("type", "object")
	frame := func(s string) *decode.Frame {
		var got *decode.Frame
		fr := decode.NewFramer()
		fr.Feed([]byte("data: "+s+"\n\n"), func(ev *decode.Event) {
			if ev.Dispatched() {
				got = decode.DecodeFrame(ev, 0)
			}
		})
		return got
	}
	for s, want := range map[string]invariants.Verdict{
		`{"model":"m","created_at":"t","message":{"role":"assistant","content":"x"},"done":false}`: invariants.Yes,
		`{"model":"m","response":"x","done":false}`:                                                invariants.Yes,
		`{"error":"boom"}`:                          invariants.Maybe,
		`{"error":{"message":"boom"}}`:              invariants.No,
		`{"done":true}`:                             invariants.No,
		`{"type":"x","created_at":"t","done":true}`: invariants.No,
		`{"object":"chat.completion.chunk","done":false,"created_at":"t"}`: invariants.No,
		`{"model":"m","created_at":"t","done":"false"}`:                    invariants.No,
	} {
		if got := sniff(frame(s), foreign); got != want {
			t.Errorf("%s: %v, want %v", s, got, want)
		}
	}
}

// TestHotPath: a content line allocates nothing once warm.
func TestHotPath(t *testing.T) {
	text := `data: {"model":"qwen3:8b","created_at":"2025-09-18T10:15:03.1Z","message":{"role":"assistant","content":"more"},"done":false}` + "\n\n"
	dialecttest.HotPathAllocs(t, Dialect, text, text)
	gen := `data: {"model":"qwen3:8b","created_at":"2025-09-18T10:15:03.1Z","response":"more","done":false}` + "\n\n"
	dialecttest.HotPathAllocs(t, Dialect, gen, gen)
}

// TestDemos: the happy demo is clean and fills every pane (thinking,
// a tool, text); the broken one raises alarms.
func TestDemos(t *testing.T) {
	demos := Dialect.Demos()
	if len(demos) != 2 {
		t.Fatalf("%d demos", len(demos))
	}
	happy := dialecttest.Run(Dialect, demos[0].Body)
	if len(happy.Alarms) != 0 {
		t.Errorf("happy demo raises %v", dialecttest.Lines(happy.Alarms))
	}
	all := ""
	for _, mv := range happy.Moves {
		all += strings.Join(mv, ";") + ";"
	}
	for _, kind := range []string{"reasoning ", "tool-open ", "text ", "terminal "} {
		if !strings.Contains(all, kind) {
			t.Errorf("happy demo has no %s move", kind)
		}
	}
	if res := dialecttest.Run(Dialect, demos[1].Body); dialecttest.Serious(res.Alarms) < 3 {
		t.Errorf("broken demo raises only %v", dialecttest.Lines(res.Alarms))
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		"data: {\"model\":\"m\",\"message\":{\"content\":1,\"thinking\":[],\"tool_calls\":[{\"id\":\"\",\"function\":{\"name\":2,\"arguments\":\"x\"}},7]},\"done\":0}\n\n",
		"data: {\"error\":{}}\n\ndata: {\"done\":true,\"done_reason\":null,\"response\":\"x\"}\n\ndata: {\"status\":\"pulling\"}\n\n",
		capture(f, "valid-chat-tools.sse"), capture(f, "valid-generate.sse"), capture(f, "error-midstream.fires.sse"))
}

// TestCarries: the timeline's type column says what a line carries.
func TestCarries(t *testing.T) {
	frame := func(s string) *decode.Frame {
		var got *decode.Frame
		fr := decode.NewFramer()
		fr.Feed([]byte("data: "+s+"\n\n"), func(ev *decode.Event) {
			if ev.Dispatched() {
				got = decode.DecodeFrame(ev, 0)
			}
		})
		return got
	}
	for s, want := range map[string]string{
		`{"model":"m","response":"","thinking":"The","done":false}`:                                                                       "thinking",
		`{"model":"m","response":"Fluffy","done":false}`:                                                                                  "response",
		`{"model":"m","response":"","done":false}`:                                                                                        "",
		`{"model":"m","message":{"role":"assistant","content":"hi","thinking":"hm"},"done":false}`:                                        "thinking, content",
		`{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_\u001b[2Jw"}},{}]},"done":false}`: "tool_calls[0] get_\\x1b[2Jw, tool_calls[1]",
		`{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}`:                                      "done: stop",
		`{"model":"m","response":"","done":true}`:                                                                                         "done",
		`not json`: "",
	} {
		if got := carries(frame(s)); got != want {
			t.Errorf("%s: %q, want %q", s, got, want)
		}
	}
}

// TestLongContext: /api/generate's done frame carrying a full 256k-token
// context (about 1.8 MB of ids) is a valid frame, no frame-size warn.
func TestLongContext(t *testing.T) {
	var b strings.Builder
	b.WriteString(`data: {"model":"m","created_at":"t","response":"x","done":false}` + "\n\n")
	b.WriteString(`data: {"model":"m","created_at":"t","response":"","done":true,"done_reason":"stop","context":[`)
	for i := range 262144 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(100000 + i%150000))
	}
	b.WriteString("]}\n\n")
	if res := dialecttest.Run(Dialect, b.String()); len(res.Alarms) != 0 {
		t.Errorf("alarms %v, want none", dialecttest.Lines(res.Alarms))
	}
}

// TestGenerateToolSeverity: /api/chat's tool calls are validated by
// ollama-python (error when broken); /api/generate's are typed by neither
// SDK (warn).
func TestGenerateToolSeverity(t *testing.T) {
	gen := `data: {"model":"m","created_at":"t","response":"","done":true,"done_reason":"stop","tool_calls":[{"function":{"arguments":{}}}]}` + "\n\n"
	chat := `data: {"model":"m","created_at":"t","message":{"role":"assistant","content":"","tool_calls":[{"function":{"arguments":{}}}]},"done":true,"done_reason":"stop"}` + "\n\n"
	for body, want := range map[string]invariants.Severity{gen: invariants.SevWarn, chat: invariants.SevError} {
		res := dialecttest.Run(Dialect, body)
		if len(res.Alarms) != 1 || res.Alarms[0].Rule != "tool-malformed" || res.Alarms[0].Severity != want {
			t.Errorf("%s: alarms %v, want one tool-malformed %v", body, dialecttest.Lines(res.Alarms), want)
		}
	}
}
