package agui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// Event builders: each returns one data line's JSON.
func rs(run string) string {
	return `{"type":"RUN_STARTED","threadId":"th-1","runId":"` + run + `"}`
}
func rf(run string) string {
	return `{"type":"RUN_FINISHED","threadId":"th-1","runId":"` + run + `"}`
}
func re(msg string) string { return `{"type":"RUN_ERROR","message":"` + msg + `"}` }
func tms(id string) string {
	return `{"type":"TEXT_MESSAGE_START","messageId":"` + id + `","role":"assistant"}`
}
func tmc(id, d string) string {
	return `{"type":"TEXT_MESSAGE_CONTENT","messageId":"` + id + `","delta":"` + d + `"}`
}
func tme(id string) string { return `{"type":"TEXT_MESSAGE_END","messageId":"` + id + `"}` }
func tcs(id, name string) string {
	return `{"type":"TOOL_CALL_START","toolCallId":"` + id + `","toolCallName":"` + name + `"}`
}
func tca(id, d string) string {
	return `{"type":"TOOL_CALL_ARGS","toolCallId":"` + id + `","delta":"` + d + `"}`
}
func tce(id string) string  { return `{"type":"TOOL_CALL_END","toolCallId":"` + id + `"}` }
func ss(name string) string { return `{"type":"STEP_STARTED","stepName":"` + name + `"}` }
func sf(name string) string { return `{"type":"STEP_FINISHED","stepName":"` + name + `"}` }
func chunk(id, d string) string {
	return `{"type":"TEXT_MESSAGE_CHUNK","messageId":"` + id + `","delta":"` + d + `"}`
}
func tchunk(id, n, d string) string {
	return `{"type":"TOOL_CALL_CHUNK","toolCallId":"` + id + `","toolCallName":"` + n + `","delta":"` + d + `"}`
}

const (
	raw     = `{"type":"RAW","event":{"kind":"on_chat_model_stream"},"source":"langgraph"}`
	custom  = `{"type":"CUSTOM","name":"progress","value":{"pct":40}}`
	snap    = `{"type":"STATE_SNAPSHOT","snapshot":{"todos":[]}}`
	sdelta  = `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/todos/0","value":"buy milk"}]}`
	msgs    = `{"type":"MESSAGES_SNAPSHOT","messages":[]}`
	thStart = `{"type":"THINKING_START","title":"planning"}`
	thEnd   = `{"type":"THINKING_END"}`
	thMS    = `{"type":"THINKING_TEXT_MESSAGE_START"}`
	thMC    = `{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm"}`
	thME    = `{"type":"THINKING_TEXT_MESSAGE_END"}`
)

// sse renders events as data-only SSE.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

func alarms(body string) string {
	return strings.Join(dialecttest.Lines(dialecttest.Run(Dialect, body).Alarms), " | ")
}

// valid is a LangGraph-style run: a step, a streamed message, a tool call
// with its result, state, and the end.
var valid = sse(
	rs("run-1"),
	ss("agent"),
	tms("msg-1"),
	tmc("msg-1", "Let me check "),
	tmc("msg-1", "the weather."),
	tme("msg-1"),
	tcs("call-1", "get_weather"),
	tca("call-1", `{\"city\":`),
	tca("call-1", `\"Oslo\"}`),
	tce("call-1"),
	sf("agent"),
	`{"type":"TOOL_CALL_RESULT","messageId":"msg-2","toolCallId":"call-1","content":"4°C, rain","role":"tool"}`,
	snap,
	rf("run-1"),
)

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	want := []string{
		`turn-start key="run-1"`,
		`span-open span=step key="agent" name="agent"`,
		`span-open span=message key="msg-1" name="assistant"`,
		`text span=message key="msg-1" text="Let me check "`,
		`text span=message key="msg-1" text="the weather."`,
		`span-close span=message key="msg-1"`,
		`tool-open key="call-1" name="get_weather"`,
		`tool-args key="call-1" text="{\"city\":"`,
		`tool-args key="call-1" text="\"Oslo\"}"`,
		`tool-close key="call-1"`,
		`span-close span=step key="agent"`,
		``,
		``,
		`terminal name="RUN_FINISHED" outcome=completed`,
	}
	checkMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].ResponseID != "run-1" {
		t.Errorf("turns %+v", res.Turns)
	}
}

func checkMoves(t *testing.T, res dialecttest.Result, want []string) {
	t.Helper()
	if len(res.Moves) != len(want) {
		t.Fatalf("%d frames, want %d", len(res.Moves), len(want))
	}
	dialecttest.WantMoves(t, res, want)
}

func TestMappingChunksAndReasoning(t *testing.T) {
	body := sse(
		rs("run-2"),
		`{"type":"REASONING_START","messageId":"r-1"}`,
		`{"type":"REASONING_MESSAGE_CHUNK","messageId":"r-1","delta":"think"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"r-1","encryptedValue":"b64=="}`,
		`{"type":"REASONING_END","messageId":"r-1"}`,
		chunk("m-1", "Hi"),
		`{"type":"TEXT_MESSAGE_CHUNK","delta":" there"}`,
		tchunk("c-1", "search", `{\"q\":1}`),
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m-2","delta":"Done"}`,
		rf("run-2"),
	)
	res := dialecttest.Run(Dialect, body)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	checkMoves(t, res, []string{
		`turn-start key="run-2"`,
		`span-open span=step key="r-1" name="reasoning"`,
		`span-open span=reasoning key="r-1" name="reasoning"; reasoning span=reasoning key="r-1" text="think"`,
		``, // encrypted value passes through, the chunk stays open
		`span-close span=reasoning key="r-1"; span-close span=step key="r-1"`,
		`span-open span=message key="m-1" name="assistant"; text span=message key="m-1" text="Hi"`,
		`text span=message key="m-1" text=" there"`,
		`span-close span=message key="m-1"; tool-open key="c-1" name="search"; tool-args key="c-1" text="{\"q\":1}"`,
		`tool-close key="c-1"; span-open span=message key="m-2" name="assistant"; text span=message key="m-2" text="Done"`,
		`span-close span=message key="m-2"; terminal name="RUN_FINISHED" outcome=completed`,
	})
}

