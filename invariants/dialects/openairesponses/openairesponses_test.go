package openairesponses

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// build writes an SSE body: each frame is a JSON object without its
// sequence_number, which build numbers from start on and names in an SSE
// event: line, as OpenAI sends it. A frame starting with "!" is written
// as is (a raw block, its blank line included).
func build(start int, frames ...string) string {
	var b strings.Builder
	n := start
	for _, f := range frames {
		if raw, ok := strings.CutPrefix(f, "!"); ok {
			b.WriteString(raw)
			continue
		}
		var head struct{ Type string }
		_ = json.Unmarshal([]byte(f), &head)
		fmt.Fprintf(&b, "event: %s\ndata: %s,\"sequence_number\":%d}\n\n", head.Type, f[:len(f)-1], n)
		n++
	}
	return b.String()
}

const (
	created    = `{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`
	inProgress = `{"type":"response.in_progress","response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}`
	completed  = `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[]}}`
	failed     = `{"type":"response.failed","response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"boom"}}}`
	incomplete = `{"type":"response.incomplete","response":{"id":"resp_1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`
	errorEv    = `{"type":"error","code":"server_error","message":"The server had an error","param":null}`

	rsAdded       = `{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`
	sumAdded      = `{"type":"response.reasoning_summary_part.added","item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}`
	sumDelta      = `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Thinking"}`
	sumDone       = `{"type":"response.reasoning_summary_text.done","item_id":"rs_1","output_index":0,"summary_index":0,"text":"Thinking"}`
	sumPDone      = `{"type":"response.reasoning_summary_part.done","item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"Thinking"}}`
	rsDone        = `{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`
	msgAdded      = `{"type":"response.output_item.added","output_index":1,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}}`
	partAdded     = `{"type":"response.content_part.added","item_id":"msg_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`
	textDelta     = `{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"Hi","logprobs":[]}`
	textDone      = `{"type":"response.output_text.done","item_id":"msg_1","output_index":1,"content_index":0,"text":"Hi","logprobs":[]}`
	partDone      = `{"type":"response.content_part.done","item_id":"msg_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"Hi","annotations":[]}}`
	msgDone       = `{"type":"response.output_item.done","output_index":1,"item":{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[]}}`
	fcAdded       = `{"type":"response.output_item.added","output_index":2,"item":{"id":"fc_1","type":"function_call","status":"in_progress","call_id":"call_1","name":"get_weather","arguments":""}}`
	fcDelta       = `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":2,"delta":"{\"city\":\"Oslo\"}"}`
	fcArgDone     = `{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":2,"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}`
	fcDone        = `{"type":"response.output_item.done","output_index":2,"item":{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}`
	wsAdded       = `{"type":"response.output_item.added","output_index":0,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress"}}`
	wsProg        = `{"type":"response.web_search_call.in_progress","item_id":"ws_1","output_index":0}`
	wsSearch      = `{"type":"response.web_search_call.searching","item_id":"ws_1","output_index":0}`
	wsComp        = `{"type":"response.web_search_call.completed","item_id":"ws_1","output_index":0}`
	vllmPartAdded = `{"type":"response.reasoning_part.added","item_id":"rs_1","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":""}}`
	vllmDelta     = `{"type":"response.reasoning_text.delta","item_id":"rs_1","output_index":0,"content_index":0,"delta":"Let me think"}`
	vllmDone      = `{"type":"response.reasoning_text.done","item_id":"rs_1","output_index":0,"content_index":0,"text":"Let me think"}`
	vllmPartDone  = `{"type":"response.reasoning_part.done","item_id":"rs_1","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":"Let me think"}}`
	wsDone        = `{"type":"response.output_item.done","output_index":0,"item":{"id":"ws_1","type":"web_search_call","status":"completed","action":{"type":"search","query":"q"}}}`
)

// valid: reasoning summary, a message, a function call, 20 frames.
var validFrames = []string{created, inProgress, rsAdded, sumAdded, sumDelta, sumDone, sumPDone, rsDone,
	msgAdded, partAdded, textDelta, textDone, partDone, msgDone, fcAdded, fcDelta, fcArgDone, fcDone, completed}

