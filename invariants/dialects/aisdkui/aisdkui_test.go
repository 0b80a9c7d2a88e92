package aisdkui

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// sse joins chunks into a data-only SSE body, as JsonToSseTransformStream
// writes it.
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String()
}

// valid is a two-step tool roundtrip as streamText's toUIMessageStream
// sends it.
var valid = sse(
	`{"type":"start","messageId":"msg_5Qx"}`,
	`{"type":"start-step"}`,
	`{"type":"tool-input-start","toolCallId":"call_1","toolName":"getWeather"}`,
	`{"type":"tool-input-delta","toolCallId":"call_1","inputTextDelta":"{\"city\":"}`,
	`{"type":"tool-input-delta","toolCallId":"call_1","inputTextDelta":"\"Paris\"}"}`,
	`{"type":"tool-input-available","toolCallId":"call_1","toolName":"getWeather","input":{"city":"Paris"}}`,
	`{"type":"tool-output-available","toolCallId":"call_1","output":{"temp":18}}`,
	`{"type":"finish-step"}`,
	`{"type":"start-step"}`,
	`{"type":"reasoning-start","id":"r1"}`,
	`{"type":"reasoning-delta","id":"r1","delta":"Mild."}`,
	`{"type":"reasoning-end","id":"r1"}`,
	`{"type":"text-start","id":"t1"}`,
	`{"type":"text-delta","id":"t1","delta":"It is 18°C in Paris."}`,
	`{"type":"text-end","id":"t1"}`,
	`{"type":"finish-step"}`,
	`{"type":"finish","finishReason":"stop"}`,
	`[DONE]`,
)

const validFinish = 16 // the finish frame of valid

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 || len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	want := []string{
		`turn-start key="msg_5Qx"`,
		`span-open span=step key="step" name="start-step"`,
		`tool-open key="call_1" name="getWeather"`,
		`tool-args key="call_1" text="{\"city\":"`,
		`tool-args key="call_1" text="\"Paris\"}"`,
		`tool-ready key="call_1" name="getWeather"`,
		`tool-close key="call_1" outcome=completed`,
		`span-close span=step key="step"`,
		`span-open span=step key="step" name="start-step"`,
		`span-open span=reasoning key="r1" name="reasoning-start"`,
		`reasoning span=reasoning key="r1" text="Mild."`,
		`span-close span=reasoning key="r1"`,
		`span-open span=part key="t1" name="text-start"`,
		`text span=part key="t1" text="It is 18°C in Paris."`,
		`span-close span=part key="t1"`,
		`span-close span=step key="step"`,
		`terminal name="finish" code="stop" outcome=completed`,
		``,
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "finish" || res.Turns[0].ResponseID != "msg_5Qx" {
		t.Errorf("turns %+v", res.Turns)
	}
}

func TestMappingParts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		chunk string
		want  string
	}{
		{"error part", `{"type":"error","errorText":"Rate limited"}`, `error text="Rate limited"`},
		{"data part", `{"type":"data-weather","id":"w1","data":{"t":1},"transient":true}`, ``},
		{"source", `{"type":"source-url","sourceId":"s1","url":"https://example.com"}`, ``},
		{"file", `{"type":"file","url":"https://example.com/a.png","mediaType":"image/png"}`, ``},
		{"custom", `{"type":"custom","kind":"openai.compaction"}`, ``},
		{"metadata", `{"type":"message-metadata","messageMetadata":{"model":"m"}}`, ``},
		{"abort", `{"type":"abort","reason":"user cancelled"}`, `terminal name="abort" text="user cancelled" outcome=cancelled`},
		{"finish error", `{"type":"finish","finishReason":"error"}`, `terminal name="finish" code="error" outcome=failed`},
		{"finish length", `{"type":"finish","finishReason":"length"}`, `terminal name="finish" code="length" outcome=incomplete`},
		{"finish filter", `{"type":"finish","finishReason":"content-filter"}`, `terminal name="finish" code="content-filter" outcome=refused`},
		{"finish bare", `{"type":"finish"}`, `terminal name="finish" outcome=completed`},
		{"tool input error alone", `{"type":"tool-input-error","toolCallId":"c","toolName":"x","input":"{","errorText":"bad"}`,
			`tool-open key="c" name="x"; tool-close key="c" text="bad" outcome=failed; error text="bad"`},
		{"tool input available alone", `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`,
			`tool-open key="c" name="x"; tool-ready key="c"`},
		{"continuation output", `{"type":"tool-output-denied","toolCallId":"c"}`, `tool-open key="c"; tool-close key="c" outcome=cancelled`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, sse(`{"type":"start"}`, tc.chunk))
			if got := strings.Join(res.Moves[1], "; "); got != tc.want {
				t.Errorf("moves %q, want %q", got, tc.want)
			}
		})
	}
}

