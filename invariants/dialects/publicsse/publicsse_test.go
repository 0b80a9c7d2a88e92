package publicsse

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// ev renders one public_sse_v1 event: the envelope, then the kind's fields
// (rest, a JSON member list without braces, may be empty).
// mcpAwaiting and mcpApproval are an MCP call's first status and its
// approval's fields.
const (
	mcpAwaiting = `"output_index":0,"item_id":"mcp_1","tool":{"tool_type":"mcp","tool_call_id":"mcp_1","status":"awaiting_approval","tool_name":"drive.search","server_label":"gdrive"}`
	mcpApproval = `"output_index":0,"item_id":"mcp_1","tool_call_id":"mcp_1","tool_type":"mcp","tool_name":"drive.search","server_label":"gdrive","approval_request_id":"mcpr_1",`
)

// branch0 and branch1 are two branches of a parallel workflow stage.
const (
	branch0 = `"workflow":{"workflow_key":"analysis","stage_name":"fanout","parallel_group":"fanout","branch_index":0}`
	branch1 = `"workflow":{"workflow_key":"analysis","stage_name":"fanout","parallel_group":"fanout","branch_index":1}`
)

// scopeA and scopeB are the scopes of two agent tools' nested runs.
const (
	scopeA = `"scope":{"type":"agent_tool","tool_call_id":"call_a","tool_name":"ask_a","agent":"a"}`
	scopeB = `"scope":{"type":"agent_tool","tool_call_id":"call_b","tool_name":"ask_b","agent":"b"}`
)

func ev(id int, kind, rest string) string {
	s := fmt.Sprintf(`data: {"schema":"public_sse_v1","event_id":%d,"stream_id":"chat_7d1e","server_timestamp":"2025-12-15T12:10:00.%03dZ","conversation_id":"c_91","response_id":"resp_a1","agent":"triage","kind":%q`, id, id, kind)
	if rest != "" {
		s += "," + rest
	}
	return s + "}\n\n"
}

const (
	fnTool  = `"output_index":0,"item_id":"call_1","tool":{"tool_type":"function","tool_call_id":"call_1","status":"%s","name":"get_time"}`
	fnArgs  = `"output_index":0,"item_id":"call_1","tool_call_id":"call_1","tool_type":"function","tool_name":"get_time"`
	rsItem  = `"output_index":1,"item_id":"rs_1"`
	msgItem = `"output_index":2,"item_id":"msg_1"`
	target  = `"target":{"entity_kind":"tool_call","entity_id":"img_1","field":"partial_image_b64","part_index":0}`
)

// valid is a function call, a reasoning summary part, a message, a chunked
// partial image and the final event.
var valid = ev(1, "lifecycle", `"status":"in_progress"`) +
	ev(2, "output_item.added", `"output_index":0,"item_id":"call_1","item_type":"function_call","status":"in_progress"`) +
	ev(3, "tool.status", fmt.Sprintf(fnTool, "in_progress")) +
	ev(4, "tool.arguments.delta", fnArgs+`,"delta":"{\"tz\":\"UTC\"}"`) +
	ev(5, "tool.arguments.done", fnArgs+`,"arguments_text":"{\"tz\":\"UTC\"}","arguments_json":{"tz":"UTC"}`) +
	ev(6, "tool.output", `"output_index":0,"item_id":"call_1","tool_call_id":"call_1","tool_type":"function","output":{"iso":"12:10"}`) +
	ev(7, "tool.status", fmt.Sprintf(fnTool, "completed")) +
	ev(8, "output_item.done", `"output_index":0,"item_id":"call_1","item_type":"function_call","status":"completed"`) +
	ev(9, "reasoning_summary.part.added", rsItem+`,"summary_index":0,"part_type":"summary_text","text":""`) +
	ev(10, "reasoning_summary.delta", rsItem+`,"summary_index":0,"delta":"Check the clock."`) +
	ev(11, "reasoning_summary.part.done", rsItem+`,"summary_index":0,"part_type":"summary_text","text":"Check the clock."`) +
	ev(12, "output_item.added", msgItem+`,"item_type":"message","role":"assistant","status":"in_progress"`) +
	ev(13, "message.delta", msgItem+`,"content_index":0,"delta":"It is 12:10 UTC."`) +
	ev(14, "output_item.done", msgItem+`,"item_type":"message","role":"assistant","status":"completed"`) +
	ev(15, "chunk.delta", `"output_index":3,"item_id":"img_1",`+target+`,"encoding":"base64","chunk_index":0,"data":"iVBORw0K"`) +
	ev(16, "chunk.delta", `"output_index":3,"item_id":"img_1",`+target+`,"encoding":"base64","chunk_index":1,"data":"GgoAAAAN"`) +
	ev(17, "chunk.done", `"output_index":3,"item_id":"img_1",`+target) +
	ev(18, "final", `"final":{"status":"completed","response_text":"It is 12:10 UTC.","attachments":[]}`)

