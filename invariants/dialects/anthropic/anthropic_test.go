package anthropic

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// sse renders events as an Anthropic server sends them: event: NAME, then
// data: JSON, then a blank line. Each argument is "NAME JSON".
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		name, data, _ := strings.Cut(e, " ")
		b.WriteString("event: " + name + "\ndata: " + data + "\n\n")
	}
	return b.String()
}

const (
	start     = `message_start {"type":"message_start","message":{"id":"msg_01Hq7cVtL2aZ","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":412,"output_tokens":3}}}`
	ping      = `ping {"type": "ping"}`
	textStart = `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	textStop  = `content_block_stop {"type":"content_block_stop","index":0}`
	toolStart = `content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01Rk3","name":"lookup_order","input":{}}}`
	toolStop  = `content_block_stop {"type":"content_block_stop","index":1}`
	endTurn   = `message_delta {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":41}}`
	toolUse   = `message_delta {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":58}}`
	stop      = `message_stop {"type":"message_stop"}`
)

func text(i int, s string) string {
	return `content_block_delta {"type":"content_block_delta","index":` + itoa(int64(i)) + `,"delta":{"type":"text_delta","text":"` + s + `"}}`
}

func args(i int, s string) string {
	return `content_block_delta {"type":"content_block_delta","index":` + itoa(int64(i)) + `,"delta":{"type":"input_json_delta","partial_json":"` + s + `"}}`
}

// valid: text, a ping, then a client tool call; stop_reason tool_use.
var valid = sse(start, textStart, ping, text(0, "Let me look that order up."), textStop,
	toolStart, args(1, ""), args(1, `{\"order_id\": `), args(1, `\"A-1042\"}`), toolStop, toolUse, stop)

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	want := []string{
		`turn-start key="msg_01Hq7cVtL2aZ"`,
		`seq key="content_block index" name="content block index" seq=0; span-open span=block key=0 name="text"`,
		`heartbeat`,
		`text span=block key=0 text="Let me look that order up."`,
		`span-close span=block key=0`,
		`seq key="content_block index" name="content block index" seq=1; span-open span=block key=1 name="tool_use"; tool-open key="toolu_01Rk3" name="lookup_order"`,
		`tool-args key="toolu_01Rk3" text=""`,
		`tool-args key="toolu_01Rk3" text="{\"order_id\": "`,
		`tool-args key="toolu_01Rk3" text="\"A-1042\"}"`,
		`span-close span=block key=1; tool-ready key="toolu_01Rk3"`,
		``,
		`terminal name="message_stop" outcome=completed`,
	}
	if len(res.Moves) != len(want) {
		t.Fatalf("%d frames, want %d", len(res.Moves), len(want))
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "message_stop" ||
		res.Turns[0].ResponseID != "msg_01Hq7cVtL2aZ" {
		t.Errorf("turns %+v", res.Turns)
	}
}

func TestMappingThinkingAndServerTool(t *testing.T) {
	body := sse(start,
		`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
		`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Search first."}}`,
		`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAh"}}`,
		`content_block_stop {"type":"content_block_stop","index":0}`,
		`content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}`,
		args(1, `{\"query\": \"tide times\"}`),
		`content_block_stop {"type":"content_block_stop","index":1}`,
		`content_block_start {"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}}`,
		`content_block_stop {"type":"content_block_stop","index":2}`,
		`message_delta {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":1024}}`,
		stop)
	res := dialecttest.Run(Dialect, body)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("stream raises %v", dialecttest.Lines(res.Alarms))
	}
	for i, w := range map[int]string{
		2:  `reasoning span=block key=0 text="Search first."`,
		3:  ``,
		6:  `tool-args key="srvtoolu_01" text="{\"query\": \"tide times\"}"`,
		8:  `seq key="content_block index" name="content block index" seq=2; span-open span=block key=2 name="web_search_tool_result"; tool-close key="srvtoolu_01" outcome=failed`,
		11: `terminal name="message_stop" code="max_tokens" outcome=incomplete`,
	} {
		if got := strings.Join(res.Moves[i], "; "); got != w {
			t.Errorf("frame %d moves %q, want %q", i, got, w)
		}
	}
	if res.Turns[0].Outcome != invariants.TurnIncomplete {
		t.Errorf("outcome %q", res.Turns[0].Outcome)
	}
}