var valid = build(0, validFrames...)

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 || len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	seq := func(n int) string { return fmt.Sprintf(`seq key="sequence_number" seq=%d`, n) }
	want := []string{
		seq(0) + `; turn-start key="resp_1"`,
		seq(1) + `; turn-key key="resp_1"; progress text="in progress"`,
		seq(2) + `; span-open span=item key=0 name="reasoning"`,
		seq(3) + `; span-open span=reasoning key=[0,0] name="summary_text"`,
		seq(4) + `; reasoning span=reasoning key=[0,0] text="Thinking"`,
		seq(5),
		seq(6) + `; span-close span=reasoning key=[0,0]`,
		seq(7) + `; span-close span=item key=0`,
		seq(8) + `; span-open span=item key=1 name="message"`,
		seq(9) + `; span-open span=part key=[1,0] name="output_text"`,
		seq(10) + `; text span=part key=[1,0] text="Hi"`,
		seq(11),
		seq(12) + `; span-close span=part key=[1,0]`,
		seq(13) + `; span-close span=item key=1`,
		seq(14) + `; span-open span=item key=2 name="function_call"; tool-open key="call_1" name="get_weather"`,
		seq(15) + `; tool-args key="call_1" text="{\"city\":\"Oslo\"}"`,
		seq(16),
		seq(17) + `; tool-ready key="call_1"; span-close span=item key=2`,
		seq(18) + `; turn-key key="resp_1"; terminal name="response.completed" outcome=completed`,
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "response.completed" || res.Turns[0].ResponseID != "resp_1" {
		t.Errorf("turns %+v", res.Turns)
	}
}

func TestHostedTool(t *testing.T) {
	res := dialecttest.Run(Dialect, build(0, created, wsAdded, wsProg, wsSearch, wsComp, wsDone, completed))
	if len(res.Alarms) != 0 {
		t.Fatalf("hosted tool stream raises %v", dialecttest.Lines(res.Alarms))
	}
	want := map[int]string{
		1: `span-open span=item key=0 name="web_search_call"; tool-open key="ws_1" name="web_search_call"`,
		3: `progress text="web search: searching"`,
		4: `tool-close key="ws_1" outcome=completed`,
		5: `span-close span=item key=0`,
	}
	for i, w := range want {
		if got := strings.Join(res.Moves[i][1:], "; "); got != w {
			t.Errorf("frame %d moves %q, want %q", i, got, w)
		}
	}
}

