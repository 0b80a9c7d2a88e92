package report

import (
	"bytes"
	"fmt"
)

func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"mcp", genMCP})
}

// genMCP writes a Streamable HTTP answer to a long tools/call (a raw body,
// as the bench reads it): a priming event, then progress notifications and
// log messages with event ids, then the tool's text result. Progress
// dominates, as in a long-running tool.
func genMCP(b *bytes.Buffer, size int) {
	b.WriteString("id: s1_0\ndata: \n\n")
	n := 0
	for i := 1; b.Len() < size; i++ {
		n++
		if i%50 == 0 {
			fmt.Fprintf(b, "id: s1_%d\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"logger\":\"deepwiki.ask_question\",\"data\":%q}}\n\n", n, delta(i))
			n++
		}
		fmt.Fprintf(b, "id: s1_%d\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":%d,\"message\":%q}}\n\n", n, i, delta(i))
	}
	fmt.Fprintf(b, "id: s1_%d\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Pydantic AI is a Python agent framework.\"}],\"isError\":false}}\n\n", n+1)
}
