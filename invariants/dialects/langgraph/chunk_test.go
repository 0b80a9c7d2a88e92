package langgraph

import (
	"testing"

	"framescope/invariants/dialects/dialecttest"
)

// TestRepeatedMetadata: a tuple whose metadata repeats the last one's
// byte for byte names the same node without being read, yet the node a
// progress line names is the graph's latest: an update from another node
// in between makes the repeated metadata's node news again. A tuple that
// starts like the common one but is not [chunk, metadata] is still
// malformed, and metadata that differs is read.
func TestRepeatedMetadata(t *testing.T) {
	const agent = `{"langgraph_step":1,"langgraph_node":"agent","ls_provider":"openai"}`
	chunk := func(text, meta string) string {
		return "event: messages\ndata: [{\"content\":\"" + text + "\",\"type\":\"AIMessageChunk\",\"id\":\"run--a1\",\"tool_call_chunks\":[]}, " + meta + " ]\n\n"
	}
	res := dialecttest.Run(Dialect, meta+
		chunk("a", agent)+
		chunk("b", agent)+
		"event: updates\ndata: {\"tools\":{\"messages\":[]}}\n\n"+
		chunk("c", agent)+
		chunk("d", `{"langgraph_step":2,"langgraph_node":"summarize"}`)+
		chunk("e", `{"langgraph_step":2,"langgraph_node":"summarize"}`)+
		"event: messages\ndata: [{\"content\":\"f\",\"type\":\"AIMessageChunk\",\"id\":\"run--a1\"},"+`{"langgraph_step":2,"langgraph_node":"summarize"}`+",{}]\n\n"+
		"event: end\ndata: null\n\n")
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="r1"`,
		`progress text="agent"; text text="a"`,
		`text text="b"`,
		`progress text="tools"`,
		`progress text="agent"; text text="c"`,
		`progress text="summarize"; text text="d"`,
		`text text="e"`,
		``,
		`terminal name="end" outcome=completed`,
	})
	if lines := dialecttest.Lines(res.Alarms); len(lines) != 1 || res.Alarms[0].Rule != "payload-malformed" || res.Alarms[0].Frame != 7 {
		t.Errorf("alarms %v, want payload-malformed on frame 7 (a tuple of three)", lines)
	}
}
