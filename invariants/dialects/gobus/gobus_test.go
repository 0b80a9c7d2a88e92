package gobus

import (
	"fmt"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// valid is one turn as the reference SSE handler writes it (data: without
// a space, no event: field): a control patch, turn_started, two model calls
// around a tool call, the assistant message, usage, turn_completed and a
// conversation meta update after it.
const valid = `data:{"id":"t-7f3a","streamId":"c-91b2","conversationId":"c-91b2","messageId":"u-0c4e","eventSeq":41,"type":"control","op":"turn_started","patch":{"status":"running","userMessageId":"u-0c4e"},"createdAt":"2025-06-02T09:14:03.118Z"}

data:{"id":"t-7f3a","streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"u-0c4e","eventSeq":42,"type":"turn_started","status":"running","userMessageId":"u-0c4e","createdAt":"2025-06-02T09:14:03.118Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-51d0","eventSeq":43,"assistantMessageId":"a-51d0","type":"model_started","status":"running","iteration":1,"modelCallId":"a-51d0","provider":"openai","modelName":"gpt-4.1","createdAt":"2025-06-02T09:14:03.402Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-51d0","eventSeq":44,"type":"text_delta","content":"Let me check the disk usage.","createdAt":"2025-06-02T09:14:04.010Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-51d0","eventSeq":45,"type":"tool_calls_planned","toolCallsPlanned":[{"toolCallId":"call_Qx1","toolName":"system/exec:execute"}],"createdAt":"2025-06-02T09:14:04.233Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-51d0","eventSeq":46,"assistantMessageId":"a-51d0","type":"model_completed","status":"completed","iteration":1,"modelCallId":"a-51d0","createdAt":"2025-06-02T09:14:04.240Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"tm-88a1","eventSeq":47,"toolCallId":"call_Qx1","toolMessageId":"tm-88a1","type":"tool_call_started","toolName":"system/exec:execute","arguments":{"commands":["df -h /"]},"status":"running","createdAt":"2025-06-02T09:14:04.251Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"n-02","eventSeq":48,"toolCallId":"call_Qx1","type":"narration","content":"Running df on the root volume…","narrationSource":"narrator","createdAt":"2025-06-02T09:14:04.700Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"tm-88a1","eventSeq":49,"toolCallId":"call_Qx1","toolMessageId":"tm-88a1","type":"tool_call_completed","toolName":"system/exec:execute","status":"completed","createdAt":"2025-06-02T09:14:05.020Z","completedAt":"2025-06-02T09:14:05.019Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-6e77","eventSeq":50,"assistantMessageId":"a-6e77","type":"model_started","status":"running","iteration":2,"modelCallId":"a-6e77","provider":"openai","modelName":"gpt-4.1","createdAt":"2025-06-02T09:14:05.100Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-6e77","eventSeq":51,"type":"text_delta","content":"The root volume is 71% full ","createdAt":"2025-06-02T09:14:05.640Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-6e77","eventSeq":52,"type":"text_delta","content":"(58G of 82G used).","createdAt":"2025-06-02T09:14:05.702Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-6e77","eventSeq":53,"assistantMessageId":"a-6e77","type":"model_completed","status":"completed","iteration":2,"modelCallId":"a-6e77","createdAt":"2025-06-02T09:14:05.810Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"a-6e77","eventSeq":54,"type":"assistant","content":"The root volume is 71% full (58G of 82G used).","mode":"task","patch":{"role":"assistant","status":"completed","sequence":3},"createdAt":"2025-06-02T09:14:05.811Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","eventSeq":55,"type":"usage","usageInputTokens":1840,"usageOutputTokens":96,"usageTotalTokens":1936,"createdAt":"2025-06-02T09:14:05.820Z"}

data:{"id":"t-7f3a","streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","messageId":"u-0c4e","eventSeq":56,"type":"turn_completed","status":"completed","userMessageId":"u-0c4e","createdAt":"2025-06-02T09:14:05.830Z"}

data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-7f3a","eventSeq":57,"type":"conversation_meta_updated","patch":{"title":"Disk usage on the build host"},"createdAt":"2025-06-02T09:14:06.002Z"}

`

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 || len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	seq := func(n string) string { return `seq key="c-91b2" name="eventSeq" seq=` + n }
	want := []string{
		seq("41"),
		seq("42") + `; turn-start key="t-7f3a"`,
		seq("43") + `; span-open span=model call key="a-51d0" name="gpt-4.1"`,
		seq("44") + `; text key="a-51d0" text="Let me check the disk usage."`,
		seq("45"),
		seq("46") + `; span-close span=model call key="a-51d0"`,
		seq("47") + `; tool-open key="call_Qx1" name="system/exec:execute"`,
		seq("48") + `; progress text="Running df on the root volume…"`,
		seq("49") + `; tool-close key="call_Qx1" name="system/exec:execute" outcome=completed`,
		seq("50") + `; span-open span=model call key="a-6e77" name="gpt-4.1"`,
		seq("51") + `; text key="a-6e77" text="The root volume is 71% full "`,
		seq("52") + `; text key="a-6e77" text="(58G of 82G used)."`,
		seq("53") + `; span-close span=model call key="a-6e77"`,
		seq("54"), // the assistant row repeats the streamed deltas: no text twice
		seq("55"),
		seq("56") + `; terminal name="turn_completed" outcome=completed`,
		seq("57"),
	}
	if len(res.Moves) != len(want) {
		t.Fatalf("%d frames, want %d", len(res.Moves), len(want))
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "turn_completed" ||
		res.Turns[0].ResponseID != "t-7f3a" {
		t.Errorf("turns %+v", res.Turns)
	}
}

// ev renders one frame the way the reference handler does.
func ev(fields string) string { return "data:{" + fields + "}\n\n" }

const env = `"streamId":"c1","conversationId":"c1",`

func TestMoves(t *testing.T) {
	for _, tc := range []struct{ frame, want string }{
		{ev(`"type":"turn_failed","turnId":"t1","error":"llm: 429"`), `terminal key=? name="turn_failed" text="llm: 429" outcome=failed`},
		{ev(`"type":"turn_canceled","turnId":"t1"`), `terminal name="turn_canceled" outcome=cancelled`},
		{ev(`"type":"turn_queued","turnId":"t2","queueSeq":1`), `progress`},
		{ev(`"type":"reasoning_delta","turnId":"t1","messageId":"m","content":"hm"`), `reasoning key="m" text="hm"`},
		{ev(`"type":"error","turnId":"t1","error":"boom"`), `error text="boom"`},
		{ev(`"type":"skill_started","turnId":"t1","skillExecutionId":"s","skillName":"pdf"`), `span-open span=skill key="s" name="pdf"`},
		{ev(`"type":"skill_completed","turnId":"t1","skillExecutionId":"s"`), `span-close span=skill key="s"`},
		{ev(`"type":"elicitation_requested","turnId":"t1","elicitationId":"e"`), `span-open span=elicitation key="e"`},
		{ev(`"type":"elicitation_resolved","turnId":"t1","elicitationId":"e"`), `span-close span=elicitation key="e"`},
		{ev(`"type":"tool_call_waiting","turnId":"t1","toolCallId":"k"`), `tool-args key="k"`},
		{ev(`"type":"tool_call_delta","turnId":"t1","toolCallId":"k","content":"{\"a\""`), `tool-args key="k" text="{\"a\""`},
		{ev(`"type":"tool_call_failed","turnId":"t1","operationId":"op"`), `tool-close key="op" outcome=failed`},
		{ev(`"type":"tool_call_canceled","turnId":"t1","toolCallId":"k","toolName":"x"`), `tool-close key="k" name="x" outcome=cancelled`},
		{ev(`"type":"model_started","turnId":"t1","assistantMessageId":"a","model":{"model":"o3"}`), `span-open span=model call key="a" name="o3"`},
		{ev(`"type":"stream_overflow","eventSeq":9,` + env + `"status":"overflow"`), `cut`},
		{ev(`"type":"planner.selected","turnId":"t1"`), ``},
	} {
		res := dialecttest.Run(Dialect, tc.frame)
		got := strings.Join(res.Moves[0], "; ")
		want := strings.Replace(tc.want, ` key=?`, ``, 1)
		if got != want {
			t.Errorf("%s: moves %q, want %q", strings.TrimSpace(tc.frame), got, want)
		}
	}
}

// rule cases: each fires on the frame named, and its near miss is clean.
var ruleCases = []struct {
	name, body string
	want       []string
}{
	{"clean turn", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"start-missing: first frame of a turn is not turn_started",
		ev(`"type":"text_delta","turnId":"t1","content":"a"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"start-missing error 0"}},
	{"start-missing near miss: a stream-level frame first",
		ev(`"type":"control","op":"turn_started","turnId":"t1"`) + ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"start-duplicate: the runtime re-enters an open turn (info)", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"start-duplicate info 1"}},
	// agently-core sdk/embedded_queue.go continueQueueConversation: after a
	// tool approval the turn, left waiting_for_user without a terminal, runs
	// again under the same id (control + turn_started once more).
	{"approval continuation re-enters the turn", ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"system/os:getEnv","status":"waiting_for_user"`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","toolName":"system/os:getEnv","status":"completed"`) +
		ev(`"type":"control","op":"turn_started","turnId":"t1"`) + ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"type":"model_started","turnId":"t1","modelCallId":"m2"`) + ev(`"type":"text_delta","turnId":"t1","messageId":"m2","content":"HOME is /root"`) +
		ev(`"type":"model_completed","turnId":"t1","modelCallId":"m2"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"start-duplicate info 4"}},
	// agently-core service/agent/run_queue.go registerTurnCancel publishes
	// turn_canceled at once; finalizeTurn (run_turn.go) publishes it again
	// after the in-flight calls wind down.
	{"cancel: the wind-down and the second turn_canceled", ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"type":"model_started","turnId":"t1","modelCallId":"m1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) +
		ev(`"type":"turn_canceled","turnId":"t1","status":"canceled"`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","toolName":"x","status":"canceled"`) +
		ev(`"type":"model_completed","turnId":"t1","modelCallId":"m1","status":"canceled"`) +
		ev(`"type":"turn_canceled","turnId":"t1","status":"canceled"`) + ev(`"type":"usage","turnId":"t1"`), nil},
	{"after-terminal near miss fires after turn_completed, not after turn_canceled", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_canceled","turnId":"t1"`) +
		ev(`"type":"turn_started","turnId":"t2"`) + ev(`"type":"turn_completed","turnId":"t2"`) + ev(`"type":"turn_canceled","turnId":"t2"`),
		[]string{"after-terminal error 4", "terminal-duplicate error 4"}},
	// drainQueuedTurns (run_queue.go): a queued turn whose starter message
	// is gone fails without ever starting.
	{"a queued turn fails before it starts", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_queued","turnId":"t2"`) +
		ev(`"type":"turn_completed","turnId":"t1"`) + ev(`"type":"turn_failed","turnId":"t2","error":"queued starter message not found"`), nil},
	{"start-missing near miss fires without turn_queued", ev(`"type":"turn_failed","turnId":"t2"`), []string{"start-missing error 0"}},
	// service/shared/toolexec/async_tools.go: the async manager re-states
	// the start, and its poller reports after the call returned and after
	// the turn ended, with operationId.
	{"async tool: restated start, updates after the call and the turn ended", ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"system/exec:start","status":"running"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","operationId":"op1","toolName":"system/exec:start","status":"running"`) +
		ev(`"type":"tool_call_waiting","turnId":"t1","toolCallId":"k","operationId":"op1","toolName":"system/exec:start","status":"running"`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","toolName":"system/exec:start","status":"completed"`) +
		ev(`"type":"tool_call_waiting","turnId":"t1","toolCallId":"k","operationId":"op1","toolName":"system/exec:start","status":"running"`) +
		ev(`"type":"turn_completed","turnId":"t1"`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","operationId":"op1","toolName":"system/exec:start","status":"completed"`), nil},
	{"tool-duplicate near miss: a second start without operationId", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","toolName":"x"`) +
		ev(`"type":"tool_call_waiting","turnId":"t1","toolCallId":"k"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"tool-orphan error 3"}},
	{"two turns one after the other", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_queued","turnId":"t2"`) + ev(`"type":"turn_completed","turnId":"t1"`) +
		ev(`"type":"turn_started","turnId":"t2"`) + ev(`"type":"turn_canceled","turnId":"t2"`), nil},
	{"a turn id started again after its end opens a new turn", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`) +
		ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"terminal-missing", ev(`"type":"turn_started","turnId":"t1"`), []string{"terminal-missing error -"}},
	{"terminal without turnId is malformed and ends nothing", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed"`),
		[]string{"payload-malformed error 1", "terminal-missing error -"}},
	{"terminal-duplicate", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`) + ev(`"type":"turn_failed","turnId":"t1"`),
		[]string{"after-terminal error 2", "terminal-duplicate error 2"}},
	{"after-terminal", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`) + ev(`"type":"text_delta","turnId":"t1","content":"x"`),
		[]string{"after-terminal error 2"}},
	// sdk/canonical_reducer.go reduceFeedActive: feeds are conversation
	// state (an async tool's feed may land after the turn ended).
	{"tool feed events belong to the conversation", ev(`"type":"tool_feed_active","turnId":"t1","feedId":"f"`) + ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"type":"turn_completed","turnId":"t1"`) + ev(`"type":"tool_feed_inactive","turnId":"t1","feedId":"f"`), nil},
	{"after-terminal near miss: usage after the terminal", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`) + ev(`"type":"usage","turnId":"t1"`), nil},
	{"seq-order", ev(env+`"eventSeq":3,"type":"turn_started","turnId":"t1"`) + ev(env+`"eventSeq":3,"type":"turn_completed","turnId":"t1"`), []string{"seq-order error 1"}},
	{"seq-gap is a warn", ev(env+`"eventSeq":3,"type":"turn_started","turnId":"t1"`) + ev(env+`"eventSeq":5,"type":"turn_completed","turnId":"t1"`), []string{"seq-gap warn 1"}},
	{"seq counts per conversation", ev(env+`"eventSeq":3,"type":"turn_started","turnId":"t1"`) + ev(`"conversationId":"c2","eventSeq":1,"type":"usage"`) +
		ev(env+`"eventSeq":4,"type":"turn_completed","turnId":"t1"`), nil},
	{"stream-overflow", ev(env+`"eventSeq":3,"type":"turn_started","turnId":"t1"`) + ev(env+`"eventSeq":4,"type":"stream_overflow","status":"overflow"`),
		[]string{"stream-overflow warn 1", "terminal-missing info -"}},
	{"after the overflow", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"stream_overflow","eventSeq":1`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"after-terminal error 2", "stream-overflow warn 1", "terminal-missing info -"}},
	{"overflow eventSeq is exempt", ev(env+`"eventSeq":7,"type":"turn_started","turnId":"t1"`) + ev(env + `"eventSeq":7,"type":"turn_completed","turnId":"t1"`)[:0] +
		ev(env+`"eventSeq":8,"type":"turn_completed","turnId":"t1"`) + ev(env+`"eventSeq":2,"type":"stream_overflow"`), []string{"stream-overflow warn 2"}},
	{"field-deprecated", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"assistant","turnId":"t1","content":"x","finalResponse":true`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"field-deprecated warn 1"}},
	{"field-deprecated near miss: false", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"assistant","turnId":"t1","finalResponse":false`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"tool-orphan", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"tool-orphan error 1"}},
	{"tool_call_waiting while open is fine", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) +
		ev(`"type":"tool_call_waiting","turnId":"t1","toolCallId":"k"`) + ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","toolName":"x"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"tool_call_waiting orphan", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_waiting","turnId":"t1","toolCallId":"k"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"tool-orphan error 1"}},
	{"tool-mismatch", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k","toolName":"y"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"tool-mismatch error 2"}},
	{"tool-duplicate: another tool under the same id", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"y"`) + ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"tool-duplicate error 2"}},
	// service/skill/service.go: a skill's nested tool call is stated by
	// PatchToolCall (tool_call_started / tool_call_completed with status
	// failed) and again by publishNestedToolLifecycleEvent (tool_call_started
	// / tool_call_failed), under one toolCallId.
	{"skill nested tool: start and end stated twice", ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"skill-child:1","toolName":"system/exec:execute","status":"running"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"skill-child:1","toolName":"system/exec:execute","status":"running","arguments":{"commands":["ls"]}`) +
		ev(`"type":"tool_call_completed","turnId":"t1","toolCallId":"skill-child:1","toolName":"system/exec:execute","status":"failed"`) +
		ev(`"type":"tool_call_failed","turnId":"t1","toolCallId":"skill-child:1","toolName":"system/exec:execute","status":"failed","error":"exit 2"`) +
		ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"tool-malformed", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolName":"x"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"tool-malformed error 1"}},
	{"tool-unfinished", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"tool-unfinished error 2"}},
	{"tool-unfinished before a failure is a warn", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) + ev(`"type":"turn_failed","turnId":"t1"`),
		[]string{"tool-unfinished warn 2"}},
	// agently-core@7a3a757: beginModelCall patches "thinking", the first
	// chunk "streaming" (two model_started, no modelCallId yet), finalize
	// sets the TraceID: model_completed carries the response id as
	// modelCallId. The calls pair by messageId (chatStore onModelStarted).
	{"model call as the runtime states it: two starts, the response id only at the end", ev(`"type":"turn_started","turnId":"t1"`) +
		ev(`"id":"m1","turnId":"t1","messageId":"m1","pageId":"m1","type":"model_started","status":"thinking","provider":"openai","modelName":"gpt-5"`) +
		ev(`"id":"m1","turnId":"t1","messageId":"m1","pageId":"m1","type":"model_started","status":"streaming","provider":"openai","modelName":"gpt-5"`) +
		ev(`"id":"m1","turnId":"t1","messageId":"m1","type":"text_delta","content":"hi","modelCallId":"m1"`) +
		ev(`"id":"m1","turnId":"t1","messageId":"m1","pageId":"m1","type":"model_completed","status":"completed","modelCallId":"resp_0a1","provider":"openai","modelName":"gpt-5"`) +
		ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"span-orphan", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"model_completed","turnId":"t1","modelCallId":"m"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"span-orphan error 1"}},
	{"span-duplicate", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"skill_started","turnId":"t1","skillExecutionId":"s"`) + ev(`"type":"skill_started","turnId":"t1","skillExecutionId":"s"`) +
		ev(`"type":"skill_completed","turnId":"t1","skillExecutionId":"s"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"span-duplicate error 2"}},
	{"span-unclosed", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"elicitation_requested","turnId":"t1","elicitationId":"e"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"span-unclosed error 2"}},
	{"span-unclosed at a failure is a warn", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"elicitation_requested","turnId":"t1","elicitationId":"e"`) + ev(`"type":"turn_failed","turnId":"t1"`),
		[]string{"span-unclosed warn 2"}},
	{"a cancel ends the calls in flight (the runtime winds them down after it)", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"elicitation_requested","turnId":"t1","elicitationId":"e"`) +
		ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","toolName":"x"`) + ev(`"type":"turn_canceled","turnId":"t1"`), nil},
	{"payload-malformed: eventSeq a string", ev(`"type":"turn_started","turnId":"t1","eventSeq":"4"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"payload-malformed: no type", ev(`"turnId":"t1","content":"x"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0", "start-missing error 0"}},
	{"payload-malformed: model_started without id", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"model_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`),
		[]string{"payload-malformed error 1"}},
	// runtime/streaming/event.go@7a3a757: ToolName, Error, Status string,
	// Iteration int, LatestPage bool, Arguments and Model objects,
	// ToolCallsPlanned a slice: each refuses another JSON type.
	{"payload-malformed: toolName a number", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"narration","turnId":"t1","toolCallId":"k","toolName":7`) +
		ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 1"}},
	{"payload-malformed: error an object", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_failed","turnId":"t1","error":{"message":"x"}`), []string{"payload-malformed error 1"}},
	{"payload-malformed: iteration a string", ev(`"type":"turn_started","turnId":"t1","iteration":"1"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"payload-malformed: finalResponse a string", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1","finalResponse":"true"`), []string{"payload-malformed error 1"}},
	{"payload-malformed: toolCallsPlanned an object", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_calls_planned","turnId":"t1","toolCallsPlanned":{}`) +
		ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 1"}},
	{"payload-malformed: arguments an array", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1","arguments":[1]`), []string{"payload-malformed error 1"}},
	{"payload-malformed near miss: null and unknown members", ev(`"type":"turn_started","turnId":"t1","error":null,"renderedContent":{"blocks":[]}`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"createdAt Go's own marshal", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02T09:14:03.118234567Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"createdAt whole seconds, offset", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02T09:14:03+05:30"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"createdAt null", ev(`"type":"turn_started","turnId":"t1","createdAt":null`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"createdAt space for T", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02 09:14:03Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt lower-case t", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02t09:14:03Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt no zone", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02T09:14:03.118"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt lower-case z", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02T09:14:03z"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt comma fraction: time.Parse takes it", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02T09:14:03,118Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), nil},
	{"createdAt leap second", ev(`"type":"turn_started","turnId":"t1","createdAt":"2016-12-31T23:59:60Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt offset without colon", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-06-02T09:14:03+0530"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt February 30", ev(`"type":"turn_started","turnId":"t1","createdAt":"2025-02-30T09:14:03Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt escaped digit", ev(`"type":"turn_started","turnId":"t1","createdAt":"\u0032025-06-02T09:14:03Z"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"createdAt a number", ev(`"type":"turn_started","turnId":"t1","createdAt":1748855643`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"completedAt refused", ev(`"type":"turn_started","turnId":"t1","completedAt":"yesterday"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"payload-malformed error 0"}},
	{"event-unknown", ev(`"type":"turn_started","turnId":"t1"`) + ev(`"type":"tool_result","turnId":"t1"`) + ev(`"type":"turn_completed","turnId":"t1"`), []string{"event-unknown info 1"}},
	{"frame-json", ev(`"type":"turn_started","turnId":"t1"`) + "data:{\"type\":\n\n" + ev(`"type":"turn_completed","turnId":"t1"`), []string{"frame-json error 1"}},
	idLimitCase(),
}

// idLimitCase: a turn opening MaxOpenIDs+1 tool calls raises id-limit at
// the one past the bound; the untracked call's completion is no orphan,
// the tracked ones are unfinished at the terminal, the flood is not.
func idLimitCase() (c struct {
	name, body string
	want       []string
}) {
	c.name = "id-limit: one tool call past the bound"
	var b strings.Builder
	b.WriteString(ev(`"type":"turn_started","turnId":"t1"`))
	n := invariants.MaxOpenIDs + 1
	for i := range n {
		b.WriteString(ev(fmt.Sprintf(`"type":"tool_call_started","turnId":"t1","toolCallId":"k%d","toolName":"x"`, i)))
	}
	b.WriteString(ev(fmt.Sprintf(`"type":"tool_call_completed","turnId":"t1","toolCallId":"k%d","toolName":"x"`, n-1)))
	b.WriteString(ev(`"type":"turn_completed","turnId":"t1"`))
	c.body = b.String()
	c.want = append(c.want, fmt.Sprintf("id-limit warn %d", n))
	for range n - 1 {
		c.want = append(c.want, fmt.Sprintf("tool-unfinished error %d", n+2))
	}
	return c
}

func TestRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			got := dialecttest.Lines(res.Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
				for _, a := range res.Alarms {
					t.Logf("  %s %s %d: %s", a.Rule, a.Severity, a.Frame, a.Message)
				}
			}
		})
	}
}

// TestEveryRuleTested: each rule the dialect lists (but the transport ones)
// fires in some case above.
func TestEveryRuleTested(t *testing.T) {
	fired := map[string]bool{}
	for _, tc := range ruleCases {
		for _, w := range tc.want {
			fired[strings.Fields(w)[0]] = true
		}
	}
	transport := map[string]bool{}
	for _, r := range invariants.Transport {
		transport[r] = true
	}
	for _, r := range invariants.Delivery { // timed: invariants/timing_test.go
		transport[r] = true
	}
	for _, r := range Dialect.Rules() {
		if !transport[r.Name] && !fired[r.Name] {
			t.Errorf("rule %s is never fired by a test case", r.Name)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		frame string
		want  invariants.Verdict
	}{
		{`{"type":"turn_started","turnId":"t1"}`, invariants.Yes},
		{`{"type":"text_delta","eventSeq":4,"content":"a"}`, invariants.Yes},
		{`{"type":"error","streamId":"c1","error":"boom"}`, invariants.Yes},
		{`{"type":"text_delta","content":"a"}`, invariants.Maybe},
		{`{"type":"usage"}`, invariants.Maybe},
		{`{"type":"error","error":"x"}`, invariants.Maybe},
		{`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`, invariants.No},
		{`{"type":"error","error":{"code":"TIMEOUT","message":"x"}}`, invariants.No},
		{`{"type":"ping"}`, invariants.No},
		{`{"type":"text","delta":"a"}`, invariants.No},
		{`{"type":"text-delta","id":"0","delta":"a"}`, invariants.No},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, invariants.No},
		{`{"type":"message_start","message":{}}`, invariants.No},
		{`{"type":"response.created","sequence_number":0}`, invariants.No},
		{`{"event_type":"text","version":"0.5","response_id":"r"}`, invariants.No},
	} {
		ev := &decode.Event{Data: []byte(tc.frame), Raw: []byte("data:" + tc.frame + "\n\n"), HasData: true}
		if got := sniff(decode.DecodeFrame(ev, 0), invariants.Keys{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.frame, got, tc.want)
		}
	}
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, ev(`"type":"text_delta","content":"a"`)); got != nil {
		t.Errorf("one bare text_delta decided %s; it is ambiguous", got.Name())
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
}

// TestMutations: dropping, duplicating or moving one frame of the valid
// stream is always reported.
func TestMutations(t *testing.T) {
	bs := dialecttest.Blocks(valid)
	check := func(name, body string) {
		t.Helper()
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no error or warn", name)
		}
	}
	for name, body := range dialecttest.TerminalMutations(valid, 15) {
		check(name, body)
	}
	for i := range bs {
		// Any frame dropped leaves a hole in eventSeq (but the last);
		// duplicated repeats it; swapped with its successor runs it back.
		if i > 0 && i < len(bs)-1 {
			check("drop "+label1(bs[i]), join(bs[:i], bs[i+1:]))
			check("swap "+label1(bs[i]), join(bs[:i], []string{bs[i+1], bs[i]}, bs[i+2:]))
		}
		check("duplicate "+label1(bs[i]), join(bs[:i+1], bs[i:]))
	}
	// Without eventSeq the structure alone must still tell.
	noSeq := stripSeq(valid)
	nb := dialecttest.Blocks(noSeq)
	for _, i := range []int{1, 2, 5, 6, 8, 15} {
		check("no eventSeq, drop "+label1(nb[i]), join(nb[:i], nb[i+1:]))
	}
	check("no eventSeq, turn_completed first", join(nb[15:16], nb[:15], nb[16:]))
	check("no eventSeq, tool_call_completed before its start", join(nb[:6], nb[8:9], nb[6:8], nb[9:]))
}

