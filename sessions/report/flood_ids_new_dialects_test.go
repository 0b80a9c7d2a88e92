package report

import (
	"bytes"
	"fmt"
)

// Id floods of the agent-protocol dialects (issue 25), run by
// BenchmarkCheckIDFlood and TestCheckIDFloodHeapBounded beside the others.
func init() {
	idFloodGens = append(idFloodGens, []struct {
		name string
		gen  dialectGen
	}{
		{"gemini", floodGemini},
		{"ollama", floodOllama},
		{"mcp", floodMCP},
		{"a2a", floodA2A},
		{"langgraph", floodLangGraph},
	}...)
}

// floodGemini: every chunk calls a function under a new id.
func floodGemini(b *bytes.Buffer, size int) {
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, `data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":"call_%d","name":"lookup","args":{"q":"x"}}}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-flash","responseId":"bH6LaZW8Fp_3nsEPqtaSwQ4"}`+"\n\n", i)
	}
}

// floodOllama: every line carries a whole tool call under a new id.
func floodOllama(b *bytes.Buffer, size int) {
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, `{"model":"qwen3:8b","created_at":"2026-05-01T10:00:00.000Z","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_%d","function":{"name":"lookup","arguments":{"q":"x"}}}]},"done":false}`+"\n", i)
	}
}

// floodMCP: every event is progress for a new progress token.
func floodMCP(b *bytes.Buffer, size int) {
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"tok-%d\",\"progress\":1,\"total\":3}}\n\n", i)
	}
}

// floodA2A: every event starts a new artifact and never closes it.
func floodA2A(b *bytes.Buffer, size int) {
	b.WriteString(`data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"task-7f3a","contextId":"ctx-91b2","status":{"state":"working"}}}` + "\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"task-7f3a","contextId":"ctx-91b2","artifact":{"artifactId":"art-%d","parts":[{"kind":"text","text":"x"}]},"append":false,"lastChunk":false}}`+"\n\n", i)
	}
}

// floodLangGraph: every message chunk is a new message with a new tool call.
func floodLangGraph(b *bytes.Buffer, size int) {
	b.WriteString("event: metadata\ndata: {\"run_id\":\"1ef4a9b8-2c3d-6e7f-8a9b-0c1d2e3f4a5b\",\"attempt\":1}\n\n")
	const meta = `{"langgraph_step":3,"langgraph_node":"agent"}`
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "event: messages\ndata: [{\"content\":\"\",\"type\":\"AIMessageChunk\",\"id\":\"run--m%d\",\"tool_calls\":[],\"tool_call_chunks\":[{\"name\":\"search\",\"args\":\"{}\",\"id\":\"call_%d\",\"index\":0,\"type\":\"tool_call_chunk\"}]},%s]\n\n", i, i, meta)
	}
}
