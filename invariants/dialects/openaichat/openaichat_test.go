package openaichat

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// chunk builds one chat.completion.chunk frame of the test completion.
func chunk(choices string) string {
	return `data: {"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1735000000,"model":"gpt-4o-mini","system_fingerprint":"fp_t1","choices":[` + choices + "]}\n\n"
}

const done = "data: [DONE]\n\n"

var (
	roleChunk  = chunk(`{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}`)
	textChunk  = chunk(`{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}`)
	text2Chunk = chunk(`{"index":0,"delta":{"content":" there"},"logprobs":null,"finish_reason":null}`)
	stopChunk  = chunk(`{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}`)
	usageChunk = `data: {"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1735000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}` + "\n\n"
)

// valid: role, two text deltas, stop, the usage-only chunk, [DONE].
var valid = roleChunk + textChunk + text2Chunk + stopChunk + usageChunk + done

// validTools: one choice calls two tools in parallel.
var validTools = chunk(`{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}`) +
	chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}`) +
	chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":null}`) +
	chunk(`{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{}"}}]},"finish_reason":null}`) +
	chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) +
	done

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	want := []string{
		`turn-key key="chatcmpl-T1"`,
		`text key=0 text="Hello"`,
		`text key=0 text=" there"`,
		``,
		``,
		`terminal name="stop" outcome=completed`,
	}
	checkMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "stop" || res.Turns[0].ResponseID != "chatcmpl-T1" {
		t.Errorf("turns %+v", res.Turns)
	}
}

func TestMappingTools(t *testing.T) {
	res := dialecttest.Run(Dialect, validTools)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	checkMoves(t, res, []string{
		`turn-key key="chatcmpl-T1"`,
		`tool-open key="call_a" name="get_weather"`,
		`tool-args key="call_a" text="{\"city\":\"Oslo\"}"`,
		`tool-open key="call_b" name="get_time"; tool-args key="call_b" text="{}"`,
		`tool-ready key="call_a"; tool-ready key="call_b"`,
		`terminal name="tool_calls" outcome=completed`,
	})
}

func TestMappingOther(t *testing.T) {
	body := chunk(`{"index":0,"delta":{"role":"assistant","reasoning_content":"Think."},"finish_reason":null}`) +
		chunk(`{"index":0,"delta":{"refusal":"No."},"finish_reason":null},{"index":1,"delta":{"function_call":{"name":"lookup","arguments":"{}"}},"finish_reason":null}`) +
		chunk(`{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"function_call"}`) +
		`data: {"error":{"message":"late","type":"server_error","code":null}}` + "\n\n"
	res := dialecttest.Run(Dialect, body)
	checkMoves(t, res, []string{
		`turn-key key="chatcmpl-T1"; reasoning key=0 text="Think."`,
		`text key=0 name="refusal" text="No."; tool-open key="function_call/1" name="lookup"; tool-args key="function_call/1" text="{}"`,
		`tool-ready key="function_call/1"`,
		`terminal name="error" text="late" code="server_error" outcome=failed`,
	})
	// The error fails the completion, so the function call handed over at
	// frame 2 is left unanswered before a failure (the engine's warn).
	if got := strings.Join(dialecttest.Lines(res.Alarms), "|"); got != "tool-unfinished warn 3" {
		t.Errorf("alarms %s", got)
	}
}

func checkMoves(t *testing.T, res dialecttest.Result, want []string) {
	t.Helper()
	if len(res.Moves) != len(want) {
		t.Fatalf("%d frames of moves, want %d: %q", len(res.Moves), len(want), res.Moves)
	}
	dialecttest.WantMoves(t, res, want)
}

