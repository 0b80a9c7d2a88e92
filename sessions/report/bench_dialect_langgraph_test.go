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

// lgRunMeta is the run's metadata langgraph-api pairs every message chunk
// with (its keys as langgraph-sdk-py's recorded run has them,
// libs/sdk-py/tests/fixtures/response.txt, without that deployment's
// request headers and assistant prompts, which make it 7.5 KB there); the
// node's own part (lgNodeMeta) follows it.
const lgRunMeta = `"created_by":"system","graph_id":"agent","assistant_id":"fe096781-5601-53d2-b2f6-0d3403f7e9ca","run_attempt":1,"langgraph_version":"0.6.6","langgraph_api_version":"0.4.3","langgraph_plan":"developer","langgraph_host":"self-hosted","langgraph_api_url":null,"run_id":"1ef4a9b8-2c3d-6e7f-8a9b-0c1d2e3f4a5b","thread_id":"5b1f3c2e-8d4a-4e6b-9c7d-0e1f2a3b4c5d","user_id":"","langgraph_request_id":"d9ae35cd43d17c9659a1189f43158167","langgraph_auth_user_id":""`

// lgNodeMeta is the pregel task's part of a chunk's metadata (langgraph
// pregel/messages.py; vercel/ai packages/langchain/src/__fixtures__/
// langgraph.ts): the step, the node, its task, and the model's ls_* keys
// (a node that calls no model has none).
func lgNodeMeta(step int, node, task string, model bool) string {
	ls := ""
	if model {
		ls = `,"ls_provider":"openai","ls_model_name":"gpt-4o-mini","ls_model_type":"chat","ls_temperature":0.0`
	}
	return fmt.Sprintf(`{%s,"langgraph_step":%d,"langgraph_node":%q,"langgraph_triggers":["branch:to:%s"],"langgraph_path":["__pregel_pull",%q],"langgraph_checkpoint_ns":"%s:%s","checkpoint_ns":"%s:%s"%s}`,
		lgRunMeta, step, node, node, node, node, task, node, task, ls)
}

// genLangGraph writes one LangGraph run in messages-tuple mode (a run is a
// stream) as langgraph-api sends it: metadata, then agent steps — a tool
// call in tool_call_chunks, its ToolMessage from the tools node, the
// answer in text deltas — each message chunk with the metadata of the
// node and step it came from, and end.
func genLangGraph(b *bytes.Buffer, size int) {
	fmt.Fprintf(b, "event: metadata\ndata: {\"run_id\":\"1ef4a9b8-2c3d-6e7f-8a9b-0c1d2e3f4a5b\",\"attempt\":1}\n\n")
	for step := 0; b.Len() < size; step++ {
		call := fmt.Sprintf("call_%d", step)
		agent := lgNodeMeta(3*step+1, "agent", fmt.Sprintf("5e333532-4443-c672-d930-%012x", 3*step+1), true)
		tools := lgNodeMeta(3*step+2, "tools", fmt.Sprintf("5e333532-4443-c672-d930-%012x", 3*step+2), false)
		answer := lgNodeMeta(3*step+3, "agent", fmt.Sprintf("5e333532-4443-c672-d930-%012x", 3*step+3), true)
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"\",\"additional_kwargs\":{},\"response_metadata\":{},\"type\":\"AIMessageChunk\",\"name\":null,\"id\":\"run--t%d\",\"example\":false,\"tool_calls\":[],\"invalid_tool_calls\":[],\"usage_metadata\":null,\"tool_call_chunks\":[{\"name\":\"search\",\"args\":\"{\\\"q\\\": \\\"ridge\\\"}\",\"id\":%q,\"index\":0,\"type\":\"tool_call_chunk\"}]},%s]\n\n", step, call, agent)
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"\",\"additional_kwargs\":{},\"response_metadata\":{\"finish_reason\":\"tool_calls\",\"model_name\":\"gpt-4o-mini-2024-07-18\"},\"type\":\"AIMessageChunk\",\"name\":null,\"id\":\"run--t%d\",\"example\":false,\"tool_calls\":[],\"invalid_tool_calls\":[],\"usage_metadata\":null,\"tool_call_chunks\":[]},%s]\n\n", step, agent)
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"3 results\",\"additional_kwargs\":{},\"response_metadata\":{},\"type\":\"tool\",\"name\":\"search\",\"id\":\"tool-%d\",\"tool_call_id\":%q,\"artifact\":null,\"status\":\"success\"},%s]\n\n", step, call, tools)
		for i := 0; i < 200; i++ {
			fmt.Fprintf(b, "event: messages\ndata: [{\"content\":%q,\"additional_kwargs\":{},\"response_metadata\":{},\"type\":\"AIMessageChunk\",\"name\":null,\"id\":\"run--a%d\",\"example\":false,\"tool_calls\":[],\"invalid_tool_calls\":[],\"usage_metadata\":null,\"tool_call_chunks\":[]},%s]\n\n", delta(i), step, answer)
		}
	}
	fmt.Fprintf(b, "event: end\ndata: null\n\n")
}
