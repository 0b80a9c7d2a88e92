package report

import (
	"bytes"
	"fmt"
)

func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"langgraph", genLangGraph})
}

// genLangGraph writes one LangGraph run in messages-tuple mode (a run is a
// stream): metadata, then agent steps — a tool call in tool_call_chunks,
// its ToolMessage, the answer in text deltas — each message chunk with the
// metadata LangGraph pairs it with, and end.
func genLangGraph(b *bytes.Buffer, size int) {
	fmt.Fprintf(b, "event: metadata\ndata: {\"run_id\":\"1ef4a9b8-2c3d-6e7f-8a9b-0c1d2e3f4a5b\",\"attempt\":1}\n\n")
	const meta = `{"langgraph_step":3,"langgraph_node":"agent","langgraph_triggers":["branch:to:agent"],"ls_provider":"openai","ls_model_name":"gpt-4o-mini"}`
	for step := 0; b.Len() < size; step++ {
		call := fmt.Sprintf("call_%d", step)
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"\",\"type\":\"AIMessageChunk\",\"id\":\"run--t%d\",\"tool_calls\":[],\"tool_call_chunks\":[{\"name\":\"search\",\"args\":\"{\\\"q\\\": \\\"ridge\\\"}\",\"id\":%q,\"index\":0,\"type\":\"tool_call_chunk\"}]},%s]\n\n", step, call, meta)
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"\",\"type\":\"AIMessageChunk\",\"id\":\"run--t%d\",\"response_metadata\":{\"finish_reason\":\"tool_calls\"},\"tool_calls\":[],\"tool_call_chunks\":[]},%s]\n\n", step, meta)
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"3 results\",\"type\":\"tool\",\"id\":\"tool-%d\",\"tool_call_id\":%q,\"status\":\"success\"},%s]\n\n", step, call, meta)
		for i := 0; i < 200; i++ {
			fmt.Fprintf(b, "event: messages\ndata: [{\"content\":%q,\"additional_kwargs\":{},\"response_metadata\":{},\"type\":\"AIMessageChunk\",\"name\":null,\"id\":\"run--a%d\",\"example\":false,\"tool_calls\":[],\"invalid_tool_calls\":[],\"usage_metadata\":null,\"tool_call_chunks\":[]},%s]\n\n", delta(i), step, meta)
		}
	}
	fmt.Fprintf(b, "event: end\ndata: null\n\n")
}