func TestRules(t *testing.T) {
	two := func(a, b string) string {
		return chunk(`{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null},{"index":1,"delta":{"role":"assistant","content":""},"finish_reason":null}`) +
			chunk(`{"index":0,"delta":{"content":"A"},"finish_reason":`+a+`},{"index":1,"delta":{"content":"B"},"finish_reason":`+b+`}`)
	}
	errFrame := `data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}` + "\n\n"
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"valid", valid, nil},
		{"valid without usage", roleChunk + textChunk + stopChunk + done, nil},
		{"two choices finish", two(`"stop"`, `"stop"`) + done, nil},
		{"one of two choices unfinished at [DONE]", two(`"stop"`, `null`) + done, []string{"terminal-missing error 2"}},
		{"both unfinished at [DONE]", two(`null`, `null`) + done, []string{"terminal-missing error 2", "terminal-missing error 2"}},
		{"reused tool id, choice unfinished at [DONE]", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}},{"index":1,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + done, []string{"terminal-missing error 2", "tool-duplicate error 1"}},
		{"unfinished tool call at [DONE]", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{"}}]},"finish_reason":null}`) + done, []string{"terminal-missing error 2"}},
		{"unfinished at EOF", roleChunk + textChunk, []string{"terminal-missing error -"}},
		{"finished, no [DONE]", roleChunk + textChunk + stopChunk + usageChunk, []string{"done-missing warn -"}},
		{"no choice at all before [DONE]", usageChunk + done, []string{"terminal-missing error 1"}},
		{"second finish_reason", roleChunk + stopChunk + chunk(`{"index":0,"delta":{},"finish_reason":"length"}`) + done, []string{"terminal-duplicate warn 2"}},
		{"same finish_reason again (OpenRouter's usage chunk)", roleChunk + stopChunk + chunk(`{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}`) + done, nil},
		{"same provider finish_reason again", roleChunk + chunk(`{"index":0,"delta":{},"finish_reason":"eos"}`) + chunk(`{"index":0,"delta":{},"finish_reason":"eos"}`) + done, nil},
		{"another provider finish_reason", roleChunk + chunk(`{"index":0,"delta":{},"finish_reason":"eos"}`) + chunk(`{"index":0,"delta":{},"finish_reason":"eot"}`) + done, []string{"terminal-duplicate warn 2"}},
		{"null finish_reason after stop", roleChunk + stopChunk + chunk(`{"index":0,"delta":{},"finish_reason":null}`) + done, nil},
		{"content after finish", roleChunk + stopChunk + textChunk + done, []string{"after-terminal error 2"}},
		{"frame after [DONE]", valid + textChunk, []string{"after-terminal error 6"}},
		{"error object ends the stream", roleChunk + textChunk + errFrame, nil},
		{"vLLM error object", roleChunk + textChunk + `data: {"object":"error","message":"out of KV cache","type":"InternalServerError","param":null,"code":500}` + "\n\n" + done, nil},
		{"frame after error", roleChunk + errFrame + textChunk, []string{"after-terminal error 2"}},
		{"two errors", roleChunk + errFrame + errFrame, []string{"after-terminal error 2"}}, // the client threw at the first: one alarm
		{"id switches and back", roleChunk + strings.Replace(textChunk, "chatcmpl-T1", "chatcmpl-T2", 1) + stopChunk + done, []string{"envelope-drift info 1", "envelope-drift info 2"}},
		{"id switches once", roleChunk + strings.ReplaceAll(textChunk+stopChunk, "chatcmpl-T1", "chatcmpl-T2") + done, []string{"envelope-drift info 1"}},
		{"a second completion after the first finished", roleChunk + stopChunk + strings.ReplaceAll(textChunk+stopChunk, "chatcmpl-T1", "chatcmpl-T2") + done, []string{"envelope-drift info 2"}},
		{"created re-stamped", roleChunk + strings.Replace(textChunk, "1735000000", "1735000001", 1) + stopChunk + done, nil},
		{"model switches", roleChunk + strings.Replace(textChunk, "gpt-4o-mini", "gpt-4o", 1) + stopChunk + done, []string{"envelope-drift info 1", "envelope-drift info 2"}},
		{"Azure empty envelope is no drift", roleChunk + `data: {"id":"","object":"","created":0,"model":"","choices":[{"index":0,"finish_reason":null,"content_filter_results":{}}]}` + "\n\n" + stopChunk + done, []string{"flavor-guess info 1"}},
		{"tool without id", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-malformed error 3"}},
		{"tool without name", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-malformed error 2"}},
		{"tool without type", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-malformed error 2"}},
		{"custom tool call", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"custom","custom":{"name":"f","input":"x"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, nil},
		{"first tool index 1", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-malformed error 1"}},
		{"tool index skips", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_2","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-malformed error 2"}},
		{"tool indexes per choice", roleChunk + chunk(`{"index":1,"delta":{"role":"assistant"},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"call_2","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"},{"index":1,"delta":{},"finish_reason":"tool_calls"}`) + done, nil},
		{"no role", textChunk + stopChunk + done, []string{"role-missing error 2"}},
		{"no role at EOF", textChunk + stopChunk, []string{"done-missing warn -", "role-missing error -"}},
		{"role on a later delta", textChunk + roleChunk + stopChunk + done, nil},
		{"no role, choice unfinished", textChunk + done, []string{"terminal-missing error 1"}},
		{"second choice without role", roleChunk + chunk(`{"index":1,"delta":{"content":"x"},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}`) + done, []string{"role-missing error 3"}},
		{"audio ends on expires_at without finish_reason", chunk(`{"index":0,"delta":{"audio":{"transcript":"hel"}},"finish_reason":null}`) +
			chunk(`{"index":0,"delta":{"role":"assistant","content":null,"refusal":null,"audio":{"id":"audio_1","data":"abc"}},"finish_reason":null}`) +
			chunk(`{"index":0,"delta":{"audio":{"transcript":"lo","data":"def"}},"finish_reason":null}`) +
			chunk(`{"index":0,"delta":{"audio":{"expires_at":1764205200}}}`) + done, nil},
		{"audio continues after expires_at", chunk(`{"index":0,"delta":{"role":"assistant","audio":{"id":"audio_1","data":"abc","transcript":"hello"}},"finish_reason":null}`) +
			chunk(`{"index":0,"delta":{"audio":{"expires_at":1764205200}}}`) +
			chunk(`{"index":0,"delta":{"audio":{"data":"def"}},"finish_reason":null}`) + done, []string{"terminal-missing error 3"}},
		{"audio without transcript ends on expires_at", chunk(`{"index":0,"delta":{"role":"assistant","audio":{"id":"audio_1","data":"abc"}},"finish_reason":null}`) +
			chunk(`{"index":0,"delta":{"audio":{"expires_at":1764205200}}}`) + done, []string{"terminal-missing error 2"}},
		{"tool name on a later delta", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, nil},
		{"tool id on a later delta", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, nil},
		{"tool without name cut by length", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"arguments":"{"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"length"}`) + done, []string{"tool-unfinished warn 3"}},
		{"tool type on a later delta", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, nil},
		{"tool renamed", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"g","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-mismatch error 2"}},
		{"tool id repeated unchanged", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, nil},
		{"tool id changes", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_2","function":{"arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-mismatch error 2"}},
		{"tool id reused by another index", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}},{"index":1,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`) + done, []string{"tool-duplicate error 1"}},
		{"tool cut by length", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a"}}]},"finish_reason":null}`) + chunk(`{"index":0,"delta":{},"finish_reason":"length"}`) + done, []string{"tool-unfinished warn 3"}},
		{"tool with forced tool_choice ends on stop", roleChunk + chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}`) + stopChunk + done, nil},
		{"choices not an array", `data: {"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1735000000,"model":"m","choices":{}}` + "\n\n" + done, []string{"payload-malformed error 0", "terminal-missing error 1"}},
		{"choice index missing", roleChunk + chunk(`{"delta":{"content":"x"},"finish_reason":null}`) + stopChunk + done, []string{"payload-malformed error 1"}},
		{"content not a string", roleChunk + chunk(`{"index":0,"delta":{"content":42},"finish_reason":null}`) + stopChunk + done, []string{"payload-malformed error 1"}},
		{"finish_reason not a string", roleChunk + chunk(`{"index":0,"delta":{},"finish_reason":1}`) + stopChunk + done, []string{"payload-malformed error 1"}},
		{"created not an integer", roleChunk + strings.Replace(textChunk, "1735000000", `"soon"`, 1) + stopChunk + done, []string{"payload-malformed error 1"}},
		{"unknown object", roleChunk + `data: {"object":"chat.completion","id":"x"}` + "\n\n" + stopChunk + done, []string{"event-unknown info 1"}},
		{"not JSON", roleChunk + "data: {oops\n\n" + stopChunk + done, []string{"frame-json error 1"}},
		{"content_filter is refused", roleChunk + chunk(`{"index":0,"delta":{},"finish_reason":"content_filter"}`) + done, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dialecttest.Lines(dialecttest.Run(Dialect, tc.body).Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOutcomes(t *testing.T) {
	for reason, want := range map[string]string{"stop": "completed", "length": "incomplete", "content_filter": "refused", "tool_calls": "completed", "error": "failed", "eos": "completed", "insufficient_system_resource": "failed"} {
		res := dialecttest.Run(Dialect, roleChunk+chunk(`{"index":0,"delta":{},"finish_reason":"`+reason+`"}`)+done)
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want {
			t.Errorf("%s: turns %+v, want outcome %s", reason, res.Turns, want)
		}
	}
	// The worst choice decides: one stop and one length is incomplete.
	res := dialecttest.Run(Dialect, chunk(`{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"length"}`)+done)
	if res.Turns[0].Outcome != "incomplete" || res.Turns[0].TerminalEvent != "length" {
		t.Errorf("two choices: %+v", res.Turns)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		data string
		want invariants.Verdict
	}{
		{`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[]}`, invariants.Yes},
		{`{"id":"","object":"","created":0,"model":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}],"choices":[]}`, invariants.Yes},
		{`{"id":"","object":"","created":0,"model":"","choices":[{"index":0,"finish_reason":null,"content_filter_results":{}}]}`, invariants.Maybe},
		{`{"error":{"message":"overloaded","type":"server_error"}}`, invariants.Maybe},
		{`{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}`, invariants.Maybe},
		{`{"type":"error","errorText":"x"}`, invariants.No},
		{`{"type":"ping"}`, invariants.No},
		{`{"type":"response.created","sequence_number":0,"response":{}}`, invariants.No},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, invariants.No},
		{`{"event_type":"text","version":"0.5","response_id":"r"}`, invariants.No},
		{`{"schema":"public_sse_v1","kind":"error","error":{}}`, invariants.No},
		{`{"event":"stream.begin","message_id":"m","seq_no":0}`, invariants.No},
		{`{"object":"chat.completion","choices":[]}`, invariants.No},
		{`{"choices":[]}`, invariants.No},
		{`{"id":"x","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}`, invariants.Yes},
		{`{"choices":[{"index":0,"delta":"Hi"}]}`, invariants.No},
		{`{"id":"p","model":"sonar","created":1,"object":"chat.completion.done","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}]}`, invariants.Yes},
	} {
		f := decode.DecodeFrame(&decode.Event{Data: []byte(tc.data), Raw: []byte(tc.data)}, 0)
		if got := sniff(f, invariants.Keys{}); got != tc.want {
			t.Errorf("sniff(%s) = %d, want %d", tc.data, got, tc.want)
		}
	}
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, `data: {"error":{"message":"x"}}`+"\n\n"); got != nil {
		t.Errorf("a bare error object decided %s; it is ambiguous", got.Name())
	}
	for name, body := range map[string]string{"openai": valid, "tools": validTools} {
		d = invariants.NewDetector([]invariants.Dialect{Dialect})
		if got := dialecttest.Detect(d, body); got != Dialect {
			t.Errorf("%s stream detected as %v", name, got)
		}
	}
}

// TestMutations: dropping, duplicating or moving one frame of a valid
// stream is reported.
func TestMutations(t *testing.T) {
	for _, base := range []struct {
		name, body string
		term       int
	}{{"text", valid, 3}, {"tools", validTools, 4}} {
		muts := dialecttest.TerminalMutations(base.body, base.term)
		// The same finish_reason twice is no fault: the SDKs overwrite it
		// (OpenRouter repeats it on its usage chunk).
		delete(muts, "duplicate terminal")
		for name, body := range muts {
			if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
				t.Errorf("%s: %s: no alarm", base.name, name)
			}
		}
		bs := dialecttest.Blocks(base.body)
		last := len(bs) - 1 // [DONE]
		for name, body := range map[string]string{
			"drop [DONE]":                    strings.Join(bs[:last], ""),
			"[DONE] before finish":           strings.Join(bs[:base.term], "") + bs[last] + strings.Join(bs[base.term:last], ""),
			"duplicate [DONE]":               base.body + bs[last],
			"duplicate a delta after finish": strings.Join(bs[:last], "") + bs[1] + bs[last],
		} {
			if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
				t.Errorf("%s: %s: no alarm", base.name, name)
			}
		}
	}
	// Dropping the tool's first delta leaves its arguments without an id.
	bs := dialecttest.Blocks(validTools)
	body := bs[0] + strings.Join(bs[2:], "")
	if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
		t.Error("drop the tool's opening delta: no alarm")
	}
}

// TestNoAllocs: mapping a valid chunk allocates nothing once warm.
func TestNoAllocs(t *testing.T) {
	data := []byte(`{"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1735000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hello","tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}]}`)
	open := []byte(`{"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1735000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`)
	chk := Dialect.NewChecker(invariantsOptions())
	of := decode.DecodeFrame(&decode.Event{Data: open, Raw: open}, 0)
	chk.Observe(of)
	f := decode.DecodeFrame(&decode.Event{Data: data, Raw: data}, 1)
	chk.Observe(f)
	p := newMapper().(*mapper)
	var m invariants.Mapping
	p.Map(of, &m)
	n := testing.AllocsPerRun(100, func() {
		m.Moves = m.Moves[:0]
		p.Map(f, &m)
	})
	if n != 0 {
		t.Errorf("Map allocates %.1f times per valid chunk", n)
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect, valid, validTools,
		chunk(`{"index":0,"delta":{"tool_calls":[{"index":"x","id":1}],"content":[]},"finish_reason":7}`)+`data: {"error":"boom"}`+"\n\n",
		`data: {"id":"","object":"","created":0,"model":"","prompt_filter_results":[],"choices":[]}`+"\n\n"+chunk(`{"index":99999999999999999999,"delta":{"function_call":{"arguments":"{"}}}`))
}

func invariantsOptions() invariants.Options { return invariants.Options{} }