func TestRules(t *testing.T) {
	msg := []string{msgAdded, partAdded, textDelta, textDone, partDone, msgDone}
	with := func(frames ...[]string) []string {
		var out []string
		for _, f := range frames {
			out = append(out, f...)
		}
		return out
	}
	one := func(fs ...string) []string { return fs }
	for _, tc := range []struct {
		name string
		body string
		want []string
	}{
		// terminals
		{"completed", build(0, created, completed), nil},
		{"failed", build(0, created, inProgress, failed), nil},
		{"incomplete", build(0, created, incomplete), nil},
		{"error then response.failed (as OpenAI sends it)", build(0, created, inProgress, errorEv, failed), nil},
		{"nested error object then response.failed", build(0, created, `{"type":"error","error":{"type":"insufficient_quota","code":"insufficient_quota","message":"quota","param":null}}`, failed), nil},
		{"error alone ends the response", build(0, created, errorEv), nil},
		{"error before anything", build(0, errorEv), nil},
		{"error then completed", build(0, created, errorEv, completed), []string{"after-terminal error 2"}},
		{"error then delta", build(0, created, errorEv, inProgress), []string{"after-terminal error 2"}},
		{"two errors", build(0, created, errorEv, errorEv), []string{"after-terminal error 2", "terminal-duplicate error 2"}},
		{"no terminal", build(0, created, inProgress), []string{"terminal-missing error -"}},
		{"two terminals", build(0, created, completed, completed), []string{"after-terminal error 2", "terminal-duplicate error 2"}},
		{"late delta after the terminal: one alarm", build(0, created, msg0(msgAdded), msg0(partAdded), completed, msg0(textDelta)), []string{"after-terminal error 4", "span-unclosed error 3", "span-unclosed error 3"}},
		{"frame after terminal", build(0, created, completed, inProgress), []string{"after-terminal error 2"}},
		{"[DONE] is unknown", build(0, created, completed, "!data: [DONE]\n\n"), []string{"event-unknown info 2"}},
		// start
		{"start missing", build(0, inProgress, completed), []string{"start-missing error 0"}},
		{"start duplicate", build(0, created, created, completed), []string{"start-duplicate error 1"}},
		{"resume: first sequence_number above 0", build(7, textDelta, textDone, partDone, msgDone, completed), nil},
		{"resume then a new item", build(7, msgDone, rsAdded, rsDone, completed), []string{"output-index-order error 1"}},
		// sequence
		{"seq gap", build(0, created) + build(2, completed), []string{"seq-gap error 1"}},
		{"seq repeat", build(0, created) + build(0, completed), []string{"seq-order error 1"}},
		{"seq starts at 1 with created: nothing lost", build(1, created, completed), []string{"seq-gap warn 0"}},
		{"seq missing from the first frame: the shape before sequence_number", "event: response.created\ndata: " + created + "\n\n" + "event: response.completed\ndata: " + completed + "\n\n", []string{"legacy-shape info 0"}},
		{"seq missing after the first frame", build(0, created) + "event: response.completed\ndata: " + completed + "\n\n", []string{"payload-malformed error 1"}},
		{"2025-05 reasoning_summary.delta, object delta", build(0, created, rsAdded, sumAdded, strings.Replace(strings.Replace(sumDelta, "summary_text.delta", "summary.delta", 1), `"Thinking"`, `{"text":"Thinking"}`, 1), strings.Replace(sumDone, "summary_text.done", "summary.done", 1), sumPDone, rsDone, completed), []string{"legacy-shape info 3"}},
		{"2025-05 reasoning_summary.delta outside its part", build(0, created, rsAdded, strings.Replace(sumDelta, "summary_text.delta", "summary.delta", 1), rsDone, completed), []string{"legacy-shape info 2", "span-orphan error 2"}},
		{"mcp_list_tools items without output_item.done, carried by completed: one warn", build(0, created, mcpl(0), mcplDone(0, "in_progress"), mcpl(1), mcplDone(1, "in_progress"), mcplDone(1, "completed"), mcplDone(0, "completed"), mcplItemDone(1), mcplCompleted), []string{"span-unclosed warn 8"}},
		{"mcp_list_tools items without output_item.done, not carried: error", build(0, created, mcpl(0), mcplDone(0, "in_progress"), mcpl(1), mcplDone(1, "in_progress"), mcplDone(1, "completed"), mcplDone(0, "completed"), mcplItemDone(1), completed), []string{"span-unclosed error 8"}},
		{"mcp_list_tools items without output_item.done, settled at failed", build(0, created, mcpl(0), mcplDone(0, "in_progress"), mcplDone(0, "completed"), failed), nil},
		{"mcp_list_tools item never completed", build(0, created, mcpl(0), mcplDone(0, "in_progress"), completed), []string{"span-unclosed error 3"}},
		{"seq fraction", "event: response.created\ndata: " + created[:len(created)-1] + `,"sequence_number":0.5}` + "\n\n" + build(1, completed), []string{"payload-malformed error 0"}},
		// spans
		{"span orphan delta", build(0, created, textDelta, completed), []string{"span-orphan error 1"}},
		{"span orphan part delta", build(0, created, msgAdded, textDelta, msgDone, completed), []string{"output-index-order error 1", "span-orphan error 2"}},
		{"summary text without its part (Ollama): one alarm for the item", build(0, created, rsAdded, sumDelta, sumDelta, sumDelta, sumDone, rsDone, completed), []string{"span-orphan error 2"}},
		{"text deltas without their part: one alarm for the item", build(0, created, msg0(msgAdded), msg0(textDelta), msg0(textDelta), msg0(textDone), msg0(partDone), msg0(msgDone), completed), []string{"span-orphan error 2"}},
		{"span orphan item done", build(0, created, msgDone, completed), []string{"span-orphan error 1"}},
		{"span unclosed", build(0, created, rsAdded, completed), []string{"span-unclosed error 2"}},
		{"span unclosed before failure", build(0, created, rsAdded, failed), []string{"span-unclosed warn 2"}},
		{"span duplicate", build(0, created, rsAdded, rsAdded, rsDone, completed), []string{"span-duplicate error 2"}},
		{"span mismatch: text into refusal part", build(0, created, msg0(msgAdded), refusal(msg0(partAdded)), msg0(textDelta), refusal(msg0(partDone)), msg0(msgDone), completed), []string{"span-mismatch error 3"}},
		{"refusal", build(0, created, msg0(msgAdded), refusal(msg0(partAdded)), `{"type":"response.refusal.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"No."}`, refusal(msg0(partDone)), msg0(msgDone), completed), nil},
		{"span mismatch: arguments into a message", build(0, created, msg0(msgAdded), `{"type":"response.function_call_arguments.delta","item_id":"msg_1","output_index":0,"delta":"{}"}`, msg0(msgDone), completed), []string{"span-mismatch error 2"}},
		// tools
		{"function call unanswered at completed is legal", build(0, created, strings.ReplaceAll(fcAdded, `"output_index":2`, `"output_index":0`), strings.ReplaceAll(fcDone, `"output_index":2`, `"output_index":0`), completed), nil},
		{"function call open at completed", build(0, created, strings.ReplaceAll(fcAdded, `"output_index":2`, `"output_index":0`), completed), []string{"span-unclosed error 2", "tool-unfinished error 2"}},
		{"function call without call_id", build(0, created, `{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","name":"f","arguments":""}}`, `{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","name":"f","arguments":""}}`, completed), []string{"tool-malformed error 1"}},
		{"function call without name", build(0, created, `{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"c","arguments":""}}`, `{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"c","arguments":""}}`, completed), []string{"tool-malformed error 1"}},
		{"function call renamed at done", build(0, created, strings.ReplaceAll(fcAdded, `"output_index":2`, `"output_index":0`), strings.ReplaceAll(strings.ReplaceAll(fcDone, `"output_index":2`, `"output_index":0`), `"name":"get_weather"`, `"name":"get_time"`), completed), []string{"tool-mismatch error 2"}},
		{"two calls with one call_id", build(0, created, strings.ReplaceAll(fcAdded, `"output_index":2`, `"output_index":0`), strings.ReplaceAll(fcDone, `"output_index":2`, `"output_index":0`), strings.ReplaceAll(fcAdded, `"output_index":2`, `"output_index":1`), strings.ReplaceAll(fcDone, `"output_index":2`, `"output_index":1`), completed), []string{"tool-duplicate error 3"}},
		{"hosted status after its completion", build(0, created, wsAdded, wsComp, wsComp, wsDone, completed), []string{"tool-orphan error 3"}},
		{"hosted call open at completed", build(0, created, wsAdded, wsProg, completed), []string{"span-unclosed error 3", "tool-unfinished error 3"}},
		{"hosted call ends at its item's done", build(0, created, wsAdded, wsDone, completed), nil},
		// envelope
		{"response id drift", build(0, created, strings.Replace(completed, "resp_1", "resp_2", 1)), []string{"envelope-drift warn 1"}},
		{"sse event mismatch", build(0, created) + "event: response.done\ndata: " + completed[:len(completed)-1] + `,"sequence_number":1}` + "\n\n", []string{"sse-event-mismatch warn 1"}},
		{"no event field is fine", "data: " + created[:len(created)-1] + `,"sequence_number":0}` + "\n\n", []string{"terminal-missing error -"}},
		{"unknown type", build(0, created, `{"type":"response.thinking.delta"}`, completed), []string{"event-unknown info 1"}},
		{"unknown type without sequence_number takes no number", build(0, created) + "event: response.vendor.note\ndata: {\"type\":\"response.vendor.note\"}\n\n" + build(1, completed), []string{"event-unknown info 1"}},
		{"vLLM reasoning_part.added / .done open and close the reasoning_text part", build(0, created, rsAdded, vllmPartAdded, vllmDelta, vllmDone, vllmPartDone, rsDone, completed), []string{"event-unknown info 2", "event-unknown info 5"}},
		{"keepalive", build(0, created, `{"type":"keepalive"}`, completed), nil},
		{"not JSON", build(0, created) + "data: {oops\n\n" + build(1, completed), []string{"frame-json error 1"}},
		// payload
		{"delta not a string", build(0, created, msg0(msgAdded), msg0(partAdded), strings.Replace(msg0(textDelta), `"delta":"Hi"`, `"delta":5`, 1), msg0(partDone), msg0(msgDone), completed), []string{"payload-malformed error 3"}},
		{"message item without id", build(0, created, `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","role":"assistant","content":[]}}`, `{"type":"response.output_item.done","output_index":0,"item":{"type":"message","role":"assistant","content":[]}}`, completed), []string{"payload-malformed error 1"}},
		{"function call without id", build(0, created, `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"f","arguments":""}}`, `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}}`, completed), []string{"payload-malformed error 1"}},
		{"one fault repeated by every delta: one alarm", build(0, created, msg0(msgAdded), msg0(partAdded), strings.Replace(msg0(textDelta), `"output_index":0,`, "", 1), strings.Replace(msg0(textDelta), `"output_index":0,`, "", 1), msg0(partDone), msg0(msgDone), completed), []string{"payload-malformed error 3"}},
		{"output_index missing", build(0, created, `{"type":"response.output_item.added","item":{"id":"x","type":"message"}}`, completed), []string{"payload-malformed error 1"}},
		{"response not an object", build(0, `{"type":"response.created","response":"resp_1"}`, completed), []string{"payload-malformed error 0"}},
		{"error without message", build(0, created, `{"type":"error","code":"x"}`), []string{"payload-malformed error 1"}},
		{"type missing", build(0, created) + "data: {\"sequence_number\":1}\n\n" + build(2, completed), []string{"payload-malformed error 1"}},
		// order
		{"output index skipped", build(0, created, rsAdded, rsDone, strings.ReplaceAll(msgAdded, `"output_index":1`, `"output_index":2`), strings.ReplaceAll(msgDone, `"output_index":1`, `"output_index":2`), completed), []string{"output-index-order error 3"}},
		{"content part skips an index", build(0, created, msg0(msgAdded), strings.Replace(msg0(partAdded), `"content_index":0`, `"content_index":1`, 1), strings.Replace(msg0(partDone), `"content_index":0`, `"content_index":1`, 1), msg0(msgDone), completed), []string{"part-index-order error 2"}},
		{"content part index reused after its done", build(0, created, msg0(msgAdded), msg0(partAdded), msg0(partDone), msg0(partAdded), msg0(partDone), msg0(msgDone), completed), []string{"part-index-order error 4"}},
		{"summary part skips an index", build(0, created, rsAdded, strings.Replace(sumAdded, `"summary_index":0`, `"summary_index":2`, 1), strings.Replace(sumPDone, `"summary_index":0`, `"summary_index":2`, 1), rsDone, completed), []string{"part-index-order error 2"}},
		{"two summary parts in order", build(0, created, rsAdded, sumAdded, sumPDone, strings.Replace(sumAdded, `"summary_index":0`, `"summary_index":1`, 1), strings.Replace(sumPDone, `"summary_index":0`, `"summary_index":1`, 1), rsDone, completed), nil},
		{"item_id of another item", build(0, created, msg0(msgAdded), msg0(partAdded), strings.Replace(msg0(textDelta), `"msg_1"`, `"msg_2"`, 1), strings.Replace(msg0(textDone), `"msg_1"`, `"msg_3"`, 1), msg0(partDone), msg0(msgDone), completed), []string{"span-mismatch error 3"}},
		{"item done with another id", build(0, created, msg0(msgAdded), msg0(partAdded), msg0(partDone), strings.Replace(msg0(msgDone), `"msg_1"`, `"msg_9"`, 1), completed), []string{"span-mismatch error 4"}},
		{"annotations in order", build(0, created, msg0(msgAdded), msg0(partAdded), ann(0), ann(1), ann(1), msg0(partDone), msg0(msgDone), completed), nil},
		{"annotation index skipped", build(0, created, msg0(msgAdded), msg0(partAdded), ann(0), ann(2), msg0(partDone), msg0(msgDone), completed), []string{"part-index-order error 4"}},
		{"annotation without annotation_index", build(0, created, msg0(msgAdded), msg0(partAdded), strings.Replace(ann(0), `"annotation_index":0,`, "", 1), msg0(partDone), msg0(msgDone), completed), []string{"payload-malformed error 3"}},
		{"msg in order", build(0, with(one(created, rsAdded, rsDone), msg, one(completed))...), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dialecttest.Lines(dialecttest.Run(Dialect, tc.body).Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
				for _, a := range dialecttest.Run(Dialect, tc.body).Alarms {
					t.Logf("  %s %s %d %s", a.Rule, a.Severity, a.Frame, a.Message)
				}
			}
		})
	}
}