func TestMappingErrorAndInterrupt(t *testing.T) {
	body := sse(
		rs("run-1"),
		`{"type":"RUN_FINISHED","threadId":"th-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[{"id":"i-1","reason":"tool_approval","toolCallId":"call-9"}]}}`,
		rs("run-2"),
		`{"type":"RUN_ERROR","message":"model overloaded","code":"overloaded"}`,
	)
	res := dialecttest.Run(Dialect, body)
	if got := alarms(body); got != "" {
		t.Fatalf("alarms %s", got)
	}
	checkMoves(t, res, []string{
		`turn-start key="run-1"`,
		`terminal name="RUN_FINISHED" outcome=interrupted`,
		`turn-start key="run-2"`,
		`terminal name="RUN_ERROR" text="model overloaded" code="overloaded" outcome=failed`,
	})
	if len(res.Turns) != 2 || res.Turns[0].Outcome != "interrupted" || res.Turns[1].Outcome != "failed" {
		t.Errorf("turns %+v", res.Turns)
	}
}

type ruleCase struct {
	name   string
	events []string
	want   string // sorted alarm lines joined by " | "
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := alarms(sse(tc.events...)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestRules: every rule fires, and a near miss does not.
func TestRules(t *testing.T) {
	runCases(t, []ruleCase{
		{"frame-json", []string{rs("r"), `{"type":"TEXT_MESSAGE_START",`, rf("r")}, "frame-json error 1"},
		{"event-unknown", []string{rs("r"), `{"type":"META_EVENT","name":"x"}`, rf("r")}, "event-unknown info 1"},
		{"event-unknown ok: ACTIVITY", []string{rs("r"), `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"PLAN","content":{"steps":[]}}`, `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"PLAN","patch":[]}`, rf("r")}, ""},
		{"start-missing", []string{tms("m"), tme("m"), rf("r")}, "start-missing error 0"},
		{"start-missing ok: RUN_ERROR first", []string{re("boom")}, ""},
		{"start-duplicate", []string{rs("r"), rs("r2"), rf("r")}, "start-duplicate error 1"},
		{"start-duplicate ok: after RUN_FINISHED", []string{rs("r"), rf("r"), rs("r2"), rf("r2")}, ""},
		{"terminal-missing", []string{rs("r"), tms("m"), tme("m")}, "terminal-missing error -"},
		{"terminal-duplicate", []string{rs("r"), rf("r"), rf("r")}, "after-terminal error 2 | terminal-duplicate error 2"},
		{"terminal-duplicate: RUN_ERROR after RUN_ERROR", []string{rs("r"), re("a"), re("b")}, "after-terminal error 2 | terminal-duplicate error 2"},
		{"terminal-duplicate ok: RUN_ERROR after RUN_FINISHED", []string{rs("r"), rf("r"), re("late")}, ""},
		{"after-terminal", []string{rs("r"), rf("r"), custom}, "after-terminal error 2"},
		{"span-orphan", []string{rs("r"), tmc("m", "x"), rf("r")}, "span-orphan error 1"},
		{"span-orphan: thinking message outside a thinking step", []string{rs("r"), thMS, thME, rf("r")}, "legacy-shape info 1 | span-orphan error 1"},
		{"span-orphan ok: thinking message in a step", []string{rs("r"), thStart, thMS, thMC, thME, thEnd, rf("r")}, "legacy-shape info 1"},
		{"span-unclosed", []string{rs("r"), ss("plan"), rf("r")}, "span-unclosed error 2"},
		{"span-unclosed warn at RUN_ERROR", []string{rs("r"), tms("m"), re("x")}, "span-unclosed warn 2"},
		{"span-unclosed at an interrupt", []string{rs("r"), tms("m"), `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirm"}]}}`}, "span-unclosed error 2"},
		{"span-duplicate", []string{rs("r"), tms("m"), tms("m"), tme("m"), rf("r")}, "span-duplicate error 2"},
		{"span-duplicate ok: id reused after END", []string{rs("r"), tms("m"), tme("m"), tms("m"), tme("m"), rf("r")}, ""},
		{"tool-malformed", []string{rs("r"), `{"type":"TOOL_CALL_START","toolCallId":"c"}`, tce("c"), rf("r")}, "tool-malformed error 1"},
		{"tool-malformed: no id", []string{rs("r"), `{"type":"TOOL_CALL_START","toolCallName":"search"}`, rf("r")}, "tool-malformed error 1"},
		{"tool-malformed: first chunk without a name", []string{rs("r"), `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","delta":"{}"}`, rf("r")}, "tool-malformed error 1"},
		{"tool-orphan", []string{rs("r"), tca("c", "{}"), rf("r")}, "tool-orphan error 1"},
		{"tool-unfinished", []string{rs("r"), tcs("c", "search"), rf("r")}, "tool-unfinished error 2"},
		{"tool-unfinished at an interrupt", []string{rs("r"), tcs("c", "search"), `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirm"}]}}`}, "tool-unfinished error 2"},
		{"tool-unfinished ok: chunked call closed by RUN_FINISHED", []string{rs("r"), tchunk("c", "search", "{}"), rf("r")}, ""},
		{"tool-duplicate", []string{rs("r"), tcs("c", "a"), tcs("c", "a"), tce("c"), rf("r")}, "tool-duplicate error 2"},
		{"tool-duplicate ok: id reused after END", []string{rs("r"), tcs("c", "a"), tce("c"), tcs("c", "a"), tce("c"), rf("r")}, ""},
		{"payload-malformed", []string{rs("r"), tms("m"), `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}`, tme("m"), rf("r")}, "payload-malformed error 2"},
		{"payload-malformed: RUN_STARTED without threadId", []string{`{"type":"RUN_STARTED","runId":"r"}`, rf("r")}, "payload-malformed error 0"},
		{"payload-malformed: role", []string{rs("r"), `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"}`, tme("m"), rf("r")}, "payload-malformed error 1"},
		{"payload-malformed: null metadata", []string{rs("r"), `{"type":"CUSTOM","name":"x","metadata":null}`, rf("r")}, "payload-malformed error 1"},
		{"payload-malformed: empty interrupts", []string{rs("r"), `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"interrupt","interrupts":[]}}`}, "payload-malformed error 1"},
		{"payload-malformed: outcome not strict", []string{rs("r"), `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"success","reason":"x"}}`}, "payload-malformed error 1"},
		{"payload-malformed: first chunk without messageId", []string{rs("r"), `{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`, rf("r")}, "payload-malformed error 1"},
		{"payload-malformed ok: null parentMessageId and outcome", []string{rs("r"), `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"s","parentMessageId":null}`, tce("c"), `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":null}`}, ""},
		{"payload-malformed: type not a string", []string{rs("r"), `{"type":7}`, rf("r")}, "payload-malformed error 1"},
		{"run-id-mismatch", []string{rs("r-1"), rf("r-2")}, "run-id-mismatch warn 1"},
		{"run-id-mismatch: thread", []string{rs("r-1"), `{"type":"RUN_FINISHED","threadId":"th-9","runId":"r-1"}`}, "run-id-mismatch warn 1"},
		{"run-id-mismatch ok: RUN_ERROR without runId", []string{rs("r-1"), re("x")}, ""},
	})
}

// TestVerifierParity ports every behaviour verifyEvents' own tests check
// (client/src/verify/__tests__/*.test.ts, and the THINKING_* checks of
// verify.ts) in our own data: what it rejects is an error here, at the
// frame it rejects; what it accepts raises no error.
func TestVerifierParity(t *testing.T) {
	interrupt := `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirm"}]}}`
	runCases(t, []ruleCase{
		// lifecycle
		{"first event must be RUN_STARTED", []string{tms("1")}, "span-unclosed warn - | start-missing error 0 | terminal-missing error -"},
		{"no second RUN_STARTED in a run", []string{rs("r"), rs("r")}, "start-duplicate error 1 | terminal-missing error -"},
		{"no event after RUN_FINISHED", []string{rs("r"), tms("1"), tme("1"), rf("r"), tms("2")}, "after-terminal error 4"},
		{"RUN_ERROR after RUN_FINISHED", []string{rs("r"), tms("1"), tme("1"), rf("r"), re("x")}, ""},
		{"RUN_ERROR as first event", []string{re("x")}, ""},
		{"no event after RUN_ERROR", []string{rs("r"), re("x"), tms("1")}, "after-terminal error 2"},
		{"valid sequence", []string{rs("r"), tms("1"), tmc("1", "a"), tme("1"), tcs("t1", "tool"), tca("t1", "x"), tce("t1"), rf("r")}, ""},
		// multiple runs
		{"sequential runs", []string{rs("r1"), tms("m1"), tme("m1"), rf("r1"), rs("r2"), tms("m2"), tme("m2"), rf("r2")}, ""},
		{"message ids reused across runs", []string{rs("r1"), tms("m"), tme("m"), rf("r1"), rs("r2"), tms("m"), tme("m"), rf("r2")}, ""},
		{"tool ids reused across runs", []string{rs("r1"), tcs("t", "a"), tce("t"), rf("r1"), rs("r2"), tcs("t", "a"), tce("t"), rf("r2")}, ""},
		{"step names reused across runs", []string{rs("r1"), ss("s"), sf("s"), rf("r1"), rs("r2"), ss("s"), sf("s"), rf("r2")}, ""},
		{"RUN_STARTED while a run is active", []string{rs("r1"), tms("m"), rs("r2"), tme("m"), rf("r1")}, "start-duplicate error 2"},
		{"three runs", []string{rs("r1"), rf("r1"), rs("r2"), rf("r2"), rs("r3"), rf("r3")}, ""},
		{"events after RUN_ERROR in the same run", []string{rs("r1"), re("x"), tms("m")}, "after-terminal error 2"},
		{"RUN_STARTED after RUN_ERROR", []string{rs("r1"), re("x"), rs("r2"), tms("m"), tme("m"), rf("r2")}, ""},
		{"replay with an errored run mid-message", []string{rs("r1"), tms("m1"), tme("m1"), rf("r1"), rs("r2"), tms("m2"), re("restart"), rs("r3"), tms("m2"), tme("m2"), rf("r3")}, "span-unclosed warn 6"},
		{"runs with mixed events (a mismatched runId is accepted there)", []string{rs("r1"), tms("m1"), tme("m1"), tcs("t", "search"), tce("t"), rf("r2"), rs("r2"), ss("analysis"), tms("m2"), tme("m2"), sf("analysis"), rf("r2")}, "run-id-mismatch warn 5"},
		// text messages
		{"CONTENT before START", []string{rs("r"), tmc("1", "x")}, "span-orphan error 1 | terminal-missing error -"},
		{"END before START", []string{rs("r"), tme("1")}, "span-orphan error 1 | terminal-missing error -"},
		{"CONTENT inside a message", []string{rs("r"), tms("1"), tmc("1", "x"), tme("1"), rf("r")}, ""},
		{"RAW, CUSTOM, state and snapshots inside a message", []string{rs("r"), tms("1"), raw, custom, snap, sdelta, msgs, tme("1"), rf("r")}, ""},
		{"steps during a message", []string{rs("r"), tms("1"), ss("s"), sf("s"), tme("1"), rf("r")}, ""},
		{"tool call during a message", []string{rs("r"), tms("1"), tcs("t", "a"), tca("t", "{}"), tce("t"), tme("1"), rf("r")}, ""},
		{"sequential messages", []string{rs("r"), tms("1"), tme("1"), tms("2"), tme("2"), rf("r")}, ""},
		{"message before RUN_STARTED", []string{tms("1"), rs("r"), tme("1"), rf("r")}, "start-missing error 0"},
		// tool calls
		{"ARGS before START", []string{rs("r"), tca("t", "x")}, "terminal-missing error - | tool-orphan error 1"},
		{"END before START", []string{rs("r"), tce("t")}, "terminal-missing error - | tool-orphan error 1"},
		{"ARGS and END inside a call", []string{rs("r"), tcs("t", "a"), tca("t", "x"), tce("t"), rf("r")}, ""},
		{"RAW, CUSTOM, state and snapshots inside a call", []string{rs("r"), tcs("t", "a"), raw, custom, snap, sdelta, msgs, tce("t"), rf("r")}, ""},
		{"steps during a call", []string{rs("r"), tcs("t", "a"), ss("s"), sf("s"), tce("t"), rf("r")}, ""},
		{"message during a call", []string{rs("r"), tcs("t", "a"), tms("1"), tme("1"), tce("t"), rf("r")}, ""},
		{"sequential calls", []string{rs("r"), tcs("t1", "a"), tce("t1"), tcs("t2", "b"), tce("t2"), rf("r")}, ""},
		{"call before RUN_STARTED", []string{tcs("t", "a"), rs("r"), tce("t"), rf("r")}, "start-missing error 0"},
		// general validation
		{"CONTENT for another id than START", []string{rs("r"), tms("1"), tmc("2", "x"), tme("1"), rf("r")}, "span-orphan error 2"},
		{"ARGS for another id than START", []string{rs("r"), tcs("1", "a"), tca("2", "x"), tce("1"), rf("r")}, "tool-orphan error 2"},
		{"CUSTOM and RAW anywhere", []string{rs("r"), custom, raw, tms("1"), custom, tme("1"), raw, rf("r")}, ""},
		{"special events outside calls", []string{rs("r"), snap, sdelta, msgs, raw, custom, rf("r")}, ""},
		// steps
		{"STEP_FINISHED for another name", []string{rs("r"), ss("a"), sf("b"), rf("r")}, "span-orphan error 2 | span-unclosed error 3"},
		{"STEP_FINISHED without start", []string{rs("r"), sf("a"), rf("r")}, "span-orphan error 1"},
		{"STEP_STARTED for an active name", []string{rs("r"), ss("a"), ss("a"), sf("a"), rf("r")}, "span-duplicate error 2"},
		{"steps must end before the run", []string{rs("r"), ss("a"), rf("r")}, "span-unclosed error 2"},
		{"nested steps", []string{rs("r"), ss("outer"), ss("inner"), sf("inner"), sf("outer"), rf("r")}, ""},
		// concurrency
		{"concurrent messages", []string{rs("r"), tms("1"), tms("2"), tmc("1", "a"), tmc("2", "b"), tme("2"), tme("1"), rf("r")}, ""},
		{"concurrent calls", []string{rs("r"), tcs("1", "a"), tcs("2", "b"), tca("1", "x"), tca("2", "y"), tce("1"), tce("2"), rf("r")}, ""},
		{"message id in progress", []string{rs("r"), tms("1"), tms("1"), tme("1"), rf("r")}, "span-duplicate error 2"},
		{"tool id in progress", []string{rs("r"), tcs("1", "a"), tcs("1", "a"), tce("1"), rf("r")}, "tool-duplicate error 2"},
		{"RUN_FINISHED with a message active", []string{rs("r"), tms("1"), tms("2"), tme("2"), rf("r")}, "span-unclosed error 4"},
		{"RUN_FINISHED with a call active", []string{rs("r"), tcs("1", "a"), tcs("2", "b"), tce("2"), rf("r")}, "tool-unfinished error 4"},
		{"RUN_FINISHED interrupt with a step active", []string{rs("r"), ss("a"), interrupt}, "span-unclosed error 2"},
		// THINKING_* (verify.ts)
		{"THINKING_TEXT_MESSAGE_START outside a thinking step", []string{rs("r"), thMS, thME, rf("r")}, "legacy-shape info 1 | span-orphan error 1"},
		{"THINKING_TEXT_MESSAGE_START twice", []string{rs("r"), thStart, thMS, thMS, thME, thEnd, rf("r")}, "legacy-shape info 1 | span-duplicate error 3"},
		{"THINKING_TEXT_MESSAGE_CONTENT without a message", []string{rs("r"), thStart, thMC, thEnd, rf("r")}, "legacy-shape info 1 | span-orphan error 2"},
		{"THINKING_TEXT_MESSAGE_END without a message", []string{rs("r"), thStart, thME, thEnd, rf("r")}, "legacy-shape info 1 | span-orphan error 2"},
		{"THINKING_START twice", []string{rs("r"), thStart, thStart, thEnd, rf("r")}, "legacy-shape info 1 | span-duplicate error 2"},
		// The drafts' meta event belongs to the stream, not to a run.
		{"META before, between and after runs", []string{`{"type":"META","metaType":"tag","payload":{}}`, rs("r"), rf("r"), `{"type":"META_EVENT","metaType":"thumbs_up","payload":{}}`, rs("r2"), rf("r2"), `{"type":"META","metaType":"note","payload":{}}`},
			"event-unknown info 0 | event-unknown info 3 | event-unknown info 6"},
		{"META first, then RUN_ERROR", []string{`{"type":"META","metaType":"tag","payload":{}}`, `{"type":"RUN_ERROR","message":"x"}`}, "event-unknown info 0"},
		// The deprecated names: one legacy-shape a stream, whatever mix.
		{"THINKING_* mixed with REASONING_*", []string{rs("r"), thStart, thMS, thMC, thME, thEnd, `{"type":"REASONING_START","messageId":"m"}`, `{"type":"REASONING_END","messageId":"m"}`, thStart, thEnd, rf("r")}, "legacy-shape info 1"},
		{"THINKING_END without start", []string{rs("r"), thEnd, rf("r")}, "legacy-shape info 1 | span-orphan error 1"},
	})
}

// TestAllViolations: where verifyEvents stops at the first error, every
// violation is reported with its frame.
func TestAllViolations(t *testing.T) {
	got := alarms(sse(tms("m"), rs("r"), tmc("x", "a"), tca("c", "{}"), ss("s"), rf("r"), custom))
	want := "after-terminal error 6 | span-orphan error 2 | span-unclosed error 5 | span-unclosed error 5 | start-missing error 0 | tool-orphan error 3"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		frame string
		want  invariants.Verdict
	}{
		{rs("r"), invariants.Yes},
		{custom, invariants.Yes},
		{`{"type":"META_EVENT"}`, invariants.Maybe},
		{`{"type":"ping"}`, invariants.No},
		{`{"type":"message_start","message":{}}`, invariants.No},
		{`{"type":"text-delta","id":"0","delta":"x"}`, invariants.No},
		{`{"type":"RUN_STARTED","eventSeq":1}`, invariants.No},
		{`{"type":"RUN_STARTED","sequence_number":1}`, invariants.No},
		{`{"event_type":"text","version":"0.4","response_id":"r","type":"RAW"}`, invariants.No},
		{`{"object":"chat.completion.chunk","type":"RAW"}`, invariants.No},
		{`{"schema":"public_sse_v1","kind":"x","type":"RAW"}`, invariants.No},
		{`{"type":["RAW"]}`, invariants.No},
	} {
		f := frameOf(tc.frame)
		if got := sniff(f, invariants.Keys{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.frame, got, tc.want)
		}
	}
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, sse(`{"type":"META_EVENT"}`)); got != nil {
		t.Errorf("an unknown SCREAMING_CASE type decided %s", got.Name())
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
}

func frameOf(data string) *decode.Frame {
	var f *decode.Frame
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() && f == nil {
			f = decode.DecodeFrame(ev, 0).Clone()
		}
	}
	fr.Feed([]byte("data: "+data+"\n\n"), emit)
	return f
}

