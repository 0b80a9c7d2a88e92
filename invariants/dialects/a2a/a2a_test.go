package a2a

import (
	"strconv"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

func capture(t testing.TB, name string) string { return dialecttest.Capture(t, "a2a", name) }

// TestMappingTask: a v0.3 task maps to one turn keyed by the task id: its
// states are progress, status messages text, an artifact a component span
// its chunks fill, and completed with final the terminal.
func TestMappingTask(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-v03-task-artifacts.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="task-7f3a"; progress text="submitted"`,
		`progress text="working"; text text="Checking. "`,
		`span-open span=item key="art-1" name="answer.md"; text span=item key="art-1" text="Clear skies "`,
		`text span=item key="art-1" text="over Oslo."; span-close span=item key="art-1"`,
		`progress text="completed"; terminal name="status-update" outcome=completed`,
	})
	if len(res.Turns) != 1 || res.Turns[0].ResponseID != "task-7f3a" {
		t.Errorf("turns %+v", res.Turns)
	}
}

// TestMappingADKv03: ADK's executor on a2a-python 0.3.x begins with a
// submitted status-update echoing the user's message (no Task): the turn
// opens there without an alarm, and the user's text is not the agent's.
func TestMappingADKv03(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-v03-adk-submitted.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="task-5c1e"; progress text="submitted"`,
		`progress text="working"`,
		`progress text="working"; text text="Clear skies over Oslo."`,
		`span-open span=item key="art-9" name="artifact"; text span=item key="art-9" text="Clear skies over Oslo."; span-close span=item key="art-9"`,
		`progress text="completed"; terminal name="status-update" outcome=completed`,
	})
}

// TestV10StrictFields: a v1.0 event body with a member its proto message
// does not define (v0.3's kind or final) is one payload-malformed: a2a-python
// parses each event with json_format.ParseDict, which raises on it. The
// proto names (task_id) are ProtoJSON too.
func TestV10StrictFields(t *testing.T) {
	task := `data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}` + "\n\n"
	bareTask := `data: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	rpc := func(ev string) string { return `data: {"jsonrpc":"2.0","id":1,"result":` + ev + "}\n\n" }
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"final (JSON-RPC)", task + rpc(`{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"final":true}}`), 1},
		{"kind and x", task + rpc(`{"statusUpdate":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"x":1}}`), 1},
		{"proto names", task + rpc(`{"statusUpdate":{"task_id":"t","context_id":"c","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"adk_app_name":"a"}}}`), 0},
		// v0.3's HTTP+JSON binding sends the v0.3 proto's JSON: the bare
		// statusUpdate has final.
		{"final (HTTP+JSON, v0.3 proto)", bareTask + `data: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"final":true}}` + "\n\n", 0},
		{"kind (HTTP+JSON)", bareTask + `data: {"statusUpdate":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n", 1},
		// A server that adds kind to every event: one alarm for the stream.
		{"kind on every event", `data: {"task":{"kind":"task","id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n" +
			`data: {"statusUpdate":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n", 1},
	} {
		res := dialecttest.Run(Dialect, tc.body)
		n := 0
		for _, a := range res.Alarms {
			if a.Rule == "payload-malformed" {
				n++
			}
		}
		if n != tc.want || len(res.Alarms) != tc.want {
			t.Errorf("%s: alarms %v, want %d payload-malformed", tc.name, dialecttest.Lines(res.Alarms), tc.want)
		}
	}
}

// TestV03RestContent: the v0.3 proto's Message holds its parts in content
// (its HTTP+JSON binding): they are the client text.
func TestV03RestContent(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-v03-rest.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	if got := strings.Join(res.Moves[1], "; "); !strings.Contains(got, `text text="Working on it"`) {
		t.Errorf("frame 1 moves %s", got)
	}
	res = dialecttest.Run(Dialect, capture(t, "valid-v03-rest-message.sse"))
	if got := strings.Join(res.Moves[0], "; "); !strings.Contains(got, `text text="Hello from v0.3 REST"`) || len(res.Alarms) != 0 {
		t.Errorf("message: moves %s alarms %v", got, dialecttest.Lines(res.Alarms))
	}
}

// TestADKThought: a text part ADK marks adk_thought is reasoning, not text.
func TestADKThought(t *testing.T) {
	body := `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"submitted"}}}` + "\n\n" +
		`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"Let me think.","metadata":{"adk_thought":true}},{"kind":"text","text":"Sunny."}]}},"final":false}}` + "\n\n" +
		`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"completed"},"final":true}}` + "\n\n"
	res := dialecttest.Run(Dialect, body)
	if got := strings.Join(res.Moves[1], "; "); got != `progress text="working"; reasoning text="Let me think."; text text="Sunny."` || len(res.Alarms) != 0 {
		t.Errorf("moves %s alarms %v", got, dialecttest.Lines(res.Alarms))
	}
}

// TestResponseWithoutID: JSON-RPC responses without an id (JSON-RPC 2.0 §5:
// REQUIRED) make a2a-js throw: one payload-malformed for the stream; an
// error response without one is only the failed terminal.
func TestResponseWithoutID(t *testing.T) {
	body := strings.ReplaceAll(capture(t, "valid-v03-task-artifacts.sse"), `"id":1,`, "")
	res := dialecttest.Run(Dialect, body)
	if len(res.Alarms) != 1 || res.Alarms[0].Rule != "payload-malformed" || res.Alarms[0].Frame != 0 {
		t.Errorf("alarms %v, want one payload-malformed at frame 0", dialecttest.Lines(res.Alarms))
	}
	res = dialecttest.Run(Dialect, strings.Replace(capture(t, "valid-error.sse"), `"id":1,"error"`, `"error"`, 1))
	if len(res.Alarms) != 0 {
		t.Errorf("error without id: alarms %v, want none", dialecttest.Lines(res.Alarms))
	}
}

// TestMappingTools: ADK's function_call and function_response data parts
// are a tool call the tools pane shows, opened, ready and closed.
func TestMappingTools(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-tool-call.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="task-7f3a"; progress text="submitted"`,
		`progress text="working"; tool-open key="call-1" name="get_weather"; tool-args key="call-1" text={"city":"Oslo"}; tool-ready key="call-1"`,
		`progress text="working"; tool-close key="call-1" name="get_weather" outcome=completed`,
		`progress text="working"; text text="Clear skies."`,
		`progress text="completed"; terminal name="status-update" outcome=completed`,
	})
}