const finalFrame = 17

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 || len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	seq := func(n int) string { return fmt.Sprintf(`seq key="event_id" seq=%d`, n) }
	tgt := `{"entity_kind":"tool_call","entity_id":"img_1","field":"partial_image_b64","part_index":0}`
	want := [][]string{
		{`turn-key key="chat_7d1e"`, seq(1), `progress name="lifecycle" text="in_progress"`},
		{seq(2), `span-open span=item key="call_1" name="function_call"`},
		{seq(3), `tool-open key="call_1" name="get_time"`},
		{seq(4), `tool-args key="call_1" text="{\"tz\":\"UTC\"}"`},
		{seq(5)},
		{seq(6)},
		{seq(7), `tool-close key="call_1" name="get_time" outcome=completed`},
		{seq(8), `span-close span=item key="call_1"`},
		{seq(9), `span-open span=reasoning key=0 name="summary_text"`},
		{seq(10), `reasoning span=reasoning key=0 text="Check the clock."`},
		{seq(11), `span-close span=reasoning key=0`},
		{seq(12), `span-open span=item key="msg_1" name="message"`},
		{seq(13), `text key="msg_1" text="It is 12:10 UTC."`},
		{seq(14), `span-close span=item key="msg_1"`},
		{seq(15), `span-open span=stream key=` + tgt + ` name="partial_image_b64"`, `seq key=` + tgt + ` seq=0`},
		{seq(16), `seq key=` + tgt + ` seq=1`},
		{seq(17), `span-close span=stream key=` + tgt},
		{seq(18), `terminal name="final" outcome=completed`},
	}
	if len(res.Moves) != len(want) {
		t.Fatalf("%d frames, want %d", len(res.Moves), len(want))
	}
	for i, w := range want {
		if got := strings.Join(res.Moves[i], "; "); got != strings.Join(w, "; ") {
			t.Errorf("frame %d moves\n got %s\nwant %s", i, got, strings.Join(w, "; "))
		}
	}
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "final" ||
		res.Turns[0].ResponseID != "chat_7d1e" {
		t.Errorf("turns %+v", res.Turns)
	}
}

// TestMappingKinds covers the kinds valid leaves out.
func TestMappingKinds(t *testing.T) {
	for _, tc := range []struct{ frame, want string }{
		{ev(1, "agent.updated", `"from_agent":"triage","to_agent":"billing","handoff_index":1`), `progress name="agent.updated" text="billing"`},
		{ev(1, "memory.checkpoint", `"checkpoint":{"strategy":"compact"}`), `progress name="memory.checkpoint" text="compact"`},
		{ev(1, "refusal.delta", msgItem+`,"content_index":0,"delta":"I can't"`), `text key="msg_1" name="refusal" text="I can't"`},
		{ev(1, "refusal.done", msgItem+`,"content_index":0,"refusal_text":"I can't"`), ``},
		{ev(1, "message.citation", msgItem+`,"content_index":0,"citation":{"type":"url_citation","start_index":0,"end_index":4,"url":"https://x"}`), ``},
		{ev(1, "reasoning_summary.delta", rsItem+`,"delta":"hm"`), `reasoning text="hm"`},
		{ev(1, "tool.approval", `"output_index":0,"item_id":"mcp_1","tool_call_id":"mcp_1","tool_type":"mcp","tool_name":"drive.search","approved":true`), ``},
		{ev(1, "tool.code.done", `"output_index":0,"item_id":"ci_1","tool_call_id":"ci_1","code":"print(1)"`), ``},
		{ev(1, "error", `"error":{"code":"rate_limit","message":"Slow down","source":"provider","is_retryable":true}`), `terminal name="error" text="Slow down" code="rate_limit" outcome=failed`},
		{ev(1, "final", `"final":{"status":"refused"}`), `terminal name="final" outcome=refused`},
		{ev(1, "final", `"final":{"status":"incomplete"}`), `terminal name="final" outcome=incomplete`},
		{ev(1, "final", `"final":{"status":"cancelled"}`), `terminal name="final" outcome=cancelled`},
		{ev(1, "tool.status", `"output_index":0,"item_id":"ws_1","tool":{"tool_type":"web_search","tool_call_id":"ws_1","status":"completed"}`),
			`tool-open key="ws_1" name="web_search"; tool-close key="ws_1" name="web_search" outcome=completed`},
		{ev(1, "tool.status", `"output_index":0,"item_id":"mcp_1","tool":{"tool_type":"mcp","tool_call_id":"mcp_1","status":"awaiting_approval","tool_name":"drive.search"}`),
			`tool-open key="mcp_1" name="drive.search"`},
	} {
		res := dialecttest.Run(Dialect, tc.frame)
		mv := res.Moves[0][2:] // after turn-key and seq
		if got := strings.Join(mv, "; "); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.frame, got, tc.want)
		}
	}
}