func TestErrorOutcome(t *testing.T) {
	for _, tc := range []struct {
		name, body, event string
		frame             int
	}{
		{"confirmed", build(0, created, errorEv, failed), "response.failed", 2},
		{"alone", build(0, created, errorEv), "error", invariants.NoFrame},
	} {
		res := dialecttest.Run(Dialect, tc.body)
		if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnFailed || res.Turns[0].TerminalEvent != tc.event || res.Turns[0].TerminalFrame != tc.frame {
			t.Errorf("%s: turns %+v", tc.name, res.Turns)
		}
	}
}

func mcpl(oi int) string {
	return fmt.Sprintf(`{"type":"response.output_item.added","item":{"id":"mcpl_%d","type":"mcp_list_tools","server_label":"s%d","tools":[]},"output_index":%d}`, oi, oi, oi)
}

func mcplDone(oi int, phase string) string {
	return fmt.Sprintf(`{"type":"response.mcp_list_tools.%s","item_id":"mcpl_%d","output_index":%d}`, phase, oi, oi)
}

// mcplCompleted is response.completed whose output carries two
// mcp_list_tools items.
var mcplCompleted = `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[` +
	`{"id":"mcpl_0","type":"mcp_list_tools","server_label":"s0","tools":[]},{"id":"mcpl_1","type":"mcp_list_tools","server_label":"s1","tools":[]}]}}`