func TestOutcomes(t *testing.T) {
	for reason, want := range map[string]string{"end_turn": "completed", "stop_sequence": "completed", "tool_use": "completed",
		"pause_turn": "completed", "max_tokens": "incomplete", "model_context_window_exceeded": "incomplete", "refusal": "refused"} {
		body := sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":"`+reason+`","stop_sequence":null},"usage":{"output_tokens":1}}`, stop)
		res := dialecttest.Run(Dialect, body)
		if got := res.Turns[0].Outcome; got != want {
			t.Errorf("%s: outcome %q, want %q", reason, got, want)
		}
		if n := dialecttest.Serious(res.Alarms); n != 0 {
			t.Errorf("%s: %v", reason, dialecttest.Lines(res.Alarms))
		}
	}
	res := dialecttest.Run(Dialect, sse(start, `error {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
	if res.Turns[0].Outcome != invariants.TurnFailed || len(res.Alarms) != 0 {
		t.Errorf("error: %+v %v", res.Turns, dialecttest.Lines(res.Alarms))
	}
}

func TestRules(t *testing.T) {
	overloaded := `error {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		// start-missing / start-duplicate
		{"no message_start", sse(textStart, text(0, "hi"), textStop, endTurn, stop), []string{"start-missing error 0"}},
		{"ping before message_start", sse(ping, start, endTurn, stop), nil},
		{"error before message_start", sse(overloaded), nil},
		{"second message_start", sse(start, start, endTurn, stop), []string{"start-duplicate error 1"}},
		// terminals
		{"no terminal", sse(start, textStart, text(0, "hi"), textStop, endTurn), []string{"terminal-missing error -"}},
		{"message_stop twice", sse(start, endTurn, stop, stop), []string{"after-terminal error 3", "terminal-duplicate error 3"}},
		{"error after message_stop", sse(start, endTurn, stop, overloaded), []string{"after-terminal error 3", "terminal-duplicate error 3"}},
		{"ping after message_stop", sse(start, endTurn, stop, ping), []string{"after-terminal error 3"}},
		{"error mid-block", sse(start, textStart, text(0, "par"), overloaded), []string{"span-unclosed warn 3"}},
		// stop-reason-missing
		{"message_stop without message_delta", sse(start, stop), []string{"stop-reason-missing warn 1"}},
		{"message_delta with null stop_reason", sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":2}}`, stop),
			[]string{"stop-reason-missing warn 2"}},
		{"stop_reason in an earlier delta", sse(start, endTurn, `message_delta {"type":"message_delta","delta":{},"usage":{"output_tokens":9}}`, stop), nil},
		{"unknown stop_reason", sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":"gave_up"},"usage":{"output_tokens":2}}`, stop),
			[]string{"event-unknown info 1"}},
		// spans
		{"delta without block", sse(start, text(0, "hi"), endTurn, stop), []string{"span-orphan error 1"}},
		{"signature without block", sse(start, `content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}}`, endTurn, stop),
			[]string{"span-orphan error 1"}},
		{"delta after its block stopped", sse(start, textStart, textStop, text(0, "late"), endTurn, stop), []string{"span-orphan error 3"}},
		{"stop without block", sse(start, textStop, endTurn, stop), []string{"span-orphan error 1"}},
		{"block left open", sse(start, textStart, text(0, "hi"), endTurn, stop), []string{"span-unclosed error 4"}},
		{"block left open at max_tokens", sse(start, textStart, text(0, "hi"), `message_delta {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5}}`, stop),
			[]string{"span-unclosed warn 4"}},
		{"block started twice", sse(start, textStart, textStart, textStop, endTurn, stop), []string{"span-duplicate error 2"}},
		{"text into a tool block", sse(start, toolStart, text(1, "oops"), toolStop, toolUse, stop),
			[]string{"seq-gap error 1", "span-mismatch error 2"}},
		{"input_json into a text block", sse(start, textStart, args(0, `{}`), textStop, endTurn, stop), []string{"span-mismatch error 2"}},
		{"thinking into a text block", sse(start, textStart, `content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"x"}}`, textStop, endTurn, stop),
			[]string{"span-mismatch error 2"}},
		{"citations into a text block", sse(start, textStart, `content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"x"}}}`, textStop, endTurn, stop), nil},
		{"unknown delta type", sse(start, textStart, `content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"hologram_delta"}}`, textStop, endTurn, stop),
			[]string{"event-unknown info 2"}},
		{"unknown block type", sse(start, `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"hologram"}}`, textStop, endTurn, stop), nil},
		// block index order
		{"first block at 1", sse(start, toolStart, toolStop, toolUse, stop), []string{"seq-gap error 1"}},
		{"index skips", sse(start, textStart, textStop, `content_block_start {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`,
			`content_block_stop {"type":"content_block_stop","index":2}`, endTurn, stop), []string{"seq-gap error 3"}},
		{"index reused", sse(start, textStart, textStop, textStart, textStop, endTurn, stop), []string{"seq-order error 3"}},
		// tools
		{"tool input not JSON", sse(start, textStart, textStop, toolStart, args(1, `{\"order_id\": A-1042}`), toolStop, toolUse, stop), []string{"tool-malformed error 5"}},
		{"tool input cut short", sse(start, textStart, textStop, toolStart, args(1, `{\"order_id\": \"A-10`), toolStop, toolUse, stop), []string{"tool-malformed error 7"}},
		{"tool input cut short by max_tokens", sse(start, textStart, textStop, toolStart, args(1, `{\"order_id\": \"A-10`), toolStop,
			`message_delta {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5}}`, stop), []string{"tool-unfinished warn 7"}},
		{"tool input broken before max_tokens", sse(start, textStart, textStop, toolStart, args(1, `{\"order_id\": A`), toolStop,
			`message_delta {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":5}}`, stop), []string{"tool-malformed error 5", "tool-unfinished warn 7"}},
		{"tool input cut short, then an error", sse(start, textStart, textStop, toolStart, args(1, `{\"order_id\": \"A-10`), toolStop, overloaded), []string{"tool-unfinished warn 6"}},
		{"tool input an array", sse(start, textStart, textStop, toolStart, args(1, `[1]`), toolStop, toolUse, stop), []string{"tool-malformed error 5"}},
		{"tool input empty", sse(start, textStart, textStop, toolStart, toolStop, toolUse, stop), nil},
		{"tool without id", sse(start, `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","name":"lookup_order","input":{}}}`, textStop, toolUse, stop),
			[]string{"tool-malformed error 1"}},
		{"tool without name", sse(start, `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","input":{}}}`, textStop, toolUse, stop),
			[]string{"tool-malformed error 1"}},
		{"tool id twice", sse(start, `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","name":"a","input":{}}}`, textStop,
			`content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_9","name":"a","input":{}}}`, toolStop, toolUse, stop),
			[]string{"tool-duplicate error 3"}},
		{"tool block never stopped", sse(start, textStart, textStop, toolStart, args(1, `{}`), toolUse, stop), []string{"span-unclosed error 6", "tool-unfinished error 6"}},
		{"server tool without result", sse(start, `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_2","name":"web_search","input":{}}}`,
			args(0, `{\"query\":\"q\"}`), textStop, `message_delta {"type":"message_delta","delta":{"stop_reason":"pause_turn"},"usage":{"output_tokens":5}}`, stop), nil},
		// payload-malformed
		{"message_start without id", sse(`message_start {"type":"message_start","message":{"type":"message","role":"assistant","content":[]}}`, endTurn, stop),
			[]string{"payload-malformed error 0"}},
		{"message_start without content", sse(`message_start {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","usage":{"input_tokens":1,"output_tokens":1}}}`, endTurn, stop),
			[]string{"payload-malformed error 0"}},
		{"message_start without usage", sse(`message_start {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`, endTurn, stop),
			[]string{"payload-malformed error 0"}},
		{"message_delta without usage", sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null}}`, stop),
			[]string{"payload-malformed error 1"}},
		{"message_delta with null usage", sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":null}`, stop),
			[]string{"payload-malformed error 1"}},
		{"message_delta with stop_details and container", sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":"cyber","explanation":"x"},"container":{"id":"c","expires_at":"2026-11-27T00:00:00Z"}},"usage":{"output_tokens":5,"output_tokens_details":{"reasoning_tokens":2}}}`, stop), nil},
		{"index a string", sse(start, `content_block_start {"type":"content_block_start","index":"0","content_block":{"type":"text","text":""}}`, endTurn, stop),
			[]string{"payload-malformed error 1"}},
		{"text_delta without text", sse(start, textStart, `content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}`, textStop, endTurn, stop),
			[]string{"payload-malformed error 2"}},
		{"error without message", sse(start, `error {"type":"error","error":{"type":"api_error"}}`), []string{"payload-malformed error 1"}},
		{"stop_reason a number", sse(start, `message_delta {"type":"message_delta","delta":{"stop_reason":7},"usage":{"output_tokens":5}}`, stop),
			[]string{"payload-malformed error 1", "stop-reason-missing warn 2"}},
		{"data without type", sse(start, endTurn) + "event: message_stop\ndata: {}\n\n", []string{"payload-malformed error 2"}},
		// SSE fields
		{"event name differs", strings.Replace(sse(start, endTurn, stop), "event: message_stop", "event: message_end", 1), []string{"sse-event-mismatch error 2"}},
		{"no event names", strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(sse(start, endTurn, stop), "event: message_start\n", ""), "event: message_delta\n", ""), "event: message_stop\n", ""),
			[]string{"sse-event-missing warn 0"}},
		{"unknown event", sse(start, `vibe_check {"type":"vibe_check"}`, endTurn, stop), []string{"event-unknown info 1"}},
		{"broken JSON", sse(start, `content_block_start {"type":"content_block_start","index":0,`, endTurn, stop), []string{"frame-json error 1"}},
		{"[DONE] is not Anthropic's", sse(start, endTurn, stop) + "data: [DONE]\n\n", []string{"event-unknown info 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			got := dialecttest.Lines(res.Alarms)
			want := append([]string(nil), tc.want...)
			if strings.Join(got, "|") != strings.Join(sorted(want), "|") {
				t.Errorf("got %v, want %v", got, want)
				for _, a := range res.Alarms {
					t.Logf("  %s %s %d: %s", a.Rule, a.Severity, a.Frame, a.Message)
				}
			}
		})
	}
}

