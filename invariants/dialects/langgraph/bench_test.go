package langgraph

import (
	"framescope/invariants/dialects/dialecttest"
	"testing"
)

// benchMeta is the metadata langgraph pairs a chunk with (the pregel
// task's fields and the model's ls_* ones: vercel/ai
// packages/langchain/src/__fixtures__/langgraph.ts).
const benchMeta = `{"tags":[],"thread_id":"thread-1765862425919","langgraph_step":1,"langgraph_node":"model_request","langgraph_triggers":["branch:to:model_request"],"langgraph_path":["__pregel_pull","model_request"],"langgraph_checkpoint_ns":"model_request:e377e9fd-f4a2-5329-b182-c208cf3f31d5","__pregel_task_id":"e377e9fd-f4a2-5329-b182-c208cf3f31d5","checkpoint_ns":"model_request:e377e9fd-f4a2-5329-b182-c208cf3f31d5","ls_provider":"openai","ls_model_name":"gpt-4o-mini","ls_model_type":"chat"}`

// BenchmarkObserveDelta is the checking core's cost of a text delta: the
// frame is decoded once (the reading core's work), observed b.N times.
func BenchmarkObserveDelta(b *testing.B) {
	hot := "event: messages\ndata: [{\"content\":\"fox jumps \",\"additional_kwargs\":{},\"response_metadata\":{},\"type\":\"AIMessageChunk\",\"name\":null,\"id\":\"run--a1\",\"example\":false,\"tool_calls\":[],\"invalid_tool_calls\":[],\"usage_metadata\":null,\"tool_call_chunks\":[]}," + benchMeta + "]\n\n"
	dialecttest.ObserveBench(b, Dialect, meta+hot, hot)
}