func mcplItemDone(oi int) string {
	return fmt.Sprintf(`{"type":"response.output_item.done","item":{"id":"mcpl_%d","type":"mcp_list_tools","server_label":"s%d","tools":[]},"output_index":%d}`, oi, oi, oi)
}

// TestFlavor: a flavor only where the stream names its server.
func TestFlavor(t *testing.T) {
	orCreated := `{"type":"response.created","response":{"object":"response","id":"gen-1764265411-Fu1iEX7h5MRWiL79lb94","status":"in_progress","output":[],"model":"openai/gpt-oss-20b"}}`
	orDone := `{"type":"response.completed","response":{"object":"response","id":"gen-1764265411-Fu1iEX7h5MRWiL79lb94","status":"completed","output":[],"usage":{"input_tokens":78,"output_tokens":37,"total_tokens":115,"cost":0.0000113,"is_byok":false}}}`
	xaiCreated := `{"type":"response.created","response":{"created_at":1763853500,"id":"769f3302-64f9-4c72-2b48-860c87fd9b2a","model":"grok-code-fast-1","object":"response","output":[],"status":"in_progress"}}`
	xaiDone := strings.Replace(xaiCreated, "response.created", "response.completed", 1)
	for _, tc := range []struct {
		name, body, want string
		forced           string
	}{
		{"openai", build(0, created, completed), "", ""},
		{"openrouter by its gen- id", build(0, orCreated, orDone), "openrouter", ""},
		{"openrouter resumed: is_byok at the end", build(5, orDone), "openrouter", ""},
		{"xai: grok model, UUID id", build(0, xaiCreated, xaiDone), "xai", ""},
		{"a grok model with an OpenAI id is no xAI stream", build(0, strings.Replace(created, `"object":"response"`, `"model":"grok-4"`, 1), completed), "", ""},
		{"vllm: its reasoning_part.added", build(0, created, rsAdded, vllmPartAdded, vllmDelta, vllmDone, vllmPartDone, rsDone, completed), "vllm", ""},
		{"forced flavor wins", build(0, orCreated, orDone), "xai", "xai"},
	} {
		chk := Dialect.NewChecker(invariants.Options{Flavor: tc.forced})
		var dec decode.Decoder
		fr := decode.NewFramer()
		emit := func(ev *decode.Event) {
			if ev.Dispatched() {
				if as := chk.Observe(dec.Decode(ev, 0, false)); dialecttest.Serious(as) != 0 {
					t.Errorf("%s: %v", tc.name, dialecttest.Lines(as))
				}
			}
		}
		fr.Feed([]byte(tc.body), emit)
		fr.Close(emit)
		chk.End(invariants.End{Kind: invariants.EndEOF})
		if got := invariants.FlavorOf(chk); got != tc.want {
			t.Errorf("%s: flavor %q, want %q", tc.name, got, tc.want)
		}
	}
	names := map[string]bool{}
	for _, f := range Dialect.Flavors() {
		names[f.Name] = true
	}
	if !names["openrouter"] || !names["xai"] || !names["vllm"] || len(names) != 3 {
		t.Errorf("FlavorList %v", names)
	}
}

