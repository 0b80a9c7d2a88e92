package langgraph

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

func capture(t testing.TB, name string) string { return dialecttest.Capture(t, "langgraph", name) }

const meta = "event: metadata\ndata: {\"run_id\":\"r1\",\"attempt\":1}\n\n"

func tuple(msg string) string {
	return "event: messages\ndata: [" + msg + ",{\"langgraph_node\":\"agent\"}]\n\n"
}

// TestMappingTuples: messages-tuple chunks map to text deltas, a tool call
// opened by its first tool_call_chunk and grown by the next, ready when its
// message finishes, closed by its ToolMessage; the final values repeat
// what was streamed and move nothing; end is the completed terminal. A
// chunk from another graph node is a progress line naming it.
func TestMappingTuples(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-messages-tuple.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="1ef4a9b8-2c3d-6e7f-8a9b-0c1d2e3f4a5b"`,
		``,
		`progress text="agent"; tool-open key="call_Xq1" name="get_weather"`,
		`tool-args key="call_Xq1" text="{\"city\": \"Paris\"}"`,
		`tool-ready key="call_Xq1"`,
		`progress text="tools"; tool-close key="call_Xq1" outcome=completed`,
		`progress text="agent"; text text="It is"`,
		`text text=" 18°C and sunny"`,
		`text text=" in Paris today."`,
		``,
		`terminal name="end" outcome=completed`,
	})
}

// TestMappingValuesUpdates: without messages mode, a node's update gives
// the whole message (its text, its tool calls opened with their args and
// ready); the first values (the thread's history) moves nothing, and the
// close of the stream is the completed terminal.
func TestMappingValuesUpdates(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-values-updates.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="1ef0d3b5-8e2f-6c4b-a011-6d3e9f5b2c88"`,
		``,
		`progress text="agent"; tool-open key="call_c2" name="calculator"; tool-args key="call_c2" text={"expression":"2+2"}; tool-ready key="call_c2"`,
		``,
		`progress text="tools"; tool-close key="call_c2" outcome=completed`,
		``,
		`progress text="agent"; text text="2 + 2 = 4."`,
		``,
	})
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted || res.Turns[0].TerminalEvent != "stream closed" {
		t.Errorf("turns %+v, want one turn completed by the close", res.Turns)
	}
}

