package langgraph

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// chunkNames are what the mapper reads of a messages-tuple chunk (a
// serialized langchain-core message chunk: langchain_core messages/ai.py
// AIMessageChunk, messages/tool.py ToolMessageChunk), in chunk's order;
// the members it does not read (name, example, additional_kwargs,
// tool_calls, usage_metadata…) are skipped.
var chunkNames = decode.Names("type", "id", "content", "tool_call_chunks", "chunk_position", "response_metadata", "tool_call_id", "status")

// chunk is a chunk's members as chunkNames picks them, each a view of the
// frame's data, nil when absent (the last of a repeated key wins, as in
// encoding/json).
type chunk [8]decode.Raw

// maxMetaKept bounds the metadata a mapper keeps to compare the next
// tuple's with (LangGraph Platform's carries the request's headers and
// the assistant's configurable: 7.5 KB in langgraph-sdk-py's fixture).
const maxMetaKept = 32 << 10

// lastMeta is the previous tuple's metadata and the graph node it names:
// every chunk of a node's model call carries the same metadata (langgraph
// pregel/messages.py StreamMessagesHandler keeps one per run), so a tuple
// that repeats it byte for byte names the same node without being read.
type lastMeta struct {
	meta, node []byte
}

// commonTuple maps the tuple a stream is made of — [chunk object,
// metadata object], nothing more — in one pass over its bytes: the
// chunk's members are read as the pass finds its end, and metadata equal
// to the last tuple's is compared, not walked. It reports false, having
// moved nothing, for any other data: tuple reads it element by element
// and says what is wrong with it.
func (p *mapper) commonTuple(data decode.Raw, c *chunk, m *invariants.Mapping) bool {
	if len(data) < 2 || data[0] != '[' {
		return false
	}
	i := skipSpace(data, 1)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	end := chunkNames.Pick(data[i:], c[:])
	if end == 0 {
		return false
	}
	j := skipSpace(data, i+end)
	if j >= len(data) || data[j] != ',' {
		return false
	}
	k := skipSpace(data, j+1)
	if kept := p.lastMeta.meta; len(kept) > 0 && bytes.HasPrefix(data[k:], kept) {
		if !closes(data, k+len(kept)) {
			return false
		}
		p.node(p.lastMeta.node, m)
		return true
	}
	end = decode.ValueEnd(data, k)
	meta := data[k:end]
	if end <= k || meta.Kind() != decode.KindObject || !closes(data, end) {
		return false
	}
	node := meta.Get("langgraph_node")
	p.node(node, m)
	if len(meta) <= maxMetaKept {
		p.lastMeta.meta = append(p.lastMeta.meta[:0], meta...)
		p.lastMeta.node = append(p.lastMeta.node[:0], node...)
	} else {
		p.lastMeta.meta = p.lastMeta.meta[:0]
	}
	return true
}

// closes reports whether data[i:] is only the array's closing bracket
// (and whitespace).
func closes(data []byte, i int) bool {
	i = skipSpace(data, i)
	return i == len(data)-1 && data[i] == ']'
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