func join(parts ...[]string) string {
	var b strings.Builder
	for _, p := range parts {
		for _, s := range p {
			b.WriteString(s)
		}
	}
	return b.String()
}

func label1(block string) string {
	i := strings.Index(block, `"type":"`)
	if i < 0 {
		return "?"
	}
	rest := block[i+8:]
	return rest[:strings.IndexByte(rest, '"')]
}

func stripSeq(body string) string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if i := strings.Index(line, `"eventSeq":`); i >= 0 {
			j := strings.IndexByte(line[i:], ',')
			line = line[:i] + line[i+j+1:]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// TestMapAllocs: mapping a valid frame allocates nothing.
func TestMapAllocs(t *testing.T) {
	var frames []*decode.Frame
	fr := decode.NewFramer()
	fr.Feed([]byte(valid), func(e *decode.Event) {
		if e.Dispatched() {
			c := e.Clone()
			frames = append(frames, decode.DecodeFrame(&c, len(frames)))
		}
	})
	p := &mapper{}
	var m invariants.Mapping
	for _, f := range frames {
		p.Map(f, &m)
	}
	allocs := testing.AllocsPerRun(20, func() {
		for _, f := range frames {
			m.Moves = m.Moves[:0]
			m.Turn, m.Stream, m.Unknown, m.Type = nil, false, false, nil
			p.Map(f, &m)
		}
	})
	if allocs != 0 {
		t.Errorf("mapping the valid stream allocates %.1f times", allocs)
	}
}

func TestRulesListed(t *testing.T) {
	own := map[string]invariants.Severity{}
	for _, r := range Dialect.Own {
		own[r.Name] = r.Severity
	}
	if own["stream-overflow"] != invariants.SevWarn || own["field-deprecated"] != invariants.SevWarn {
		t.Errorf("own rules %v", own)
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		ev(`"type":"turn_started","turnId":"t1","eventSeq":1`)+ev(`"type":"tool_call_started","turnId":"t1","toolCallId":"k","eventSeq":2`),
		ev(`"type":"stream_overflow","eventSeq":99999999999999999999`)+ev(`"type":"model_completed","turnId":"t1","modelCallId":5`),
		"data:{\"type\":\"turn_completed\",\"turnId\":\"\xff\"}\n\n",
	)
}