// TestVocabulary: every event type of openai-python's ResponseStreamEvent
// union (src/openai/types/responses/response_stream_event.py, 2026-08-17,
// ff14a33c) is known and not legacy.
func TestVocabulary(t *testing.T) {
	for _, name := range []string{
		"response.audio.delta", "response.audio.done", "response.audio.transcript.delta", "response.audio.transcript.done",
		"response.code_interpreter_call_code.delta", "response.code_interpreter_call_code.done", "response.code_interpreter_call.completed",
		"response.code_interpreter_call.in_progress", "response.code_interpreter_call.interpreting", "response.completed",
		"response.content_part.added", "response.content_part.done", "response.created", "error",
		"response.file_search_call.completed", "response.file_search_call.in_progress", "response.file_search_call.searching",
		"response.function_call_arguments.delta", "response.function_call_arguments.done",
		"response.shell_call_command.added", "response.shell_call_command.delta", "response.shell_call_command.done",
		"response.shell_call_output_content.delta", "response.shell_call_output_content.done",
		"response.in_progress", "response.failed", "response.incomplete", "response.output_item.added", "response.output_item.done",
		"response.reasoning_summary_part.added", "response.reasoning_summary_part.done", "response.reasoning_summary_text.delta",
		"response.reasoning_summary_text.done", "response.reasoning_text.delta", "response.reasoning_text.done",
		"response.refusal.delta", "response.refusal.done", "response.output_text.delta", "response.output_text.done",
		"response.web_search_call.completed", "response.web_search_call.in_progress", "response.web_search_call.searching",
		"response.image_generation_call.completed", "response.image_generation_call.generating",
		"response.image_generation_call.in_progress", "response.image_generation_call.partial_image",
		"response.mcp_call_arguments.delta", "response.mcp_call_arguments.done", "response.mcp_call.completed",
		"response.mcp_call.failed", "response.mcp_call.in_progress", "response.mcp_list_tools.completed",
		"response.mcp_list_tools.failed", "response.mcp_list_tools.in_progress", "response.output_text.annotation.added",
		"response.queued", "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "keepalive",
	} {
		if ev := events[name]; ev == nil || ev.legacy != "" {
			t.Errorf("%s: %+v", name, ev)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		data string
		want invariants.Verdict
	}{
		{created[:len(created)-1] + `,"sequence_number":0}`, invariants.Yes},
		{errorEv[:len(errorEv)-1] + `,"sequence_number":3}`, invariants.Yes},
		{created, invariants.Maybe},
		{`{"type":"response.done","event_id":"e1","response":{}}`, invariants.No},             // Realtime API
		{`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`, invariants.No}, // Anthropic
		{`{"type":"error","errorText":"x"}`, invariants.No},                                   // AI SDK
		{`{"type":"error","error":{"code":"TIMEOUT","message":"x"}}`, invariants.No},          // typed-lines
		{`{"type":"ping"}`, invariants.No},
		{`{"type":"message_start","message":{}}`, invariants.No},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, invariants.No},
		{`{"type":"text-delta","id":"1","delta":"x"}`, invariants.No},
		{`{"object":"chat.completion.chunk","choices":[]}`, invariants.No},
		{`{"event_type":"text","version":"0.5","response_id":"r"}`, invariants.No},
		{`{"schema":"public_sse_v1","kind":"x"}`, invariants.No},
		{`{"event":"stream.begin","message_id":"m","seq_no":0}`, invariants.No},
		{`{"type":"turn_started","eventSeq":1,"turnId":"t"}`, invariants.No},
		{`{"type":"response.output_text.delta","sequence_number":"4"}`, invariants.Maybe},
	} {
		f := frame(tc.data)
		if got := sniff(f, invariants.Keys{}); got != tc.want {
			t.Errorf("sniff(%s) = %v, want %v", tc.data, got, tc.want)
		}
	}
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, "data: "+created+"\n\n"); got != nil {
		t.Errorf("one response.* frame without sequence_number decided %s", got.Name())
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
}