// TestMutations: dropping, duplicating or moving one frame of a valid
// stream is reported as an error or a warning.
func TestMutations(t *testing.T) {
	bs := dialecttest.Blocks(valid)
	muts := dialecttest.TerminalMutations(valid, len(bs)-1)
	for i, b := range bs {
		// Every frame but the result and the snapshot carries structure.
		if strings.Contains(b, "TOOL_CALL_RESULT") || strings.Contains(b, "STATE_SNAPSHOT") ||
			strings.Contains(b, "TEXT_MESSAGE_CONTENT") || strings.Contains(b, "TOOL_CALL_ARGS") {
			continue
		}
		drop := append(append([]string(nil), bs[:i]...), bs[i+1:]...)
		muts[fmt.Sprintf("drop %d", i)] = strings.Join(drop, "")
		dup := append(append(append([]string(nil), bs[:i+1]...), bs[i]), bs[i+1:]...)
		muts[fmt.Sprintf("duplicate %d", i)] = strings.Join(dup, "")
	}
	// Reorder: an END before its START, content before its message.
	swap := func(i, j int) string {
		c := append([]string(nil), bs...)
		c[i], c[j] = c[j], c[i]
		return strings.Join(c, "")
	}
	muts["message end before start"] = swap(2, 5)
	muts["content before start"] = swap(2, 3)
	muts["tool end before args"] = swap(8, 9)
	muts["tool end after the run"] = swap(9, 13)
	muts["run started second"] = swap(0, 1)
	for name, body := range muts {
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
}

// TestNoAlloc: mapping the frames of a run allocates nothing once warm.
// The mapper is driven alone (a zero Mapping: these frames ask nothing of
// the engine), then with the engine over frames that open nothing: the
// engine itself copies a span's or call's name when one opens.
func TestNoAlloc(t *testing.T) {
	frames := func(events ...string) []*decode.Frame {
		var out []*decode.Frame
		for _, e := range events {
			out = append(out, frameOf(e))
		}
		return out
	}
	p := &mapper{}
	var m invariants.Mapping
	loop := frames(tms("m"), tmc("m", "delta"), tme("m"), tcs("c", "search"), tca("c", `{\"a\":1}`), tce("c"),
		ss("plan"), sf("plan"), chunk("k", "a"), chunk("k", "b"), tchunk("t", "search", "{}"), chunk("k2", "c"),
		`{"type":"REASONING_START","messageId":"r"}`, `{"type":"REASONING_MESSAGE_CHUNK","messageId":"r","delta":"x"}`,
		`{"type":"REASONING_END","messageId":"r"}`, sdelta, custom, raw, msgs,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"hi"}]},{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"t","role":"tool","content":"x","toolCallId":"c"}]}`)
	allocs := testing.AllocsPerRun(50, func() {
		for _, f := range loop {
			m.Moves = m.Moves[:0]
			p.Map(f, &m)
		}
	})
	if allocs > 0 {
		t.Errorf("mapper: %.1f allocations per pass", allocs)
	}
	fin := frameOf(`{"type":"RUN_FINISHED","threadId":"th","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirm"}]}}`)
	usage := frameOf(`{"type":"RUN_ERROR","message":"x","usage":[{"inputTokens":3,"outputTokens":1.0}]}`)
	allocs = testing.AllocsPerRun(50, func() {
		if p.outcome(fin, &m, true) != invariants.TurnInterrupted || !checkPayload(fin, evRunFinished, &m) {
			t.Fatal("interrupt not read")
		}
		if !checkPayload(usage, evRunError, &m) {
			t.Fatal("usage rejected")
		}
	})
	if allocs > 0 {
		t.Errorf("outcome: %.1f allocations per pass", allocs)
	}

	chk := Dialect.NewChecker(invariants.Options{})
	for _, e := range []string{rs("r"), ss("s"), tms("m"), tcs("c", "search"), chunk("k", "a")} {
		chk.Observe(frameOf(e))
	}
	loop = frames(tmc("m", "delta"), tca("c", `{\"a\":1}`), sdelta, custom, raw, snap)
	allocs = testing.AllocsPerRun(50, func() {
		for _, f := range loop {
			if as := chk.Observe(f); len(as) > 0 {
				t.Fatalf("alarm %v", as)
			}
		}
	})
	if allocs > 0 {
		t.Errorf("engine and mapper: %.1f allocations per pass", allocs)
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		sse(rs("r"), chunk("m", "a"), tchunk("c", "s", "{"), `{"type":"REASONING_MESSAGE_CHUNK","messageId":"","delta":"x"}`, rf("r")),
		sse(re("x"), `{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":1}]}}`, `{"type":"TOOL_CALL_START","toolCallId":5}`),
		sse(`{"type":"THINKING_TEXT_MESSAGE_START","metadata":null}`, `{"type":"STEP_STARTED","stepName":{"a":1}}`, "[DONE]"),
		"data: {\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"\xff\"}\n\n",
		sse(rs("r"), `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":[{"type":"image","source":{"type":"url","value":"x"}}]}]}`,
			`{"type":"STATE_DELTA","delta":[{"op":"move","from":"/a","path":"/b"}]}`, `{"type":"REASONING_END","messageId":"q"}`,
			`{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","usage":[{"outputTokens":1.0e2}]}`),
		"data: "+rs("r")+"\r\n\r\ndata: "+rf("r")+"\r\r",
	)
}