// TestVersions: the flavor names the version; v1.0's wrappers map like
// v0.3's kinds, JSON-RPC wrapped or bare (HTTP+JSON).
func TestVersions(t *testing.T) {
	for name, want := range map[string]string{
		"valid-v03-task-artifacts.sse": flavorV03, "valid-v03-message.sse": flavorV03,
		"valid-v10-jsonrpc.sse": flavorV10, "valid-v10-rest.sse": flavorV10, "valid-v10-message.sse": flavorV10,
	} {
		res := dialecttest.Run(Dialect, capture(t, name))
		if len(res.Alarms) != 0 || len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted {
			t.Errorf("%s: alarms %v turns %+v", name, dialecttest.Lines(res.Alarms), res.Turns)
		}
		if got := flavorOf(t, capture(t, name)); got != want {
			t.Errorf("%s: flavor %q, want %q", name, got, want)
		}
	}
}

// flavorOf runs a body through a checker and returns its flavor.
func flavorOf(t *testing.T, body string) string {
	t.Helper()
	chk := Dialect.NewChecker(invariants.Options{})
	fr := decode.NewFramer()
	n := 0
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			chk.Observe(decode.DecodeFrame(ev, n))
			n++
		}
	}
	fr.Feed([]byte(body), emit)
	fr.Close(emit)
	return invariants.FlavorOf(chk)
}