func TestRules(t *testing.T) {
	ws := func(id int, status string) string {
		return ev(id, "tool.status", `"output_index":0,"item_id":"ws_1","tool":{"tool_type":"web_search","tool_call_id":"ws_1","status":"`+status+`"}`)
	}
	fin := func(id int) string { return ev(id, "final", `"final":{"status":"completed"}`) }
	item := func(id int, kind, itemID string) string {
		return ev(id, kind, `"output_index":0,"item_id":"`+itemID+`","item_type":"message"`)
	}
	chunk := func(id, idx int) string {
		return ev(id, "chunk.delta", `"output_index":0,"item_id":"img_1",`+target+fmt.Sprintf(`,"chunk_index":%d,"data":"AAAA"`, idx))
	}
	chunkDone := func(id int) string { return ev(id, "chunk.done", `"output_index":0,"item_id":"img_1",`+target) }
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		// terminals
		{"final alone", fin(1), nil},
		{"error alone", ev(1, "error", `"error":{"message":"boom","source":"server","is_retryable":false}`), nil},
		{"no terminal", ev(1, "lifecycle", `"status":"completed"`), []string{"terminal-missing error -"}},
		{"two terminals", fin(1) + fin(2), []string{"after-terminal error 1", "terminal-duplicate error 1"}},
		{"frame after final", fin(1) + ev(2, "lifecycle", `"status":"completed"`), []string{"after-terminal error 1"}},
		{"[DONE] is not part of the wire", fin(1) + "data: [DONE]\n\n", []string{"event-unknown info 1"}},
		// payload-malformed
		{"envelope complete", ev(1, "lifecycle", `"status":"queued"`) + fin(2), nil},
		{"event_id a string", strings.Replace(fin(1), `"event_id":1`, `"event_id":"1"`, 1), []string{"payload-malformed error 0"}},
		{"event_id fraction", strings.Replace(fin(1), `"event_id":1`, `"event_id":1.5`, 1), []string{"payload-malformed error 0"}},
		{"no server_timestamp", strings.Replace(fin(1), `"server_timestamp":"2025-12-15T12:10:00.001Z",`, ``, 1), []string{"payload-malformed error 0"}},
		{"no stream_id", strings.Replace(fin(1), `"stream_id":"chat_7d1e",`, ``, 1), []string{"payload-malformed error 0"}},
		{"no kind", strings.Replace(ev(1, "lifecycle", `"status":"queued"`), `"kind":"lifecycle",`, ``, 1) + fin(2), []string{"payload-malformed error 0"}},
		{"final.status outside the enum", ev(1, "final", `"final":{"status":"done"}`), []string{"payload-malformed error 0"}},
		{"final without final", ev(1, "final", ``), []string{"payload-malformed error 0"}},
		{"error without message", ev(1, "error", `"error":{"source":"server","is_retryable":false}`), []string{"payload-malformed error 0"}},
		{"error source", ev(1, "error", `"error":{"message":"x","source":"client","is_retryable":false}`), []string{"payload-malformed error 0"}},
		{"error is_retryable a string", ev(1, "error", `"error":{"message":"x","source":"server","is_retryable":"no"}`), []string{"payload-malformed error 0"}},
		{"error code null", ev(1, "error", `"error":{"code":null,"message":"x","source":"provider","is_retryable":true}`), nil},
		{"lifecycle status", ev(1, "lifecycle", `"status":"running"`) + fin(2), []string{"payload-malformed error 0"}},
		{"message.delta without delta", ev(1, "message.delta", msgItem+`,"content_index":0`) + fin(2), []string{"payload-malformed error 0"}},
		{"message.delta without output_index", ev(1, "message.delta", `"item_id":"msg_1","content_index":0,"delta":"x"`) + fin(2), []string{"payload-malformed error 0"}},
		{"several faults, one alarm", `data: {"schema":"public_sse_v1","kind":"final","final":{"status":"ok"}}` + "\n\n", []string{"payload-malformed error 0"}},
		// seq-order on event_id; gaps are legal
		{"event_id gap", ev(1, "lifecycle", `"status":"queued"`) + ev(5, "lifecycle", `"status":"in_progress"`) + fin(9), nil},
		{"event_id repeats", ev(1, "lifecycle", `"status":"queued"`) + fin(1), []string{"seq-order error 1"}},
		{"event_id goes back", ev(4, "lifecycle", `"status":"queued"`) + fin(3), []string{"seq-order error 1"}},
		// envelope-drift
		{"stream_id drifts", ev(1, "lifecycle", `"status":"queued"`) + strings.Replace(fin(2), "chat_7d1e", "chat_8888", 1), []string{"envelope-drift error 1"}},
		{"conversation_id drifts", ev(1, "lifecycle", `"status":"queued"`) + strings.Replace(fin(2), `"c_91"`, `"c_92"`, 1), []string{"envelope-drift error 1"}},
		{"schema drifts", ev(1, "lifecycle", `"status":"queued"`) + strings.Replace(fin(2), "public_sse_v1", "public_sse_v2", 1), []string{"envelope-drift error 1"}},
		{"response_id changes", ev(1, "lifecycle", `"status":"queued"`) + strings.Replace(fin(2), "resp_a1", "resp_b2", 1), nil},
		{"conversation_id null then set", strings.Replace(ev(1, "lifecycle", `"status":"queued"`), `"c_91"`, `null`, 1) + fin(2), nil},
		{"conversation_id unknown then set", strings.Replace(ev(1, "lifecycle", `"status":"queued"`), `"c_91"`, `"unknown"`, 1) + fin(2), nil},
		// internal-leak
		{"raw_event", strings.Replace(fin(1), `"kind":"final"`, `"kind":"final","raw_event":{"type":"response.completed"}`, 1), []string{"internal-leak error 0"}},
		{"payload", ev(1, "lifecycle", `"status":"queued","payload":{"instructions":"be nice"}`) + fin(2), []string{"internal-leak error 0"}},
		{"payload null", ev(1, "lifecycle", `"status":"queued","payload":null`) + fin(2), nil},
		{"raw reasoning kind", ev(1, "response.reasoning_text.delta", `"delta":"secret"`) + fin(2), []string{"internal-leak error 0"}},
		{"raw_response_event kind", ev(1, "raw_response_event", ``) + fin(2), []string{"internal-leak error 0"}},
		// event-unknown
		{"unknown kind", ev(1, "progress.note", `"text":"x"`) + fin(2), []string{"event-unknown info 0"}},
		// spans: output items
		{"item closed", item(1, "output_item.added", "msg_1") + item(2, "output_item.done", "msg_1") + fin(3), nil},
		{"item never added", item(1, "output_item.done", "msg_1") + fin(2), []string{"span-orphan error 0"}},
		{"item open at final", item(1, "output_item.added", "msg_1") + fin(2), []string{"span-unclosed error 1"}},
		{"item open at a failed final", item(1, "output_item.added", "msg_1") + ev(2, "final", `"final":{"status":"failed"}`), []string{"span-unclosed warn 1"}},
		{"item open at error", item(1, "output_item.added", "msg_1") + ev(2, "error", `"error":{"message":"x","source":"server","is_retryable":false}`), []string{"span-unclosed warn 1"}},
		{"item open at EOF", item(1, "output_item.added", "msg_1"), []string{"span-unclosed warn -", "terminal-missing error -"}},
		{"item added twice", item(1, "output_item.added", "msg_1") + item(2, "output_item.added", "msg_1") + item(3, "output_item.done", "msg_1") + fin(4), []string{"span-duplicate error 1"}},
		{"message.delta needs no item", ev(1, "message.delta", msgItem+`,"content_index":0,"delta":"hi"`) + fin(2), nil},
		// spans: reasoning summary parts
		{"part never added", ev(1, "reasoning_summary.part.done", rsItem+`,"summary_index":2,"text":"x"`) + fin(2), []string{"span-orphan error 0"}},
		{"delta for a part not open", ev(1, "reasoning_summary.delta", rsItem+`,"summary_index":1,"delta":"x"`) + fin(2), []string{"span-orphan error 0"}},
		{"part open at final", ev(1, "reasoning_summary.part.added", rsItem+`,"summary_index":0,"text":""`) + fin(2), []string{"span-unclosed error 1"}},
		// raw_handlers/reasoning.py: no part.done for a part whose text is
		// empty; the item's output_item.done ends it.
		{"empty part ended by its item", item(1, "output_item.added", "rs_1") + ev(2, "reasoning_summary.part.added", rsItem+`,"summary_index":0,"text":""`) +
			item(3, "output_item.done", "rs_1") + fin(4), nil},
		{"span-unclosed near miss: a part with text is not ended by its item", item(1, "output_item.added", "rs_1") +
			ev(2, "reasoning_summary.part.added", rsItem+`,"summary_index":0,"text":""`) + ev(3, "reasoning_summary.delta", rsItem+`,"summary_index":0,"delta":"Thinking"`) +
			item(4, "output_item.done", "rs_1") + fin(5), []string{"span-unclosed error 4"}},
		// Two agent tools run in parallel: their nested runs (scoped by
		// tool_call_id, projector.py _state_for_scope; one shared queue,
		// domain/ai/stream_bus.py) each open their summary part 0.
		{"parallel agent tools: summary part 0 in two scopes", ev(1, "reasoning_summary.part.added", rsItem+`,"summary_index":0,`+scopeA) +
			ev(2, "reasoning_summary.part.added", rsItem+`,"summary_index":0,`+scopeB) +
			ev(3, "reasoning_summary.delta", rsItem+`,"summary_index":0,"delta":"a",`+scopeA) +
			ev(4, "reasoning_summary.part.done", rsItem+`,"summary_index":0,"text":"a",`+scopeA) +
			ev(5, "reasoning_summary.part.done", rsItem+`,"summary_index":0,"text":"",`+scopeB) + fin(6), nil},
		// services/workflows/streaming.py stream_parallel_stage: two branches
		// of a parallel stage stream at once into one projector.
		{"parallel workflow branches: summary part 0 in two branches", ev(1, "reasoning_summary.part.added", rsItem+`,"summary_index":0,`+branch0) +
			ev(2, "reasoning_summary.part.added", `"output_index":0,"item_id":"rs_2","summary_index":0,`+branch1) +
			ev(3, "reasoning_summary.part.done", rsItem+`,"summary_index":0,"text":"a",`+branch0) +
			ev(4, "reasoning_summary.part.done", `"output_index":0,"item_id":"rs_2","summary_index":0,"text":"b",`+branch1) + fin(5), nil},
		{"span-duplicate near miss: part 0 twice in one scope", ev(1, "reasoning_summary.part.added", rsItem+`,"summary_index":0,`+scopeA) +
			ev(2, "reasoning_summary.part.added", rsItem+`,"summary_index":0,`+scopeA) +
			ev(3, "reasoning_summary.part.done", rsItem+`,"summary_index":0,"text":"a",`+scopeA) + fin(4), []string{"span-duplicate error 1"}},
		{"a scoped part is not the parent's", ev(1, "reasoning_summary.part.added", rsItem+`,"summary_index":0,`+scopeA) +
			ev(2, "reasoning_summary.part.done", rsItem+`,"summary_index":0,"text":"a"`) + fin(3), []string{"span-orphan error 1", "span-unclosed error 2"}},
		// spans and sequence: chunk streams
		{"chunks in order", chunk(1, 0) + chunk(2, 1) + chunk(3, 2) + chunkDone(4) + fin(5), nil},
		{"chunk skipped", chunk(1, 0) + chunk(2, 2) + chunkDone(3) + fin(4), []string{"seq-gap error 1"}},
		{"chunks start at 1", chunk(1, 1) + chunkDone(2) + fin(3), []string{"seq-gap error 0"}},
		{"chunk repeated", chunk(1, 0) + chunk(2, 0) + chunkDone(3) + fin(4), []string{"seq-order error 1"}},
		{"chunk.done without chunks", chunkDone(1) + fin(2), []string{"span-orphan error 0"}},
		{"chunks never done", chunk(1, 0) + fin(2), []string{"span-unclosed error 1"}},
		{"negative chunk_index", chunk(1, -1) + chunkDone(2) + fin(3), []string{"payload-malformed error 0"}},
		// tools
		{"status completed first", ws(1, "completed") + fin(2), nil},
		{"status restated after completed", ws(1, "in_progress") + ws(2, "searching") + ws(3, "completed") + ws(4, "completed") + fin(5), nil},
		{"tool never completed", ws(1, "in_progress") + ws(2, "searching") + fin(3), []string{"tool-unfinished error 2"}},
		{"tool open at a cancelled final", ws(1, "in_progress") + ev(2, "final", `"final":{"status":"cancelled"}`), []string{"tool-unfinished warn 1"}},
		// run_items.py: a denied MCP call gets awaiting_approval, then the
		// approval, and no status after it; tools.ts marks it done on the
		// approval.
		{"mcp call denied", ev(1, "tool.status", mcpAwaiting) + ev(2, "tool.approval", mcpApproval+`"approved":false,"reason":"not now"`) + fin(3), nil},
		{"tool-unfinished near miss: an approved mcp call that never completes", ev(1, "tool.status", mcpAwaiting) +
			ev(2, "tool.approval", mcpApproval+`"approved":true`) + fin(3), []string{"tool-unfinished error 2"}},
		{"statuses after a denial re-state the ended call", ev(1, "tool.status", mcpAwaiting) + ev(2, "tool.approval", mcpApproval+`"approved":false`) +
			ev(3, "tool.status", strings.Replace(mcpAwaiting, "awaiting_approval", "failed", 1)) + fin(4), nil},
		{"tool failed", ev(1, "tool.status", fmt.Sprintf(fnTool, "in_progress")) + ev(2, "tool.status", fmt.Sprintf(fnTool, "failed")) + fin(3), nil},
		{"tool without id", ev(1, "tool.status", `"output_index":0,"item_id":"ws_1","tool":{"tool_type":"web_search","status":"completed"}`) + fin(2), []string{"tool-malformed error 0"}},
		{"function tool without name", ev(1, "tool.status", `"output_index":0,"item_id":"call_1","tool":{"tool_type":"function","tool_call_id":"call_1","status":"completed"}`) + fin(2), []string{"tool-malformed error 0"}},
		{"mcp tool names itself in tool_name", ev(1, "tool.status", `"output_index":0,"item_id":"m","tool":{"tool_type":"mcp","tool_call_id":"m","status":"completed","name":"x"}`) + fin(2), []string{"tool-malformed error 0"}},
		{"tool renamed", ev(1, "tool.status", fmt.Sprintf(fnTool, "in_progress")) + strings.Replace(ev(2, "tool.status", fmt.Sprintf(fnTool, "completed")), "get_time", "get_date", 1) + fin(3), []string{"tool-mismatch error 1"}},
		{"tool without tool object", ev(1, "tool.status", `"output_index":0,"item_id":"ws_1"`) + fin(2), []string{"payload-malformed error 0"}},
		{"arguments before any status", ev(1, "tool.arguments.delta", fnArgs+`,"delta":"{}"`) + fin(2), nil},
		{"code after completed", ws(1, "completed") + ev(2, "tool.code.done", `"output_index":0,"item_id":"ws_1","tool_call_id":"ws_1","code":"x"`) + fin(3), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dialecttest.Lines(dialecttest.Run(Dialect, tc.body).Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFrameSize: 1 MiB is the only tier.
func TestFrameSize(t *testing.T) {
	pad := func(n int) string {
		f := ev(1, "message.delta", msgItem+`,"content_index":0,"delta":"`+strings.Repeat("a", n)+`"`)
		return f
	}
	base := len(strings.TrimSuffix(strings.TrimPrefix(pad(0), "data: "), "\n\n"))
	fin := ev(2, "final", `"final":{"status":"completed"}`)
	if got := dialecttest.Lines(dialecttest.Run(Dialect, pad(frameMax-base)+fin).Alarms); len(got) != 0 {
		t.Errorf("a 1 MiB frame raises %v", got)
	}
	if got := dialecttest.Lines(dialecttest.Run(Dialect, pad(frameMax-base+1)+fin).Alarms); strings.Join(got, "|") != "frame-size error 0" {
		t.Errorf("a frame over 1 MiB raises %v", got)
	}
}

// TestStreamSize: 128 MiB of event data pass; one byte more is stream-size,
// raised once, on the frame that crosses the cap.
func TestStreamSize(t *testing.T) {
	if testing.Short() {
		t.Skip("128 MiB")
	}
	run := func(extra int) []string {
		chk := Dialect.NewChecker(invariants.Options{})
		var alarms []invariants.Alarm
		var dec decode.Decoder
		total, id := 0, 0
		frame := func(data string) {
			id++
			evt := &decode.Event{Data: []byte(data), HasData: true}
			alarms = append(alarms, chk.Observe(dec.Decode(evt, 0, false))...)
			total += len(data)
		}
		chunkFrame := func(idx, n int) string {
			head := fmt.Sprintf(`{"schema":"public_sse_v1","event_id":%d,"stream_id":"s","server_timestamp":"t","kind":"chunk.delta","output_index":0,"item_id":"img",%s,"chunk_index":%d,"data":"`, id+1, target, idx)
			return head + strings.Repeat("A", n-len(head)-2) + `"}`
		}
		const size = 1000 << 10
		for i := 0; total+size <= streamMax-4096; i++ {
			frame(chunkFrame(i, size))
		}
		last := id
		frame(chunkFrame(last, streamMax-total-3000))
		done := fmt.Sprintf(`{"schema":"public_sse_v1","event_id":%d,"stream_id":"s","server_timestamp":"t","kind":"chunk.done","output_index":0,"item_id":"img",%s}`, id+1, target)
		finalEv := fmt.Sprintf(`{"schema":"public_sse_v1","event_id":%d,"stream_id":"s","server_timestamp":"t","kind":"final","final":{"status":"completed"}`, id+2)
		finalEv += strings.Repeat(" ", streamMax-total-len(done)-len(finalEv)-1+extra) + "}"
		frame(done)
		frame(finalEv)
		if total != streamMax+extra {
			t.Fatalf("built %d bytes, want %d", total, streamMax+extra)
		}
		alarms = append(alarms, chk.End(invariants.End{Kind: invariants.EndEOF})...)
		return dialecttest.Lines(alarms)
	}
	if got := run(0); len(got) != 0 {
		t.Errorf("exactly 128 MiB raises %v", got)
	}
	if got := run(1); len(got) != 1 || !strings.HasPrefix(got[0], "stream-size error ") {
		t.Errorf("128 MiB + 1 raises %v", got)
	}
}

func TestSniff(t *testing.T) {
	det := func() *invariants.Detector { return invariants.NewDetector([]invariants.Dialect{Dialect}) }
	for _, body := range []string{
		`data: {"schema":"public_sse_v1","event_id":1}` + "\n\n", // no kind: undecided
		`data: {"type":"ping"}` + "\n\n",
		`data: {"kind":"final","final":{"status":"completed"}}` + "\n\n", // no schema
	} {
		if got := dialecttest.Detect(det(), body); got != nil {
			t.Errorf("%q decided %s", body, got.Name())
		}
	}
	for _, tc := range []struct {
		frame string
		want  invariants.Verdict
	}{
		{`{"schema":"public_sse_v1","event_id":1,"kind":"lifecycle"}`, invariants.Yes},
		{`{"schema":"public_sse_v1","event_id":1}`, invariants.Maybe},
		{`{"schema":"public_sse_v2","kind":"lifecycle"}`, invariants.No},
		{`{"schema":1,"kind":"lifecycle"}`, invariants.No},
		{`{"type":"ping"}`, invariants.No},
		{`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`, invariants.No},
		{`{"type":"response.created","sequence_number":0}`, invariants.No},
		{`{"object":"chat.completion.chunk","choices":[]}`, invariants.No},
		{`{"event_type":"text","version":"0.5","response_id":"r"}`, invariants.No},
		{`{"type":"RUN_STARTED","runId":"r","threadId":"t"}`, invariants.No},
		{`{"type":"text-delta","id":"1","delta":"x"}`, invariants.No},
		{`{"event":"stream.begin","message_id":"m","seq_no":0}`, invariants.No},
		{`{"type":"turn_started","eventSeq":1,"turnId":"t"}`, invariants.No},
	} {
		f := decode.DecodeFrame(&decode.Event{Data: []byte(tc.frame), HasData: true}, 0)
		if got := Dialect.Sniff(f, invariants.Keys{}); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.frame, got, tc.want)
		}
	}
	if got := dialecttest.Detect(det(), valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
}

// TestMutations: dropping, duplicating or moving the terminal, duplicating
// any frame (event_id repeats), swapping two neighbours (event_id goes
// back) and dropping a frame that opens or closes something are reported.
func TestMutations(t *testing.T) {
	serious := func(name, body string) {
		t.Helper()
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
	for name, body := range dialecttest.TerminalMutations(valid, finalFrame) {
		serious(name, body)
	}
	bs := dialecttest.Blocks(valid)
	join := func(parts []string) string { return strings.Join(parts, "") }
	for i := range bs {
		dup := append(append(append([]string(nil), bs[:i+1]...), bs[i]), bs[i+1:]...)
		serious(fmt.Sprintf("duplicate frame %d", i), join(dup))
		if i+1 < len(bs) {
			sw := append([]string(nil), bs...)
			sw[i], sw[i+1] = sw[i+1], sw[i]
			serious(fmt.Sprintf("swap frames %d and %d", i, i+1), join(sw))
		}
	}
	// Frames whose loss breaks a pairing: item, part and chunk stream opens
	// and closes, the tool's closing status, and the first chunk. (Dropping
	// the tool's first status is legal: a first "completed" opens and
	// closes the call.)
	for _, i := range []int{1, 7, 8, 10, 11, 13, 14, 16} {
		drop := append(append([]string(nil), bs[:i]...), bs[i+1:]...)
		serious(fmt.Sprintf("drop frame %d", i), join(drop))
	}
}

// TestNoAllocs: once the checker is warm (an open tool call and chunk
// stream), mapping and checking a valid frame allocates nothing.
func TestNoAllocs(t *testing.T) {
	chunkIdx := 0
	bodies := []func(id int) string{
		func(id int) string { return ev(id, "lifecycle", `"status":"in_progress"`) },
		func(id int) string { return ev(id, "agent.updated", `"from_agent":"a","to_agent":"b"`) },
		func(id int) string { return ev(id, "message.delta", msgItem+`,"content_index":0,"delta":"tok"`) },
		func(id int) string { return ev(id, "refusal.delta", msgItem+`,"content_index":0,"delta":"no"`) },
		func(id int) string { return ev(id, "reasoning_summary.delta", rsItem+`,"delta":"hm"`) },
		func(id int) string {
			return ev(id, "message.citation", msgItem+`,"content_index":0,"citation":{"type":"url_citation"}`)
		},
		func(id int) string { return ev(id, "tool.arguments.delta", fnArgs+`,"delta":"{}"`) },
		func(id int) string { return ev(id, "tool.status", fmt.Sprintf(fnTool, "in_progress")) },
		func(id int) string {
			return ev(id, "tool.output", `"output_index":0,"item_id":"call_1","tool_call_id":"call_1","output":1`)
		},
		func(id int) string {
			chunkIdx++
			return ev(id, "chunk.delta", `"output_index":3,"item_id":"img_1",`+target+fmt.Sprintf(`,"chunk_index":%d,"data":"AAAA"`, chunkIdx))
		},
	}
	var frames []*decode.Frame
	var dec decode.Decoder
	add := func(body string) {
		decode.NewFramer().Feed([]byte(body), func(e *decode.Event) {
			c := e.Clone()
			frames = append(frames, dec.Decode(&c, 0, false).Clone())
		})
	}
	add(ev(1, "tool.status", fmt.Sprintf(fnTool, "in_progress")))
	add(ev(2, "chunk.delta", `"output_index":3,"item_id":"img_1",`+target+`,"chunk_index":0,"data":"AAAA"`))
	for id := 3; len(frames) < 2+3*len(bodies)*8; id++ {
		add(bodies[id%len(bodies)](id))
	}
	chk := Dialect.NewChecker(invariants.Options{})
	next := 0
	observe := func() {
		if as := chk.Observe(frames[next]); len(as) != 0 {
			t.Fatalf("frame %d raises %v", next, dialecttest.Lines(as))
		}
		next++
	}
	for next < 2+len(bodies) {
		observe()
	}
	if n := testing.AllocsPerRun(len(frames)-next-1, observe); n != 0 {
		t.Errorf("%.2f allocations per frame", n)
	}
}

// FuzzMap: short seeds (the fuzzer minimizes every new input for up to a
// minute, and long seeds make that slow).
func FuzzMap(f *testing.F) {
	env := `"schema":"public_sse_v1","stream_id":"s","server_timestamp":"t",`
	dialecttest.Fuzz(f, Dialect,
		"data: {"+env+`"event_id":1,"kind":"output_item.added","output_index":0,"item_id":"m","item_type":"message"}`+"\n\n"+
			"data: {"+env+`"event_id":2,"kind":"tool.status","tool":{"tool_type":"mcp","tool_call_id":"c","status":"completed","tool_name":"x"}}`+"\n\n"+
			"data: {"+env+`"event_id":3,"kind":"chunk.delta","target":{"entity_id":"i"},"chunk_index":0,"data":""}`+"\n\n"+
			"data: {"+env+`"event_id":4,"kind":"final","final":{"status":"completed"}}`+"\n\n",
		"data: {"+env+`"event_id":1e400,"kind":"error","error":{"message":7,"is_retryable":"\xff"}}`+"\n\n",
		`data: {"schema":"public_sse_v1","event_id":99999999999999999999,"kind":"chunk.delta","target":[],"chunk_index":"0"}`+"\n\n")
}

// TestIdleWindow: the routers' heartbeat rides on upstream events (it is
// yielded inside the loop over them, chat/router.py), so a minute of
// reasoning or of a function tool's run is silent on a healthy stream.
func TestIdleWindow(t *testing.T) {
	if w := Dialect.Shape.Idle; w < 2*time.Minute {
		t.Errorf("idle window %v: a healthy stream can be silent for over a minute", w)
	}
}