// finishStep: parts still open at finish-step close before the step.
func TestFinishStepClosesParts(t *testing.T) {
	res := dialecttest.Run(Dialect, sse(`{"type":"start-step"}`, `{"type":"text-start","id":"a"}`,
		`{"type":"reasoning-start","id":"b"}`, `{"type":"finish-step"}`, `{"type":"finish"}`, `[DONE]`))
	if len(res.Alarms) != 0 {
		t.Fatalf("alarms %v", dialecttest.Lines(res.Alarms))
	}
	want := `span-close span=part key="a"; span-close span=reasoning key="b"; span-close span=step key="step"`
	if got := strings.Join(res.Moves[3], "; "); got != want {
		t.Errorf("finish-step moves %q, want %q", got, want)
	}
}

func TestRules(t *testing.T) {
	start := `{"type":"start"}`
	step := `{"type":"start-step"}`
	endStep := `{"type":"finish-step"}`
	fin := `{"type":"finish","finishReason":"stop"}`
	for _, tc := range []struct {
		name   string
		chunks []string
		want   []string
	}{
		// terminal and [DONE]
		{"complete", []string{start, fin, `[DONE]`}, nil},
		// The body just ends: useChat shows the message as done (warn).
		{"no terminal", []string{start, `{"type":"text-start","id":"a"}`}, []string{"span-unclosed warn -", "terminal-missing warn -"}},
		// [DONE] without finish: useChat takes the message as done (one
		// alarm, warn); an error chunk before it was the end (failed).
		{"done before finish", []string{start, `[DONE]`}, []string{"terminal-missing warn 1"}},
		{"done before finish, part open", []string{start, `{"type":"text-start","id":"a"}`, `[DONE]`}, []string{"span-unclosed warn -", "terminal-missing warn 2"}},
		{"done before finish, chunk after", []string{start, `[DONE]`, `{"type":"data-x","data":1}`}, []string{"after-terminal error 2", "terminal-missing warn 1"}},
		{"error then done", []string{start, `{"type":"error","errorText":"Rate limited"}`, `[DONE]`}, nil},
		{"error then done, step open", []string{start, step, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"error","errorText":"e"}`, `[DONE]`}, []string{"tool-unfinished warn 4"}},
		{"error then done, text open", []string{start, step, `{"type":"text-start","id":"a"}`, `{"type":"text-delta","id":"a","delta":"x"}`, `{"type":"error","errorText":"e"}`, `[DONE]`}, nil},
		{"error then eof", []string{start, `{"type":"error","errorText":"Rate limited"}`}, []string{"done-missing warn -"}},
		{"error, content, done", []string{start, `{"type":"error","errorText":"e"}`, `{"type":"data-x","data":1}`, `[DONE]`}, nil},
		{"error after finish", []string{start, fin, `{"type":"error","errorText":"e"}`, `[DONE]`}, []string{"after-terminal error 2"}},
		{"done first", []string{`[DONE]`}, []string{"done-early error 0"}}, // one defect, one alarm
		{"no done", []string{start, fin}, []string{"done-missing warn -"}},
		{"abort then done", []string{start, `{"type":"abort"}`, `[DONE]`}, nil},
		// After the terminal the client goes on applying chunks to the same
		// message (two streams merged without sendStart / sendFinish:
		// false): one after-terminal warn for the lot.
		{"two finishes", []string{start, fin, fin, `[DONE]`}, []string{"terminal-duplicate warn 2"}},
		{"abort, then finish", []string{start, `{"type":"abort"}`, fin, `[DONE]`}, []string{"terminal-duplicate warn 2"}},
		{"part after finish", []string{start, fin, `{"type":"data-x","data":1}`, `[DONE]`}, []string{"after-terminal warn 2"}},
		{"merged without sendStart/sendFinish false", []string{start, step, `{"type":"text-start","id":"a"}`, `{"type":"text-delta","id":"a","delta":"one"}`, `{"type":"text-end","id":"a"}`, endStep, fin,
			start, step, `{"type":"text-start","id":"a"}`, `{"type":"text-delta","id":"a","delta":"two"}`, `{"type":"text-end","id":"a"}`, endStep, fin, `[DONE]`}, []string{"after-terminal warn 7"}},
		{"merged, the second start renames the message", []string{`{"type":"start","messageId":"m1"}`, fin, `{"type":"start","messageId":"m2"}`, fin, `[DONE]`}, []string{"after-terminal warn 2", "start-duplicate error 2"}},
		{"after finish, a delta the client cannot place", []string{start, fin, `{"type":"text-delta","id":"z","delta":"x"}`, `[DONE]`}, []string{"after-terminal warn 2", "span-orphan error 2"}},
		{"after finish, an output for an unknown call", []string{start, step, endStep, fin, `{"type":"tool-output-available","toolCallId":"c","output":1}`, `[DONE]`}, []string{"after-terminal warn 4", "tool-orphan error 4"}},
		{"after finish, a delta for a part still open", []string{start, `{"type":"text-start","id":"a"}`, fin, `{"type":"text-delta","id":"a","delta":"x"}`, `[DONE]`}, []string{"after-terminal warn 3", "span-unclosed error 2"}},
		{"metadata after finish", []string{start, fin, `{"type":"message-metadata","messageMetadata":{"a":1}}`, `[DONE]`}, nil},
		{"metadata after done", []string{start, fin, `[DONE]`, `{"type":"message-metadata","messageMetadata":{}}`}, []string{"after-terminal error 3"}},
		// v5 shapes: one legacy-shape, the rest read as v5
		{"v5 unknown finish reason", []string{start, `{"type":"finish","finishReason":"unknown"}`, `[DONE]`}, []string{"legacy-shape info 1"}},
		{"v5.0 reasoning chunks", []string{start, `{"type":"reasoning","text":"a"}`, `{"type":"reasoning-part-finish"}`, `{"type":"reasoning","text":"b"}`, fin, `[DONE]`}, []string{"legacy-shape info 1"}},
		{"v5.0 reasoning without text", []string{start, `{"type":"reasoning"}`, fin, `[DONE]`}, []string{"legacy-shape info 1", "payload-malformed error 1"}},
		{"finish reason outside every enum", []string{start, `{"type":"finish","finishReason":"done"}`, `[DONE]`}, []string{"payload-malformed error 1"}},
		// start
		{"no start", []string{step, endStep, fin, `[DONE]`}, nil},
		{"start after data", []string{`{"type":"data-status","data":"x"}`, `{"type":"start","messageId":"m"}`, fin, `[DONE]`}, nil},
		// A second start that names another message makes useChat push the
		// message again (it shows twice); one that keeps the id is harmless.
		{"second start", []string{start, `{"type":"start","messageId":"m"}`, fin, `[DONE]`}, []string{"start-duplicate error 1"}},
		{"second start, same id", []string{`{"type":"start","messageId":"m"}`, step, `{"type":"start","messageId":"m"}`, endStep, fin, `[DONE]`}, []string{"start-duplicate warn 2"}},
		{"second start, no id", []string{`{"type":"start","messageId":"m"}`, `{"type":"start"}`, fin, `[DONE]`}, []string{"start-duplicate warn 1"}},
		// spans
		{"delta without start", []string{start, `{"type":"text-delta","id":"a","delta":"x"}`, fin, `[DONE]`}, []string{"span-orphan error 1"}},
		{"end without start", []string{start, `{"type":"reasoning-end","id":"a"}`, fin, `[DONE]`}, []string{"span-orphan error 1"}},
		{"text delta into reasoning", []string{start, `{"type":"reasoning-start","id":"a"}`, `{"type":"text-delta","id":"a","delta":"x"}`, `{"type":"reasoning-end","id":"a"}`, fin, `[DONE]`}, []string{"span-orphan error 2"}},
		{"delta after finish-step", []string{start, step, `{"type":"text-start","id":"a"}`, endStep, `{"type":"text-delta","id":"a","delta":"x"}`, fin, `[DONE]`}, []string{"span-orphan error 4"}},
		{"id reused in next step", []string{start, step, `{"type":"text-start","id":"0"}`, `{"type":"text-end","id":"0"}`, endStep, step, `{"type":"text-start","id":"0"}`, `{"type":"text-end","id":"0"}`, endStep, fin, `[DONE]`}, nil},
		{"open twice", []string{start, `{"type":"text-start","id":"a"}`, `{"type":"text-start","id":"a"}`, `{"type":"text-end","id":"a"}`, fin, `[DONE]`}, []string{"span-duplicate error 2"}},
		{"nested step", []string{start, step, step, endStep, fin, `[DONE]`}, []string{"span-duplicate error 2"}},
		// pydantic-ai's adapter, a run that failed before the model
		// answered (test_vercel_ai.py
		// test_run_stream_with_deferred_tool_results_no_model_response):
		// the client only drops its (no) active parts.
		{"finish-step before any step", []string{start, `{"type":"error","errorText":"e"}`, endStep, `{"type":"finish","finishReason":"error"}`, `[DONE]`}, nil},
		{"finish-step alone", []string{start, endStep, fin, `[DONE]`}, nil},
		// After an earlier step, a start-step is missing: the message lacks
		// that step's step-start boundary (warn).
		{"finish-step without its start-step", []string{start, step, endStep, `{"type":"text-start","id":"a"}`, `{"type":"text-end","id":"a"}`, endStep, fin, `[DONE]`}, []string{"span-orphan warn 5"}},
		{"open at finish", []string{start, `{"type":"text-start","id":"a"}`, fin, `[DONE]`}, []string{"span-unclosed error 2"}},
		// finish without finish-step: the client keeps no step state (warn,
		// once, whatever the outcome).
		{"step open at finish", []string{start, step, `{"type":"text-start","id":"a"}`, `{"type":"text-end","id":"a"}`, fin, `[DONE]`}, []string{"span-unclosed warn 4"}},
		{"open at error finish", []string{start, step, `{"type":"error","errorText":"x"}`, `{"type":"finish","finishReason":"error"}`, `[DONE]`}, []string{"span-unclosed warn 3"}},
		// streamText's abort mid-step (stream-text.ts: abort, then close):
		// the step and its parts end with it, no alarm; pydantic-ai's
		// adapter then sends finish-step (test_run_stream_cancelled).
		{"abort mid-text", []string{start, step, `{"type":"text-start","id":"a"}`, `{"type":"text-delta","id":"a","delta":"x"}`, `{"type":"abort","reason":"The operation was aborted."}`, `[DONE]`}, nil},
		{"abort, then finish-step", []string{start, step, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-output-available","toolCallId":"c","output":1}`, `{"type":"abort","reason":"The agent run was cancelled."}`, endStep, `[DONE]`}, nil},
		{"abort, then text", []string{start, step, `{"type":"abort"}`, `{"type":"text-start","id":"a"}`, `[DONE]`}, []string{"after-terminal warn 3"}},
		// abort resets nothing in the client: a part open at abort still
		// takes deltas (after-terminal warn, no orphan).
		{"abort, then a delta for the open part", []string{start, step, `{"type":"text-start","id":"a"}`, `{"type":"abort"}`, `{"type":"text-delta","id":"a","delta":"x"}`, `[DONE]`}, []string{"after-terminal warn 4"}},
		{"finish, then finish-step", []string{start, step, endStep, fin, endStep, `[DONE]`}, []string{"after-terminal warn 4"}},
		{"abort with a call streaming its input", []string{start, step, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"abort"}`, `[DONE]`}, []string{"tool-unfinished warn 3"}},
		// tools
		{"delta without start", []string{start, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{"}`, fin, `[DONE]`}, []string{"tool-orphan error 1"}},
		{"delta after available-only", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"{"}`, fin, `[DONE]`}, []string{"tool-orphan error 2"}},
		{"output without call", []string{start, step, `{"type":"tool-output-available","toolCallId":"c","output":1}`, endStep, fin, `[DONE]`}, []string{"tool-orphan error 2"}},
		{"output without call, after text", []string{start, `{"type":"text-start","id":"a"}`, `{"type":"text-end","id":"a"}`, `{"type":"tool-output-available","toolCallId":"c","output":1}`, fin, `[DONE]`}, []string{"tool-orphan error 3"}},
		// A continuation's preamble re-announces an approved call before
		// its output, and answers a denied one it does not re-announce
		// (pydantic-ai test_vercel_ai.py
		// test_sdk_version_5_does_not_emit_approval_chunks, sdk_version=6):
		// both calls are in the message the client holds.
		{"continuation: re-announced call, then a denied one", []string{start,
			`{"type":"tool-input-available","toolCallId":"ok","toolName":"del","input":{}}`,
			`{"type":"tool-output-denied","toolCallId":"no"}`,
			`{"type":"tool-output-available","toolCallId":"ok","output":1}`,
			step, `{"type":"text-start","id":"a"}`, `{"type":"text-end","id":"a"}`, endStep, fin, `[DONE]`}, nil},
		{"second output", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-output-available","toolCallId":"c","output":1}`, `{"type":"tool-output-error","toolCallId":"c","errorText":"x"}`, fin, `[DONE]`}, []string{"tool-orphan error 3"}},
		{"approval without call", []string{start, step, `{"type":"tool-approval-request","approvalId":"a","toolCallId":"c"}`, endStep, fin, `[DONE]`}, []string{"tool-orphan error 2"}},
		{"invalid call: input error, then output error", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-error","toolCallId":"c","toolName":"x","input":"{","errorText":"e"}`, `{"type":"tool-output-error","toolCallId":"c","errorText":"e"}`, fin, `[DONE]`}, nil},
		{"invalid call: output error twice", []string{start, `{"type":"tool-input-error","toolCallId":"c","toolName":"x","input":"{","errorText":"e"}`, `{"type":"tool-output-error","toolCallId":"c","errorText":"e"}`, `{"type":"tool-output-error","toolCallId":"c","errorText":"e"}`, fin, `[DONE]`}, []string{"tool-orphan error 3"}},
		{"started never available", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, fin, `[DONE]`}, []string{"tool-unfinished error 2"}},
		{"started never available, error", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"finish","finishReason":"error"}`, `[DONE]`}, []string{"tool-unfinished warn 2"}},
		{"client-side tool", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"finish","finishReason":"tool-calls"}`, `[DONE]`}, nil},
		{"client-side tool, abort", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"abort"}`, `[DONE]`}, nil},
		{"awaiting approval", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-approval-request","approvalId":"a","toolCallId":"c"}`, fin, `[DONE]`}, nil},
		{"preliminary then final", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-output-available","toolCallId":"c","output":1,"preliminary":true}`, `{"type":"tool-output-available","toolCallId":"c","output":2}`, fin, `[DONE]`}, nil},
		{"start twice", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-error","toolCallId":"c","toolName":"x","errorText":"e"}`, fin, `[DONE]`}, []string{"tool-duplicate error 2"}},
		{"id reused", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-output-available","toolCallId":"c","output":1}`, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, `{"type":"tool-output-available","toolCallId":"c","output":1}`, fin, `[DONE]`}, []string{"tool-duplicate error 3", "tool-orphan error 4"}},
		{"name changes at available", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-available","toolCallId":"c","toolName":"y","input":{}}`, fin, `[DONE]`}, []string{"tool-mismatch error 2"}},
		// The client looks the part up by kind (dynamic-tool or tool-NAME):
		// a dynamic flag that changes makes a second part.
		{"dynamic changes at available", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x","dynamic":true}`, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{}}`, fin, `[DONE]`}, []string{"tool-mismatch error 2"}},
		{"dynamic both times", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x","dynamic":true}`, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{},"dynamic":true}`, fin, `[DONE]`}, nil},
		{"dynamic false spelled out", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{},"dynamic":false}`, fin, `[DONE]`}, nil},
		{"name changes at input error", []string{start, `{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, `{"type":"tool-input-error","toolCallId":"c","toolName":"y","errorText":"e"}`, fin, `[DONE]`}, []string{"tool-mismatch error 2"}},
		{"empty id", []string{start, `{"type":"tool-input-start","toolCallId":"","toolName":"x"}`, fin, `[DONE]`}, []string{"tool-malformed error 1"}},
		{"empty name", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"","input":{}}`, fin, `[DONE]`}, []string{"tool-malformed error 1"}},
		{"reset-step discards partial call", []string{start, step, `{"type":"tool-input-start","toolCallId":"s","toolName":"x"}`, `{"type":"reset-step"}`, `{"type":"tool-input-available","toolCallId":"r","toolName":"x","input":{}}`, endStep, fin, `[DONE]`}, nil},
		{"delta after reset-step", []string{start, step, `{"type":"tool-input-start","toolCallId":"s","toolName":"x"}`, `{"type":"reset-step"}`, `{"type":"tool-input-delta","toolCallId":"s","inputTextDelta":"{"}`, endStep, fin, `[DONE]`}, []string{"tool-orphan error 4"}},
		{"reset-step keeps the last step's call", []string{start, step, `{"type":"tool-input-start","toolCallId":"s","toolName":"x"}`, endStep, step, `{"type":"reset-step"}`, endStep, fin, `[DONE]`}, []string{"tool-unfinished error 7"}},
		// payloads
		{"delta not a string", []string{start, `{"type":"text-start","id":"a"}`, `{"type":"text-delta","id":"a","delta":5}`, `{"type":"text-end","id":"a"}`, fin, `[DONE]`}, []string{"payload-malformed error 2"}},
		{"error without errorText", []string{start, `{"type":"error","message":"x"}`, fin, `[DONE]`}, []string{"payload-malformed error 1"}},
		{"unknown finishReason", []string{start, `{"type":"finish","finishReason":"done"}`, `[DONE]`}, []string{"payload-malformed error 1"}},
		{"null optional", []string{start, `{"type":"start-step"}`, `{"type":"tool-input-start","toolCallId":"c","toolName":"x","title":null}`, `{"type":"tool-input-error","toolCallId":"c","toolName":"x","errorText":"e"}`, endStep, fin, `[DONE]`}, []string{"payload-malformed error 2"}},
		// providerMetadataSchema is a record of records.
		{"provider metadata", []string{start, `{"type":"text-start","id":"a","providerMetadata":{"openai":{"itemId":"msg_1","x":null}}}`, `{"type":"text-delta","id":"a","delta":"x","providerMetadata":{}}`, `{"type":"text-end","id":"a"}`, fin, `[DONE]`}, nil},
		{"provider metadata not a record of objects", []string{start, `{"type":"source-url","sourceId":"s","url":"https://example.com","providerMetadata":{"openai":"x"}}`, fin, `[DONE]`}, []string{"payload-malformed error 1"}},
		{"provider metadata null inside", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{},"providerMetadata":{"a":{},"b":null}}`, fin, `[DONE]`}, []string{"payload-malformed error 1"}},
		{"tool metadata any object", []string{start, `{"type":"tool-input-available","toolCallId":"c","toolName":"x","input":{},"toolMetadata":{"a":1,"b":null}}`, fin, `[DONE]`}, nil},
		{"two faults, one alarm", []string{start, `{"type":"source-document","sourceId":1}`, fin, `[DONE]`}, []string{"payload-malformed error 1"}},
		{"type missing", []string{start, `{"kind":"x"}`, fin, `[DONE]`}, []string{"payload-malformed error 1"}},
		{"approval response", []string{start, `{"type":"tool-approval-response","approvalId":"a","approved":"yes"}`, fin, `[DONE]`}, []string{"payload-malformed error 1"}},
		// vocabulary
		// The schema's union rejects it and the client throws (vercel/ai
		// #17520: "unknown chunk types remain rejected").
		{"unknown type", []string{start, `{"type":"text"}`, fin, `[DONE]`}, []string{"event-unknown error 1"}},
		{"docs' source chunk", []string{start, `{"type":"source","value":{"type":"source","sourceType":"url","id":"source-1","url":"https://weather.com"}}`, fin, `[DONE]`}, []string{"event-unknown error 1"}},
		{"not json", []string{start, `{"type":`, fin, `[DONE]`}, []string{"frame-json error 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dialecttest.Lines(dialecttest.Run(Dialect, sse(tc.chunks...)).Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNoPanic: wrong JSON types anywhere, huge numbers, invalid UTF-8.
func TestNoPanic(t *testing.T) {
	var chunks []string
	for typ := range signature {
		for _, v := range []string{`null`, `1e999`, `[]`, `{}`, `true`, `"` + "\xff\xfe" + `"`, `""`} {
			chunks = append(chunks, `{"type":"`+typ+`","id":`+v+`,"toolCallId":`+v+`,"toolName":`+v+`,"delta":`+v+`,"approvalId":`+v+`}`)
		}
	}
	for _, typ := range []string{"start", "finish", "abort", "error", "data-x", "file", "custom", "message-metadata"} {
		chunks = append(chunks, `{"type":"`+typ+`","messageId":99999999999999999999999,"finishReason":{},"reason":[],"errorText":null}`)
	}
	chunks = append(chunks, `{"type":"te\u0078t-delta","id":"a","delta":"x"}`, `{"type":7}`, `[DONE]`, `{"type":"finish"}`)
	dialecttest.Run(Dialect, sse(chunks...))
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		frame string
		want  invariants.Verdict
	}{
		{`{"type":"text-delta","id":"a","delta":"x"}`, invariants.Yes},
		{`{"type":"tool-input-start","toolCallId":"c","toolName":"x"}`, invariants.Yes},
		{`{"type":"start-step"}`, invariants.Yes},
		{`{"type":"data-weather","data":{}}`, invariants.Yes},
		{`{"type":"start","messageId":"m"}`, invariants.Yes},
		{`{"type":"error","errorText":"x"}`, invariants.Yes},
		{`{"type":"start"}`, invariants.Maybe},
		{`{"type":"finish"}`, invariants.Maybe},
		{`{"type":"abort"}`, invariants.Maybe},
		{`{"type":"text-delta","delta":"x"}`, invariants.Yes},
		{`{"type":"text-delta","id":"a"}`, invariants.Maybe},
		// other dialects
		{`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`, invariants.No},
		{`{"type":"error","error":{"code":"TIMEOUT","message":"x"}}`, invariants.No},
		{`{"type":"error","code":"server_error","message":"x","sequence_number":3}`, invariants.No},
		{`{"type":"ping"}`, invariants.No},
		{`{"type":"text","delta":"x"}`, invariants.No},
		{`{"type":"message_start","message":{}}`, invariants.No},
		{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`, invariants.No},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, invariants.No},
		{`{"type":"response.output_text.delta","sequence_number":4,"delta":"x"}`, invariants.No},
		{`{"type":"text_delta","eventSeq":3,"turnId":"t"}`, invariants.No},
		{`{"object":"chat.completion.chunk","choices":[]}`, invariants.No},
		{`{"event_type":"text","version":"0.5","response_id":"r"}`, invariants.No},
		{`{"schema":"public_sse_v1","kind":"message.delta"}`, invariants.No},
		{`{"event":"stream.chunk","message_id":"m","seq_no":1}`, invariants.No},
	} {
		f := frame(t, tc.frame)
		if got := Dialect.Sniff(f, invariants.Keys{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.frame, got, tc.want)
		}
	}
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, sse(`{"type":"start"}`)); got != nil {
		t.Errorf("one start frame decided %s; it is ambiguous", got.Name())
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
}

func frame(t *testing.T, data string) *decode.Frame {
	t.Helper()
	var got *decode.Frame
	fr := decode.NewFramer()
	fr.Feed([]byte("data: "+data+"\n\n"), func(ev *decode.Event) {
		if ev.Dispatched() {
			got = decode.DecodeFrame(ev, 0).Clone()
		}
	})
	if got == nil || !got.Decoded() {
		t.Fatalf("%s does not decode", data)
	}
	return got
}

// TestMutations: dropping, duplicating or moving one frame of a valid
// stream is reported.
func TestMutations(t *testing.T) {
	for name, body := range dialecttest.TerminalMutations(valid, validFinish) {
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
	bs := dialecttest.Blocks(valid)
	mutate := func(name string, parts []string) {
		t.Helper()
		if dialecttest.Serious(dialecttest.Run(Dialect, strings.Join(parts, "")).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
	drop := func(i int) []string { return append(append([]string(nil), bs[:i]...), bs[i+1:]...) }
	dup := func(i int) []string {
		return append(append(append([]string(nil), bs[:i+1]...), bs[i]), bs[i+1:]...)
	}
	swap := func(i, j int) []string {
		out := append([]string(nil), bs...)
		out[i], out[j] = out[j], out[i]
		return out
	}
	// Every frame whose loss the protocol can see: a delta's or end's open,
	// a step boundary, the terminal, [DONE]. Not a text-end or
	// reasoning-end (finish-step closes what is open, as the client does),
	// nor tool-input-available after a start (the client takes an output
	// for a call still streaming its input).
	// Not the first start-step either: the client keeps no step state and
	// the first step needs no step-start boundary (convertToModelMessages
	// starts its first block at the message's start).
	for _, i := range []int{2, 7, 8, 9, 12, 15, 16, 17} {
		mutate("drop "+bs[i][:min(len(bs[i]), 50)], drop(i))
	}
	// A repeated tool-input-available only restates the input: legal.
	for _, i := range []int{0, 1, 2, 6, 8, 9, 12, 16, 17} {
		mutate("duplicate "+bs[i][:min(len(bs[i]), 50)], dup(i))
	}
	for _, p := range [][2]int{{2, 3}, {5, 6}, {12, 13}, {13, 14}, {15, 16}, {16, 17}, {9, 10}} {
		mutate("swap", swap(p[0], p[1]))
	}
}

// TestNoAllocs: mapping the frames of a valid stream allocates nothing
// once the engine is warm (deltas, steps, terminal).
func TestNoAllocs(t *testing.T) {
	bodies := sse(`{"type":"text-delta","id":"t1","delta":"It is"}`, `{"type":"text-delta","id":"t1","delta":" so","providerMetadata":{"pydantic_ai":{"id":"p1"}}}`, `{"type":"reasoning-delta","id":"r","delta":"x"}`,
		`{"type":"tool-input-delta","toolCallId":"call_1","inputTextDelta":"{"}`, `{"type":"data-x","data":{"a":1}}`,
		`{"type":"finish-step"}`, `{"type":"start-step"}`, `{"type":"error","errorText":"e"}`)
	var frames []*decode.Frame
	fr := decode.NewFramer()
	fr.Feed([]byte(bodies), func(ev *decode.Event) {
		if ev.Dispatched() {
			frames = append(frames, decode.DecodeFrame(ev, 0).Clone())
		}
	})
	mp := newMapper()
	mp.openPart(invariants.SpanPart, decode.Raw(`"t1"`))
	var m invariants.Mapping
	allocs := testing.AllocsPerRun(50, func() {
		for _, f := range frames {
			m.Moves = m.Moves[:0]
			mp.Map(f, &m)
		}
		mp.step = 0
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per run, want 0", allocs)
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect, valid,
		sse(`{"type":"tool-input-delta","toolCallId":1}`, `{"type":"finish","finishReason":7}`),
		sse(`{"type":"start-step"}`, `{"type":"text-start","id":"a"}`, `{"type":"reset-step"}`, `{"type":"abort"}`),
		"data: {\"type\":\"text-delta\"\n\n")
}