func sorted(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		data string
		want invariants.Verdict
	}{
		{`{"type":"message_start","message":{"id":"msg_1"}}`, invariants.Yes},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}`, invariants.Yes},
		{`{"type":"message_stop"}`, invariants.Yes},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, invariants.Yes},
		{`{"type":"ping"}`, invariants.Maybe},
		// other dialects' frames
		{`{"type":"error","error":{"code":"RATE_LIMIT","message":"slow down"}}`, invariants.No},     // typed-lines
		{`{"type":"error","errorText":"boom"}`, invariants.No},                                      // ai-sdk-ui
		{`{"type":"error","code":"server_error","message":"x","sequence_number":3}`, invariants.No}, // openai-responses
		{`{"type":"text","delta":"a"}`, invariants.No},                                              // typed-lines
		{`{"type":"text-delta","id":"t1","delta":"a"}`, invariants.No},                              // ai-sdk-ui
		{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}`, invariants.No},              // ag-ui
		{`{"type":"response.output_text.delta","sequence_number":4,"delta":"a"}`, invariants.No},    // openai-responses
		{`{"object":"chat.completion.chunk","choices":[]}`, invariants.No},                          // openai-chat
		{`{"event_type":"text","version":"0.5","response_id":"r"}`, invariants.No},                  // pc3
		{`{"schema":"public_sse_v1","kind":"message.delta"}`, invariants.No},                        // public-sse-v1
		{`{"event":"stream.chunk","message_id":"m","seq_no":1}`, invariants.No},                     // chunk-framed
		{`{"type":"error","error":{"message":"no type"}}`, invariants.Maybe},                        // could be a sloppy proxy
		{`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`, invariants.Yes},
	} {
		ev := decode.Event{Data: []byte(tc.data), HasData: true, Raw: []byte("data: " + tc.data + "\n\n")}
		if got := sniff(decode.DecodeFrame(&ev, 0), invariants.Keys{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.data, got, tc.want)
		}
	}
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, sse(ping, ping)); got != nil {
		t.Errorf("two pings decided %s; they are ambiguous", got.Name())
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, sse(ping, `error {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)); got != Dialect {
		t.Errorf("ping + overloaded error detected as %v", got)
	}
}

// TestMutations: dropping, duplicating or moving one frame of a valid
// stream is reported (error or warn).
func TestMutations(t *testing.T) {
	blocks := dialecttest.Blocks(valid)
	for name, body := range dialecttest.TerminalMutations(valid, len(blocks)-1) {
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
	join := func(bs []string) string { return strings.Join(bs, "") }
	drop := func(i int) string { return join(append(append([]string(nil), blocks[:i]...), blocks[i+1:]...)) }
	dup := func(i int) string {
		return join(append(append(append([]string(nil), blocks[:i+1]...), blocks[i]), blocks[i+1:]...))
	}
	swap := func(i, j int) string {
		bs := append([]string(nil), blocks...)
		bs[i], bs[j] = bs[j], bs[i]
		return join(bs)
	}
	cases := map[string]string{
		"drop message_start":        drop(0),
		"drop text block start":     drop(1),
		"drop text block stop":      drop(4),
		"drop tool block start":     drop(5),
		"drop last input piece":     drop(8),
		"drop tool block stop":      drop(9),
		"drop message_delta":        drop(10),
		"duplicate message_start":   dup(0),
		"duplicate block start":     dup(1),
		"duplicate block stop":      dup(4),
		"duplicate tool start":      dup(5),
		"duplicate input piece":     dup(8),
		"duplicate tool stop":       dup(9),
		"delta before its start":    swap(1, 3),
		"stop before its delta":     swap(3, 4),
		"input pieces reordered":    swap(7, 8),
		"stop before message_delta": swap(10, 11),
		"message_start second":      swap(0, 1),
	}
	for name, body := range cases {
		if res := dialecttest.Run(Dialect, body); dialecttest.Serious(res.Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
}

func TestJSONScan(t *testing.T) {
	for _, tc := range []struct {
		pieces []string
		ok     bool
	}{
		{nil, true},
		{[]string{""}, true},
		{[]string{"  "}, true},
		{[]string{"{}"}, true},
		{[]string{`{"a"`, `: [1, -2.5e+3, true, `, `false, null, {"b": "c\"}"}], "u": "\u00e9\n"}`}, true},
		{[]string{`{"a": 0}`}, true},
		{[]string{`{"a": 01}`}, false},
		{[]string{`{"a": 1.}`}, false},
		{[]string{`{"a": tru}`}, false},
		{[]string{`{"a": "b}`}, false},
		{[]string{`{"a" "b"}`}, false},
		{[]string{`{"a": 1,}`}, false},
		{[]string{`{"a": [1, 2}`}, false},
		{[]string{`{"a": 1}`, `{}`}, false},
		{[]string{`[1]`}, false},
		{[]string{`"x"`}, false},
		{[]string{`{"a": 1`}, false},
		{[]string{"{\"a\": \"x\ny\"}"}, false},
		{[]string{strings.Repeat(`{"a":`, 300)}, true}, // too deep to check
	} {
		var s jsonScan
		for _, p := range tc.pieces {
			s.feedString(decode.AppendJSONString(nil, p))
		}
		if s.valid() != tc.ok {
			t.Errorf("%q: valid %v, want %v (%s)", tc.pieces, s.valid(), tc.ok, s.fault())
		}
	}
}

// TestMapAllocs: mapping a frame of a valid stream allocates nothing once
// the stream is under way (deltas, pings: the frames that dominate).
func TestMapAllocs(t *testing.T) {
	prefix := sse(start, textStart, `content_block_start {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01Rk3","name":"lookup_order","input":{}}}`)
	steady := sse(text(0, "more words"), ping, args(1, `{\"k\": \"v`), `content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location"}}}`)
	chk := Dialect.NewChecker(invariants.Options{})
	var dec decode.Decoder
	var events []decode.Event
	fr := decode.NewFramer()
	fr.Feed([]byte(prefix), func(ev *decode.Event) { chk.Observe(dec.Decode(ev, 0, false)) })
	fr.Feed([]byte(steady), func(ev *decode.Event) { events = append(events, ev.Clone()) })
	if len(events) != 4 {
		t.Fatalf("%d steady events", len(events))
	}
	allocs := testing.AllocsPerRun(50, func() {
		for i := range events {
			if as := chk.Observe(dec.Decode(&events[i], 0, false)); len(as) != 0 {
				t.Fatalf("steady frame %d raises %s: %s", i, as[0].Rule, as[0].Message)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per pass over %d frames, want 0", allocs, len(events))
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect, valid,
		sse(start, `error {"type":"error","error":{"type":1}}`),
		sse(start, `content_block_start {"type":"content_block_start","index":99999999999999999999,"content_block":[]}`, args(0, `\u00e9{`)),
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":-1,\"delta\":{\"type\":7}}\n\n")
}

// TestBlockVocabulary: every content block of the current SDKs
// (anthropic-sdk-python types/content_block.py and types/beta/
// beta_content_block.py) is read without an alarm: tool-use blocks open a
// call (server and MCP tools too), *_tool_result blocks close the call they
// name (failed when their content is an *_error), thinking is reasoning.
func TestBlockVocabulary(t *testing.T) {
	block := func(i int, cb string) []string {
		return []string{
			`content_block_start {"type":"content_block_start","index":` + itoa(int64(i)) + `,"content_block":` + cb + `}`,
			`content_block_stop {"type":"content_block_stop","index":` + itoa(int64(i)) + `}`,
		}
	}
	for _, tc := range []struct {
		name   string
		blocks [][]string
		want   string // the moves of the last block's start
	}{
		{"redacted_thinking", [][]string{block(0, `{"type":"redacted_thinking","data":"EmwKAhgBEgy3va"}`)}, `span-open span=block key=0 name="redacted_thinking"`},
		{"container_upload", [][]string{block(0, `{"type":"container_upload","file_id":"file_011CNha8iCJcU1wXNR6q4V8w"}`)}, `span-open span=block key=0 name="container_upload"`},
		{"fallback", [][]string{block(0, `{"type":"fallback","from":{"model":"claude-opus-4-7"},"to":{"model":"claude-sonnet-4-6"},"trigger":{"type":"refusal"}}`)}, `span-open span=block key=0 name="fallback"`},
		{"mcp_tool_use and mcp_tool_result", [][]string{
			block(0, `{"type":"mcp_tool_use","id":"mcptoolu_01","name":"ask_question","server_name":"deepwiki","input":{}}`),
			block(1, `{"type":"mcp_tool_result","tool_use_id":"mcptoolu_01","is_error":false,"content":[{"type":"text","text":"ok"}]}`)},
			`span-open span=block key=1 name="mcp_tool_result"; tool-close key="mcptoolu_01" outcome=completed`},
		{"code_execution_tool_result error", [][]string{
			block(0, `{"type":"server_tool_use","id":"srvtoolu_02","name":"code_execution","input":{}}`),
			block(1, `{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_02","content":{"type":"code_execution_tool_result_error","error_code":"unavailable"}}`)},
			`span-open span=block key=1 name="code_execution_tool_result"; tool-close key="srvtoolu_02" outcome=failed`},
		{"bash_code_execution_tool_result", [][]string{
			block(0, `{"type":"server_tool_use","id":"srvtoolu_03","name":"bash_code_execution","input":{}}`),
			block(1, `{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_03","content":{"type":"bash_code_execution_result","stdout":"4\n","stderr":"","return_code":0,"content":[]}}`)},
			`span-open span=block key=1 name="bash_code_execution_tool_result"; tool-close key="srvtoolu_03" outcome=completed`},
		{"web_fetch_tool_result", [][]string{
			block(0, `{"type":"server_tool_use","id":"srvtoolu_04","name":"web_fetch","input":{}}`),
			block(1, `{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_04","content":{"type":"web_fetch_result","url":"https://example.com","content":{"type":"document","source":{"type":"text","media_type":"text/plain","data":"x"}}}}`)},
			`span-open span=block key=1 name="web_fetch_tool_result"; tool-close key="srvtoolu_04" outcome=completed`},
		{"compaction", [][]string{{
			`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"compaction","content":null}}`,
			`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"Summary."}}`,
			`content_block_stop {"type":"content_block_stop","index":0}`}},
			`span-close span=block key=0`},
		{"citations_delta", [][]string{{
			`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","citations":[]}}`,
			`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"https://example.com","title":"x","encrypted_index":"Eo8B","cited_text":"x"}}}`,
			text(0, "cited"),
			`content_block_stop {"type":"content_block_stop","index":0}`}},
			`span-close span=block key=0`},
	} {
		evs := []string{start}
		for _, b := range tc.blocks {
			evs = append(evs, b...)
		}
		evs = append(evs, endTurn, stop)
		res := dialecttest.Run(Dialect, sse(evs...))
		if len(res.Alarms) != 0 {
			t.Errorf("%s: %v", tc.name, dialecttest.Lines(res.Alarms))
		}
		last := len(evs) - 4 // the last block's start (or, for one-block streams with deltas, its stop)
		if len(tc.blocks[len(tc.blocks)-1]) > 2 {
			last = len(evs) - 3
		}
		got := strings.Join(res.Moves[last], "; ")
		if i := strings.Index(got, "span-open"); i > 0 {
			got = got[i:]
		}
		if got != tc.want {
			t.Errorf("%s: frame %d moves %q, want %q", tc.name, last, got, tc.want)
		}
		if res.Turns[0].Outcome != invariants.TurnCompleted {
			t.Errorf("%s: outcome %q", tc.name, res.Turns[0].Outcome)
		}
	}
}