// TestOutcomes: each state's outcome, at the end of a task stream, and
// the interrupted states ending it only when the stream closes there.
func TestOutcomes(t *testing.T) {
	task := `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"submitted"}}}` + "\n\n"
	upd := func(state string, final bool) string {
		return `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"` + state + `"},"final":` + strconv.FormatBool(final) + `}}` + "\n\n"
	}
	for state, want := range map[string]string{"completed": "completed", "failed": "failed", "canceled": "cancelled",
		"rejected": "refused", "input-required": "interrupted", "auth-required": "interrupted"} {
		res := dialecttest.Run(Dialect, task+upd(state, true))
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want || len(res.Alarms) != 0 {
			t.Errorf("%s: turns %+v alarms %v, want one %s turn", state, res.Turns, dialecttest.Lines(res.Alarms), want)
		}
	}
	v1 := `data: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	for state, want := range map[string]string{"TASK_STATE_COMPLETED": "completed", "TASK_STATE_FAILED": "failed",
		"TASK_STATE_CANCELED": "cancelled", "TASK_STATE_REJECTED": "refused", "TASK_STATE_INPUT_REQUIRED": "interrupted"} {
		res := dialecttest.Run(Dialect, v1+`data: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"`+state+`"}}}`+"\n\n")
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want || len(res.Alarms) != 0 {
			t.Errorf("%s: turns %+v alarms %v, want one %s turn", state, res.Turns, dialecttest.Lines(res.Alarms), want)
		}
	}
	// auth-required, then the task goes on (§7.6.1: the stream is kept).
	res := dialecttest.Run(Dialect, task+upd("auth-required", false)+upd("working", false)+upd("completed", true))
	if len(res.Alarms) != 0 || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("auth-required then working: alarms %v turns %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	// A JSON-RPC error is a failed turn.
	res = dialecttest.Run(Dialect, capture(t, "valid-error.sse"))
	if len(res.Alarms) != 0 || res.Turns[0].Outcome != invariants.TurnFailed {
		t.Errorf("error: alarms %v turns %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	// An HTTP+JSON stream ends with `event: error` and a google.rpc.Status
	// body (a2a-python rest_dispatcher.py, a2a-js rest_handler.ts), or an
	// older a2a-js server's bare {code, message}: a failed turn.
	res = dialecttest.Run(Dialect, capture(t, "valid-v10-rest-error.sse"))
	if len(res.Alarms) != 0 || len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnFailed {
		t.Errorf("REST error: alarms %v turns %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	flat := v1 + "event: error\ndata: {\"code\":-32603,\"message\":\"Internal error\"}\n\n"
	res = dialecttest.Run(Dialect, flat)
	if len(res.Alarms) != 0 || len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnFailed {
		t.Errorf("flat REST error: alarms %v turns %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	// An error response whose id is null (a server that lost the request
	// id) is the failed terminal only: no envelope-drift beside it.
	res = dialecttest.Run(Dialect, strings.Replace(capture(t, "valid-error.sse"), `"id":1,"error"`, `"id":null,"error"`, 1))
	if len(res.Alarms) != 0 || res.Turns[0].Outcome != invariants.TurnFailed {
		t.Errorf("error with a null id: alarms %v turns %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	// v0.3 input-required without final: the stream closing there ends
	// the turn, interrupted.
	res = dialecttest.Run(Dialect, task+upd("working", false)+upd("input-required", false))
	if len(res.Alarms) != 0 || res.Turns[0].Outcome != invariants.TurnInterrupted {
		t.Errorf("input-required at EOF: turns %+v", res.Turns)
	}
}

// TestSniff: A2A's shapes are claimed; a bare JSON-RPC message, another
// method's result, an MCP notification, a frame with a message member
// among others, are not.
func TestSniff(t *testing.T) {
	for data, want := range map[string]invariants.Verdict{
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}}}`:                   invariants.Yes,
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"}}}`:      invariants.Yes,
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","parts":[]}}`:                            invariants.Yes,
		`{"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}`: invariants.Yes,
		`{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[]}}}`:                                invariants.Yes,
		`{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}]}}`:                                                  invariants.Yes,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}`:                                               invariants.Maybe,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}],"isError":false}}`:                                invariants.No,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`:                                               invariants.No,
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}`:                                                                         invariants.No,
		`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}}`:                                                                     invariants.No,
		`{"message":{"messageId":"m","parts":[]},"id":"x"}`:                                                                         invariants.No,
		`{"message":"hello"}`: invariants.No,
		`{"task":{"id":"t","status":{"state":"working"}},"type":"x"}`: invariants.No,
	} {
		ev := decode.Event{Data: []byte(data), HasData: true}
		f := decode.DecodeFrame(&ev, 0)
		if got := Dialect.Sniff(f, invariants.KeysOf("type", "object")); got != want {
			t.Errorf("%s: sniff %v, want %v", data, got, want)
		}
	}
}

// TestMutations: dropping, duplicating or moving the terminal of a valid
// task stream raises an alarm, as does dropping its first chunk.
func TestMutations(t *testing.T) {
	body := capture(t, "valid-v03-task-artifacts.sse")
	bs := dialecttest.Blocks(body)
	muts := dialecttest.TerminalMutations(body, len(bs)-1)
	muts["drop first artifact chunk"] = strings.Join(append(append([]string(nil), bs[:2]...), bs[3:]...), "")
	// v1.0 §3.1.2: a task stream MUST begin with the Task (v0.3 has no
	// such rule: its client builds the task from a first update).
	muts["drop the v1.0 task"] = strings.Join(dialecttest.Blocks(capture(t, "valid-v10-jsonrpc.sse"))[1:], "")
	muts["reorder artifact chunks"] = strings.Join([]string{bs[0], bs[1], bs[3], bs[2], bs[4]}, "")
	for name, b := range muts {
		if res := dialecttest.Run(Dialect, b); len(res.Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
	if res := dialecttest.Run(Dialect, strings.Join(bs[1:], "")); len(res.Alarms) != 0 {
		t.Errorf("a v0.3 stream without its Task: %v, want none", dialecttest.Lines(res.Alarms))
	}
}

// TestIDFlood: a stream that opens a new artifact on every frame keeps the
// mapper's state bounded and raises artifact-flood once.
func TestIDFlood(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}}}` + "\n\n")
	const n = 20000
	for i := 0; i < n; i++ {
		sb.WriteString(`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a` + strconv.Itoa(i) + `","parts":[{"kind":"text","text":"x"}]}}}` + "\n\n")
	}
	p := newMapper().(*mapper)
	res := dialecttest.Run(Dialect, sb.String())
	floods := 0
	for _, a := range res.Alarms {
		if a.Rule == ruleArtifactFlood {
			floods++
		}
	}
	if floods != 1 {
		t.Errorf("artifact-flood raised %d times, want once", floods)
	}
	// The mapper's own set never grows past the bound.
	for i := 0; i < 3*maxTracked; i++ {
		p.arts.add([]byte(`"a` + strconv.Itoa(i) + `"`))
	}
	if len(p.arts.ids) != maxTracked {
		t.Errorf("tracked %d artifacts, want the bound %d", len(p.arts.ids), maxTracked)
	}
}