// TestMappingPartial: messages/partial carries the message so far; only
// the text beyond the previous partial is a delta, and messages/complete
// repeats it without a move.
func TestMappingPartial(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-legacy-messages.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="1ef0f5d7-a041-6e6d-c233-8f5a1b7d4eaa"`, ``, ``,
		`text text="Why did"`,
		`text text=" the graph"`,
		`text text=" cross the edge? To reach the end node."`,
		``, ``,
	})
}

// TestMappingSubgraphs: namespaced events map like the root's; thinking
// blocks are reasoning, text blocks text.
func TestMappingSubgraphs(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-subgraphs.sse"))
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	var texts []string
	for _, fr := range res.Moves {
		for _, mv := range fr {
			if strings.HasPrefix(mv, "text ") || strings.HasPrefix(mv, "reasoning ") {
				texts = append(texts, mv)
			}
		}
	}
	want := []string{`reasoning text="I should search."`, `text text="Searching the docs"`, `text text="LangGraph streams runs over SSE."`}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("texts %q, want %q", texts, want)
	}
}

// TestTerminals: error fails the run (its message the reason), end and a
// clean close complete it, a transport error leaves it without terminal.
func TestTerminals(t *testing.T) {
	chunk := tuple(`{"content":"x","type":"AIMessageChunk","id":"m1"}`)
	res := dialecttest.Run(Dialect, meta+chunk+"event: error\ndata: {\"error\":\"ValueError\",\"message\":\"boom\"}\n\n")
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnFailed || len(res.Alarms) != 0 {
		t.Errorf("error: turns %+v alarms %v", res.Turns, dialecttest.Lines(res.Alarms))
	}
	res = dialecttest.RunOpts(Dialect, meta+chunk, invariants.Options{})
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("close: turns %+v", res.Turns)
	}
	// A transport error: the mapper adds no terminal, the Engine says
	// terminal-missing.
	chk := Dialect.NewChecker(invariants.Options{})
	var dec decode.Decoder
	decode.NewFramer().Feed([]byte(meta+chunk), func(ev *decode.Event) {
		if ev.Dispatched() {
			chk.Observe(dec.Decode(ev, 0, false))
		}
	})
	as := chk.End(invariants.End{Kind: invariants.EndError, Detail: "connection reset"})
	if got := dialecttest.Lines(as); len(got) != 1 || !strings.HasPrefix(got[0], "terminal-missing error") {
		t.Errorf("transport error: alarms %v, want terminal-missing", got)
	}
}

// TestPendingCallsReady: a streamed call whose message never says it
// finished is ready when the next message starts, or at the terminal: no
// tool-unfinished for a run the server paused (an interrupt) or ended.
func TestPendingCallsReady(t *testing.T) {
	open := tuple(`{"content":"","type":"AIMessageChunk","id":"m1","tool_call_chunks":[{"name":"ask_human","args":"{}","id":"c1","index":0}]}`)
	next := tuple(`{"content":"Waiting","type":"AIMessageChunk","id":"m2"}`)
	res := dialecttest.Run(Dialect, meta+open+next)
	if dialecttest.Serious(res.Alarms) != 0 {
		t.Errorf("alarms %v", dialecttest.Lines(res.Alarms))
	}
	if got := strings.Join(res.Moves[2], "; "); got != `tool-ready key="c1"; text text="Waiting"` {
		t.Errorf("next message moves %q", got)
	}
	res = dialecttest.Run(Dialect, meta+open+"event: end\ndata: null\n\n")
	if got := strings.Join(res.Moves[2], "; "); got != `tool-ready key="c1"; terminal name="end" outcome=completed` || dialecttest.Serious(res.Alarms) != 0 {
		t.Errorf("end moves %q alarms %v", got, dialecttest.Lines(res.Alarms))
	}
}

// TestEventIDs: ids may be decimal or Redis stream ids; only a repeat or a
// step back is event-id-order, and ids of other shapes only a repeat.
func TestEventIDs(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1", "2", false}, {"2", "1", true}, {"5", "5", true},
		{"1700-3", "1700-4", false}, {"1700-4", "1700-3", true}, {"1700-9", "1701-0", false},
		{"b", "a", false}, {"x", "x", true},
	} {
		body := "id: " + tc.a + "\n" + meta + "id: " + tc.b + "\n" + tuple(`{"content":"x","type":"AIMessageChunk","id":"m1"}`)
		res := dialecttest.Run(Dialect, body)
		got := len(res.Alarms) == 1 && res.Alarms[0].Rule == "event-id-order"
		if got != tc.want || (!tc.want && len(res.Alarms) != 0) {
			t.Errorf("%s then %s: alarms %v, want event-id-order %v", tc.a, tc.b, dialecttest.Lines(res.Alarms), tc.want)
		}
	}
}

// TestSniff: the event name decides; metadata needs the LangGraph shape,
// a bare stream mode name is only Maybe, error and end say nothing.
func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		ev, data string
		want     invariants.Verdict
	}{
		{"metadata", `{"run_id":"r","attempt":1}`, invariants.Yes},
		{"metadata", `{"run_id":"r"}`, invariants.Yes},
		{"metadata", `{"run_id":"r","model":"x"}`, invariants.No},
		{"metadata", `{"usage":{}}`, invariants.No},
		{"metadata|sub:1", `{"run_id":"r","attempt":1}`, invariants.No},
		{"messages/metadata", `{"run--1":{"metadata":{}}}`, invariants.Yes},
		{"values|sub:1", `{"a":1}`, invariants.Yes},
		{"values", `{"a":1}`, invariants.Maybe},
		{"updates", `{"agent":{}}`, invariants.Maybe},
		{"error", `{"error":"E","message":"m"}`, invariants.No},
		{"end", `{}`, invariants.No},
		{"", `{"run_id":"r","attempt":1}`, invariants.No},
		{"message", `{"type":"x"}`, invariants.No},
	} {
		ev := decode.Event{Data: []byte(tc.data), HasData: true, Type: tc.ev, HasType: tc.ev != ""}
		if got := Dialect.Sniff(decode.DecodeFrame(&ev, 0), invariants.Keys{}); got != tc.want {
			t.Errorf("event %q data %s: %v, want %v", tc.ev, tc.data, got, tc.want)
		}
	}
}

// TestMutations: in a valid run whose events carry ids, duplicating any
// event, swapping two neighbours or moving the end raises an error or a
// warning; so does dropping the metadata of a run without ids.
func TestMutations(t *testing.T) {
	bs := dialecttest.Blocks(capture(t, "valid-messages-tuple.sse"))
	// Without ids: with them, a stream whose first event is not metadata
	// is a resumed run (valid-resumed-join).
	noIDs := strings.Join(bs[1:], "")
	for i := range bs {
		bs[i] = fmt.Sprintf("id: %d\n", i+1) + bs[i]
	}
	muts := dialecttest.TerminalMutations(strings.Join(bs, ""), len(bs)-1)
	delete(muts, "drop terminal") // the close ends the run as well: legal
	muts["drop metadata"] = noIDs
	for i := range bs {
		dup := append(append(append([]string(nil), bs[:i+1]...), bs[i]), bs[i+1:]...)
		muts[fmt.Sprintf("duplicate %d", i)] = strings.Join(dup, "")
		if i+1 < len(bs) {
			c := append([]string(nil), bs...)
			c[i], c[i+1] = c[i+1], c[i]
			muts[fmt.Sprintf("swap %d and %d", i, i+1)] = strings.Join(c, "")
		}
	}
	for name, body := range muts {
		if res := dialecttest.Run(Dialect, body); dialecttest.Serious(res.Alarms) == 0 {
			t.Errorf("%s: no error or warning (alarms %v)", name, dialecttest.Lines(res.Alarms))
		}
	}
}

// TestIDFloodBounded: a run that names a new message id and a new tool
// call on every frame keeps the mapper's memory bounded, and says so once.
func TestIDFloodBounded(t *testing.T) {
	chk := Dialect.NewChecker(invariants.Options{})
	var dec decode.Decoder
	fr := decode.NewFramer()
	raised := 0
	feed := func(body string) {
		fr.Feed([]byte(body), func(ev *decode.Event) {
			if ev.Dispatched() {
				for _, a := range chk.Observe(dec.Decode(ev, 0, false)) {
					if a.Rule == "ids-bounded" {
						raised++
					}
				}
			}
		})
	}
	feed(meta)
	frame := func(i int) string {
		return tuple(fmt.Sprintf(`{"content":"x","type":"AIMessageChunk","id":"m%d","tool_call_chunks":[{"name":"f","args":"{}","id":"c%d","index":0}]}`, i, i))
	}
	for i := range 2 * maxTracked {
		feed(frame(i))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 2 * maxTracked; i < 12*maxTracked; i++ {
		feed(frame(i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if raised != 1 {
		t.Errorf("ids-bounded raised %d times, want once", raised)
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 4<<20 {
		t.Errorf("heap grew %d bytes over 40960 more ids, want bounded", grown)
	}
}

// TestHotPath: a text delta of a message already streaming allocates
// nothing once warm.
func TestHotPath(t *testing.T) {
	dialecttest.HotPathAllocs(t, Dialect, meta+tuple(`{"content":"a","type":"AIMessageChunk","id":"run--m1","tool_call_chunks":[]}`),
		tuple(`{"content":" more","type":"AIMessageChunk","id":"run--m1","tool_calls":[],"tool_call_chunks":[]}`))
}

// TestDemos: the happy demo is clean and fills text and tools; the broken
// one raises alarms.
func TestDemos(t *testing.T) {
	demos := Dialect.Demos()
	if len(demos) != 2 {
		t.Fatalf("%d demos", len(demos))
	}
	res := dialecttest.Run(Dialect, demos[0].Body)
	if len(res.Alarms) != 0 {
		t.Errorf("happy demo raises %v", dialecttest.Lines(res.Alarms))
	}
	all := fmt.Sprint(res.Moves)
	for _, want := range []string{"text ", "tool-open", "tool-close", "terminal"} {
		if !strings.Contains(all, want) {
			t.Errorf("happy demo makes no %s move", want)
		}
	}
	if res := dialecttest.Run(Dialect, demos[1].Body); dialecttest.Serious(res.Alarms) < 3 {
		t.Errorf("broken demo raises only %v", dialecttest.Lines(res.Alarms))
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		meta+tuple(`{"content":[{"type":"text","text":1},"s",{"type":"thinking"}],"type":"AIMessageChunk","id":"m","tool_call_chunks":[{"id":"c","name":"f","index":-1},{"id":null,"args":"x","index":-1}]}`),
		meta+"event: messages/partial\ndata: [{\"content\":[{\"type\":\"text\",\"text\":\"ab\"}],\"type\":\"ai\",\"id\":\"m\",\"tool_calls\":[{\"id\":\"c\"}]}]\n\nevent: messages/partial\ndata: [{\"content\":\"a\",\"type\":\"ai\",\"id\":\"m\"}]\n\n",
		meta+"event: updates\ndata: {\"n\":{\"messages\":{\"type\":\"tool\",\"tool_call_id\":\"c\"}}}\n\nevent: values|x\ndata: {\"messages\":7}\n\nevent: error\ndata: null\n\nevent: end\ndata: null\n\n",
		"id: 9-9\nevent: messages\ndata: []\n\nid: 9-8\nevent: metadata\ndata: {\"run_id\":1}\n\n",
		capture(f, "valid-values-updates.sse"), capture(f, "valid-subgraphs.sse"))
}

// TestNamedCustomChannels: a named custom channel (custom:NAME) and the
// lifecycle mode are known stream modes (langgraphjs libs/langgraph-api
// src/stream.mts), not unknown events.
func TestNamedCustomChannels(t *testing.T) {
	body := meta + "event: custom:progress\ndata: {\"pct\":50}\n\n" +
		"event: custom:progress|tools:1\ndata: 3\n\n" + "event: lifecycle\ndata: {\"event\":\"running\"}\n\n"
	if res := dialecttest.Run(Dialect, body); len(res.Alarms) != 0 {
		t.Errorf("alarms %v, want none", dialecttest.Lines(res.Alarms))
	}
}

// TestResumedJoin: a stream whose first event carries an id and is not
// metadata is a resumed run (the SDK rejoins with Last-Event-ID): no
// start-missing; without an id it is start-missing.
func TestResumedJoin(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-resumed-join.sse"))
	if len(res.Alarms) != 0 || len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("resumed: alarms %v turns %+v", dialecttest.Lines(res.Alarms), res.Turns)
	}
	res = dialecttest.Run(Dialect, "event: values\ndata: {\"step\": 2}\n\nevent: end\ndata: null\n\n")
	if len(res.Alarms) != 1 || res.Alarms[0].Rule != "start-missing" {
		t.Errorf("no id: alarms %v, want start-missing", dialecttest.Lines(res.Alarms))
	}
}