// TestReasoningTolerated: verifyEvents does not track REASONING_* and the
// reducer (apply/default.ts) tolerates their misplaced boundaries, so those
// are warnings; content for a reasoning message never started is dropped by
// the reducer and stays an error. THINKING_* left open at RUN_FINISHED are
// not checked by verifyEvents either.
func TestReasoningTolerated(t *testing.T) {
	rst := func(id string) string { return `{"type":"REASONING_START","messageId":"` + id + `"}` }
	ren := func(id string) string { return `{"type":"REASONING_END","messageId":"` + id + `"}` }
	rms := func(id string) string {
		return `{"type":"REASONING_MESSAGE_START","messageId":"` + id + `","role":"reasoning"}`
	}
	rmc := func(id string) string {
		return `{"type":"REASONING_MESSAGE_CONTENT","messageId":"` + id + `","delta":"hmm"}`
	}
	rme := func(id string) string { return `{"type":"REASONING_MESSAGE_END","messageId":"` + id + `"}` }
	rch := func(id string) string {
		return `{"type":"REASONING_MESSAGE_CHUNK","messageId":"` + id + `","delta":"x"}`
	}
	interrupt := `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"confirm"}]}}`
	runCases(t, []ruleCase{
		{"valid: phase and message share an id", []string{rs("r"), rst("m"), rms("m"), rmc("m"), rme("m"), ren("m"), rf("r")}, ""},
		{"reasoning message open at RUN_FINISHED", []string{rs("r"), rms("m"), rmc("m"), rf("r")}, "span-unclosed warn 3"},
		{"reasoning phase open at RUN_FINISHED", []string{rs("r"), rst("p"), rf("r")}, "span-unclosed warn 2"},
		{"reasoning phase open at an interrupt", []string{rs("r"), rst("p"), interrupt}, "span-unclosed warn 2"},
		{"reasoning open at RUN_ERROR", []string{rs("r"), rms("m"), re("x")}, "span-unclosed warn 2"},
		{"REASONING_END without start", []string{rs("r"), ren("p"), rf("r")}, "span-orphan warn 1"},
		{"REASONING_MESSAGE_END without start", []string{rs("r"), rme("m"), rf("r")}, "span-orphan warn 1"},
		{"REASONING_MESSAGE_START twice", []string{rs("r"), rms("m"), rms("m"), rme("m"), rf("r")}, "span-duplicate warn 2"},
		{"REASONING_START twice", []string{rs("r"), rst("p"), rst("p"), ren("p"), rf("r")}, "span-duplicate warn 2"},
		{"explicit END after the chunk transformer closed it", []string{rs("r"), rch("m"), rme("m"), rf("r")}, "span-orphan warn 2"},
		{"START after a chunk of the same id: the transformer closed it first", []string{rs("r"), rch("m"), rms("m"), rme("m"), rf("r")}, ""},
		{"chunk while the same message is open explicitly", []string{rs("r"), rms("m"), rch("m"), rf("r")}, "span-duplicate warn 2"},
		{"REASONING_MESSAGE_CONTENT never started: dropped", []string{rs("r"), rmc("m"), rf("r")}, "span-orphan error 1"},
		{"REASONING_END after the run: after-terminal only", []string{rs("r"), rf("r"), ren("p")}, "after-terminal error 2"},
		{"thinking step open at RUN_FINISHED", []string{rs("r"), thStart, rf("r")}, "legacy-shape info 1 | span-unclosed warn 2"},
		{"thinking message open at RUN_FINISHED", []string{rs("r"), thStart, thMS, thMC, rf("r")}, "legacy-shape info 1 | span-unclosed warn 4 | span-unclosed warn 4"},
		{"a text message open still fails RUN_FINISHED", []string{rs("r"), rst("p"), tms("m"), rf("r")}, "span-unclosed error 3 | span-unclosed warn 3"},
	})
}