// TestHotPath: an artifact chunk and a status message allocate nothing
// once warm.
func TestHotPath(t *testing.T) {
	prefix := `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}}}` + "\n\n" +
		`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"x"}]}}}` + "\n\n"
	dialecttest.HotPathAllocs(t, Dialect, prefix, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"a","parts":[{"kind":"text","text":"more"}]}}}`+"\n\n")
	dialecttest.HotPathAllocs(t, Dialect, prefix, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"more"}]}},"final":false}}`+"\n\n")
}

// TestDemos: the happy demo is clean and fills every pane (text, a tool,
// a component, statuses); the broken one raises alarms.
func TestDemos(t *testing.T) {
	demos := Dialect.Demos()
	if len(demos) != 2 {
		t.Fatalf("%d demos", len(demos))
	}
	res := dialecttest.Run(Dialect, demos[0].Body)
	if len(res.Alarms) != 0 {
		t.Errorf("happy demo raises %v", dialecttest.Lines(res.Alarms))
	}
	all := ""
	for _, f := range res.Moves {
		all += strings.Join(f, "; ") + "\n"
	}
	for _, want := range []string{"tool-open", "tool-close", "span-open span=item", "progress", "text text="} {
		if !strings.Contains(all, want) {
			t.Errorf("happy demo has no %s move", want)
		}
	}
	if res := dialecttest.Run(Dialect, demos[1].Body); dialecttest.Serious(res.Alarms) < 3 {
		t.Errorf("broken demo raises only %v", dialecttest.Lines(res.Alarms))
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		capture(f, "valid-v03-task-artifacts.sse"), capture(f, "valid-v10-rest.sse"), capture(f, "valid-tool-call.sse"),
		capture(f, "artifact-after-last.fires.sse"), capture(f, "version-mixed.fires.sse"),
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"artifact-update\",\"artifact\":{\"artifactId\":7,\"parts\":{}},\"append\":\"yes\"}}\n\n"+
			"data: {\"jsonrpc\":1,\"error\":[]}\n\ndata: {\"task\":{\"id\":[],\"status\":{\"state\":{}},\"artifacts\":[{\"artifactId\":\"a\",\"parts\":[1]}]}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"result\":{\"kind\":\"status-update\",\"status\":{\"state\":\"working\",\"message\":{\"parts\":[{\"data\":{\"name\":\"f\"},\"metadata\":{\"adk_type\":\"function_call\"}},{\"data\":{},\"metadata\":{\"adk_type\":\"function_response\"}}]}},\"final\":\"x\"}}\n\n")
}

// TestBodyNamesSlots: each body member picks into its field's slot.
func TestBodyNamesSlots(t *testing.T) {
	for name, slot := range map[string]int{"kind": fKind, "taskId": fTaskID, "contextId": fCtxID, "status": fStatus,
		"artifact": fArtifact, "append": fAppend, "lastChunk": fLast, "final": fFinal, "id": fID, "messageId": fMessageID,
		"parts": fParts, "content": fParts, "artifacts": fArtifacts, "statusUpdate": fStatusUpdate,
		"artifactUpdate": fArtifactUpdate, "task": fTask, "message": fMessage, "msg": fMsg} {
		if got := bodyNames.Slot([]byte(name), false); got != slot {
			t.Errorf("%s: slot %d, want %d", name, got, slot)
		}
	}
	if bodyNames.Len() != nFields {
		t.Errorf("%d slots, want %d", bodyNames.Len(), nFields)
	}
}