func frame(data string) *decode.Frame {
	var f *decode.Frame
	fr := decode.NewFramer()
	fr.Feed([]byte("data: "+data+"\n\n"), func(ev *decode.Event) {
		if ev.Dispatched() && f == nil {
			f = decode.DecodeFrame(ev, 0)
			c := f.Clone()
			f = c
		}
	})
	return f
}

// TestMutations: dropping, duplicating or moving one frame of a valid
// stream is always reported.
func TestMutations(t *testing.T) {
	check := func(name, body string) {
		t.Helper()
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
	for name, body := range dialecttest.TerminalMutations(valid, len(validFrames)-1) {
		check(name, body)
	}
	blocks := dialecttest.Blocks(valid)
	for i := range blocks {
		// Without response.created the stream is exactly what a resume
		// with starting_after=0 sends (legal): every other drop is caught.
		if i > 0 {
			drop := append(append([]string(nil), blocks[:i]...), blocks[i+1:]...)
			check(fmt.Sprintf("drop frame %d", i), strings.Join(drop, ""))
		}
		dup := append(append(append([]string(nil), blocks[:i+1]...), blocks[i]), blocks[i+1:]...)
		check(fmt.Sprintf("duplicate frame %d", i), strings.Join(dup, ""))
		if i+1 < len(blocks) {
			swap := append([]string(nil), blocks...)
			swap[i], swap[i+1] = swap[i+1], swap[i]
			check(fmt.Sprintf("swap frames %d and %d", i, i+1), strings.Join(swap, ""))
		}
	}
	// Reordered content with its numbering rewritten: the structure alone
	// must give it away.
	check("delta before its part", build(0, created, msg0(msgAdded), msg0(textDelta), msg0(partAdded), msg0(partDone), msg0(msgDone), completed))
	check("item done before its part", build(0, created, msg0(msgAdded), msg0(partAdded), msg0(msgDone), msg0(partDone), completed))
	check("arguments after the call's done", build(0, created, fc0(fcAdded), fc0(fcDone), fc0(fcDelta), completed))
}

// ann is an url_citation annotation of message msg_1's part 0 (item 0).
func ann(i int) string {
	return fmt.Sprintf(`{"type":"response.output_text.annotation.added","item_id":"msg_1","output_index":0,"content_index":0,"annotation_index":%d,"annotation":{"type":"url_citation","start_index":0,"end_index":2,"url":"https://example.com","title":"x"}}`, i)
}

func refusal(s string) string {
	return strings.Replace(s, `"type":"output_text","text":""`, `"type":"refusal","refusal":""`, 1)
}

func msg0(s string) string { return strings.ReplaceAll(s, `"output_index":1`, `"output_index":0`) }
func fc0(s string) string  { return strings.ReplaceAll(s, `"output_index":2`, `"output_index":0`) }

// TestNoAllocs: mapping the frames of a valid stream allocates nothing in
// the mapper (the Engine's own bookkeeping aside): observe a warm stream of
// text deltas, each with its next sequence number.
func TestNoAllocs(t *testing.T) {
	const n = 300
	frames := make([]*decode.Frame, 0, n+3)
	body := build(0, append([]string{created, msg0(msgAdded), msg0(partAdded)}, repeat(msg0(textDelta), n)...)...)
	var dec decode.Decoder
	fr := decode.NewFramer()
	fr.Feed([]byte(body), func(ev *decode.Event) {
		if ev.Dispatched() {
			frames = append(frames, dec.Decode(ev, 0, false).Clone())
		}
	})
	chk := Dialect.NewChecker(invariants.Options{})
	for _, f := range frames[:13] {
		if as := chk.Observe(f); len(as) != 0 {
			t.Fatalf("warm-up raises %v", dialecttest.Lines(as))
		}
	}
	i := 13
	allocs := testing.AllocsPerRun(200, func() {
		chk.Observe(frames[i])
		i++
	})
	if allocs != 0 {
		t.Errorf("a text delta allocates %.1f times", allocs)
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		valid,
		build(3, textDelta, `{"type":"error","error":{"code":1}}`),
		build(0, created, `{"type":"response.output_item.added","output_index":99999999999999999999,"item":{"type":"function_call","call_id":7}}`),
		"event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":-1}\n\n")
}

// TestClosedByCompleted: items and parts whose done events never came
// are one warn when response.completed's output carries them (the SDKs
// take the final response from it), and stay an error when it does not.
func TestClosedByCompleted(t *testing.T) {
	done := func(output string) string {
		return `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[` + output + `]}}`
	}
	const (
		rs  = `{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Thinking"}]}`
		msg = `{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]}]}`
		fc  = `{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}`
		ws  = `{"id":"ws_1","type":"web_search_call","status":"completed"}`
	)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"every done missing, all carried", build(0, created, rsAdded, sumAdded, sumDelta, msgAdded, partAdded, textDelta, fcAdded, fcDelta, done(rs+","+msg+","+fc)),
			"span-unclosed warn 9"},
		{"a part left open after its item's done, carried", build(0, created, rsAdded, sumAdded, sumDelta, rsDone, done(rs)),
			"span-unclosed warn 5"},
		{"a hosted call carried: no tool-unfinished", build(0, created, wsAdded, wsProg, done(ws)),
			"span-unclosed warn 3"},
		{"the output is shorter: error", build(0, created, rsAdded, sumAdded, sumDelta, sumDone, sumPDone, rsDone, msgAdded, partAdded, textDelta, textDone, partDone, done(rs)),
			"span-unclosed error 12"},
		{"another item type at the index: error", build(0, created, wsAdded, wsProg, done(msg)),
			"span-unclosed error 3 | tool-unfinished error 3"},
		{"the part is not carried: error for the part only", build(0, created, rsAdded, sumAdded, sumDelta, done(`{"id":"rs_1","type":"reasoning","summary":[]}`)),
			"span-unclosed error 4 | span-unclosed warn 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
				for _, a := range res.Alarms {
					t.Logf("  %s %s %d: %s", a.Rule, a.Severity, a.Frame, a.Message)
				}
			}
		})
	}
}