// TestNestedSchemas: the messages, run input, usage and interrupts that
// EventSchemas.parse validates inside an event (core/src/types.ts,
// events.ts): a failure errors the run, so it is payload-malformed; members
// the schemas do not list are allowed.
func TestNestedSchemas(t *testing.T) {
	allRoles := `[` +
		`{"id":"1","role":"developer","content":"be brief"},` +
		`{"id":"2","role":"system","content":"sys","name":"s"},` +
		`{"id":"3","role":"user","content":"hi","extra":1},` +
		`{"id":"4","role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"url","value":"https://x/y.png"}},{"type":"document","source":{"type":"data","value":"QQ==","mimeType":"application/pdf"}},{"type":"binary","mimeType":"image/png","data":"QQ=="}]},` +
		`{"id":"5","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},"encryptedValue":"e"}]},` +
		`{"id":"6","role":"assistant","content":"done","metadata":{"k":null}},` +
		`{"id":"7","role":"tool","content":"ok","toolCallId":"c1","error":"none"},` +
		`{"id":"8","role":"activity","activityType":"PLAN","content":{"steps":[]}},` +
		`{"id":"9","role":"reasoning","content":"hmm","encryptedValue":"x"}]`
	snapWith := func(msgs string) string { return `{"type":"MESSAGES_SNAPSHOT","messages":` + msgs + `}` }
	input := `{"threadId":"th-1","runId":"r","state":null,"messages":[{"id":"u","role":"user","content":"hi"}],"tools":[{"name":"t","description":"d","parameters":{}}],"context":[{"description":"d","value":"v"}],"forwardedProps":{},"resume":[{"interruptId":"i","status":"resolved","payload":{"ok":true}}]}`
	rsIn := func(in string) string {
		return `{"type":"RUN_STARTED","threadId":"th-1","runId":"r","input":` + in + `}`
	}
	rfUsage := func(u string) string {
		return `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","usage":` + u + `}`
	}
	rfInt := func(i string) string {
		return `{"type":"RUN_FINISHED","threadId":"th-1","runId":"r","outcome":{"type":"interrupt","interrupts":[` + i + `]}}`
	}
	runCases(t, []ruleCase{
		{"ok: every message role", []string{rs("r"), snapWith(allRoles), rf("r")}, ""},
		{"ok: run input", []string{rsIn(input), rf("r")}, ""},
		{"ok: usage", []string{rs("r"), rfUsage(`[{"provider":"openai","model":"gpt","inputTokens":10,"outputTokens":2.0,"totalTokens":12,"costUsd":0.1}]`)}, ""},
		{"ok: interrupt members", []string{rs("r"), rfInt(`{"id":"i","reason":"r","message":"ok?","toolCallId":"c","responseSchema":{},"expiresAt":"2026-01-01T00:00:00Z","metadata":{},"x":1}`)}, ""},
		{"assistant content null", []string{rs("r"), snapWith(`[{"id":"a","role":"assistant","content":null}]`), rf("r")}, "payload-malformed error 1"},
		{"tool message without toolCallId", []string{rs("r"), snapWith(`[{"id":"a","role":"tool","content":"x"}]`), rf("r")}, "payload-malformed error 1"},
		{"unknown role", []string{rs("r"), snapWith(`[{"id":"a","role":"function","content":"x"}]`), rf("r")}, "payload-malformed error 1"},
		{"message without id", []string{rs("r"), snapWith(`[{"role":"user","content":"x"}]`), rf("r")}, "payload-malformed error 1"},
		{"tool call arguments as an object", []string{rs("r"), snapWith(`[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":{}}}]}]`), rf("r")}, "payload-malformed error 1"},
		{"user part of an unknown type", []string{rs("r"), snapWith(`[{"id":"a","role":"user","content":[{"type":"image_url","image_url":"x"}]}]`), rf("r")}, "payload-malformed error 1"},
		{"binary part with no payload", []string{rs("r"), snapWith(`[{"id":"a","role":"user","content":[{"type":"binary","mimeType":"image/png"}]}]`), rf("r")}, "payload-malformed error 1"},
		{"run input without tools", []string{rsIn(`{"threadId":"th-1","runId":"r","messages":[],"context":[]}`), rf("r")}, "payload-malformed error 0"},
		{"negative usage", []string{rs("r"), rfUsage(`[{"inputTokens":-1}]`)}, "payload-malformed error 1"},
		{"fractional usage", []string{rs("r"), rfUsage(`[{"outputTokens":1.5}]`)}, "payload-malformed error 1"},
		{"fractional usage with an exponent", []string{rs("r"), rfUsage(`[{"outputTokens":15e-1}]`)}, "payload-malformed error 1"},
		{"ok: integral usage written 1.50e1, -0 and 3.000", []string{rs("r"), rfUsage(`[{"outputTokens":1.50e1,"inputTokens":-0,"totalTokens":3.000}]`)}, ""},
		{"usage entry not an object", []string{rs("r"), `{"type":"RUN_ERROR","message":"x","usage":[3]}`}, "payload-malformed error 1"},
		{"interrupt message not a string", []string{rs("r"), rfInt(`{"id":"i","reason":"r","message":5}`)}, "payload-malformed error 1"},
	})
	res := dialecttest.Run(Dialect, sse(rs("r"), snapWith(`[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":{}}}]}]`), rf("r")))
	if got := dialecttest.Lines(res.Alarms); len(got) != 1 || !strings.Contains(res.Alarms[0].Message, "messages[0] toolCalls[0] function arguments is an object, want a string") {
		t.Errorf("path not named: %v %+v", got, res.Alarms)
	}
}

// TestSeparator: @ag-ui/client (transform/sse.ts) splits the body on "\n\n"
// only, so events ended by a CRLF or CR blank line run together and
// JSON.parse fails; one alarm a stream. A CRLF comment, a CR LF before the
// blank LF, or a CRLF after the last event do not stop it.
func TestSeparator(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"CRLF between events", "data: " + rs("r") + "\r\n\r\ndata: " + custom + "\r\n\r\ndata: " + rf("r") + "\r\n\r\n", "sse-separator error 1"},
		{"CR between events", "data: " + rs("r") + "\r\rdata: " + rf("r") + "\n\n", "sse-separator error 1"},
		{"ok: LF", sse(rs("r"), rf("r")), ""},
		{"ok: CRLF comment, CR LF LF, CRLF at the end", "data: " + rs("r") + "\n\n: ping\r\n\r\ndata: " + custom + "\r\n\ndata: " + rf("r") + "\r\n\r\n", ""},
		{"ok: one event with CRLF", "data: " + re("x") + "\r\n\r\n", ""},
	} {
		if got := alarms(tc.body); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPatchOps: STATE_DELTA and ACTIVITY_DELTA carry JSON Patch that the
// reducer applies with fast-json-patch (validating each operation); a bad
// operation makes it drop the whole patch.
func TestPatchOps(t *testing.T) {
	delta := func(ops string) string { return `{"type":"STATE_DELTA","delta":` + ops + `}` }
	runCases(t, []ruleCase{
		{"ok: every op", []string{rs("r"), delta(`[{"op":"add","path":"/a","value":null},{"op":"remove","path":"/b"},{"op":"replace","path":"","value":{}},{"op":"move","from":"/a","path":"/c"},{"op":"copy","from":"/c","path":"/d"},{"op":"test","path":"/d","value":1}]`), rf("r")}, ""},
		{"ok: empty patch", []string{rs("r"), delta(`[]`), rf("r")}, ""},
		{"unknown op", []string{rs("r"), delta(`[{"op":"set","path":"/a","value":1}]`), rf("r")}, "payload-malformed error 1"},
		{"path without a leading slash", []string{rs("r"), delta(`[{"op":"add","path":"a","value":1}]`), rf("r")}, "payload-malformed error 1"},
		{"add without value", []string{rs("r"), delta(`[{"op":"add","path":"/a"}]`), rf("r")}, "payload-malformed error 1"},
		{"move without from", []string{rs("r"), delta(`[{"op":"move","path":"/a"}]`), rf("r")}, "payload-malformed error 1"},
		{"operation not an object", []string{rs("r"), delta(`[["add","/a",1]]`), rf("r")}, "payload-malformed error 1"},
		{"activity patch", []string{rs("r"), `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"PLAN","patch":[{"path":"/x","value":1}]}`, rf("r")}, "payload-malformed error 1"},
	})
}

// TestUsage: RUN_FINISHED and RUN_ERROR carry usage (TokenUsageSchema,
// one entry per model); the run's output tokens are their outputTokens
// summed (reasoningTokens are a part of them). Frames arrive 10 ms apart,
// so the runs are timed.
func TestUsage(t *testing.T) {
	body := sse(rs("r1"), tms("m"), tmc("m", "hi"), tme("m"),
		`{"type":"RUN_FINISHED","threadId":"th-1","runId":"r1","usage":[{"model":"a","outputTokens":7,"reasoningTokens":3},{"model":"b","inputTokens":5,"outputTokens":2}]}`,
		rs("r2"), tms("m2"), tmc("m2", "a"), tme("m2"), `{"type":"RUN_ERROR","message":"x","usage":[{"outputTokens":4}]}`,
		rs("r3"), tms("m3"), tmc("m3", "b"), tme("m3"), rf("r3"))
	chk := Dialect.NewChecker(invariants.Options{TTFE: -1})
	var dec decode.Decoder
	i := 0
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			chk.Observe(dec.Decode(ev, time.Duration(i)*10*time.Millisecond, true))
			i++
		}
	}
	fr.Feed([]byte(body), emit)
	fr.Close(emit)
	chk.End(invariants.End{Kind: invariants.EndEOF})
	turns := chk.Turns()
	if len(turns) != 3 {
		t.Fatalf("turns %+v", turns)
	}
	for i, want := range []int64{9, 4, -1} {
		tm := turns[i].Timing
		if got := tm.OutputTokens; (want < 0 && tm.HasUsage) || (want >= 0 && (!tm.HasUsage || got != want)) {
			t.Errorf("run %d: usage %v %d, want %d", i+1, tm.HasUsage, got, want)
		}
	}
}

// TestDoneBreaksTheRun: parseSSEStream JSON.parses every event's data, so
// an OpenAI-style [DONE] after RUN_FINISHED errors the run: frame-json,
// one alarm (not event-unknown, not after-terminal).
func TestDoneBreaksTheRun(t *testing.T) {
	body := sse(rs("r"), rf("r")) + "data: [DONE]\n\n"
	if got, want := alarms(body), "frame-json error 2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
