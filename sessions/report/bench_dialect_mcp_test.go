package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"mcp", genMCP})
}

// genMCP writes a Streamable HTTP answer to a long tools/call (a raw body,
// as the bench reads it): a priming event, then progress notifications and
// log messages, then the tool's text result. Progress dominates, as in a
// long-running tool.
//
// Shaped as the SDKs send it: a notification's members in the order the
// Python SDK writes them (method, params, jsonrpc — as the deepwiki
// recording in testdata/real/mcp shows), progress with a total, and an
// event id on every event as the TypeScript SDK's example event store
// makes them (streamId_milliseconds_random: a log message and the progress
// after it share a millisecond, so the ids do not always grow and the
// mapper must remember them, not just the last).
func genMCP(b *bytes.Buffer, size int) {
	const stream = "3f2b6a1e-8f7c-4d2a-9b1e-0c5d7e9a1f20"
	rng := rand.New(rand.NewPCG(25, 2026))
	ms := int64(1764180012345)
	id := func() string {
		const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
		var r [8]byte
		for i := range r {
			r[i] = digits[rng.IntN(len(digits))]
		}
		return fmt.Sprintf("%s_%d_%s", stream, ms, r[:])
	}
	fmt.Fprintf(b, "id: %s\ndata: \n\n", id())
	for i := 1; b.Len() < size; i++ {
		ms += int64(1 + rng.IntN(40))
		if i%50 == 0 {
			fmt.Fprintf(b, "id: %s\nevent: message\ndata: {\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"logger\":\"deepwiki.ask_question\",\"data\":%q},\"jsonrpc\":\"2.0\"}\n\n", id(), delta(i))
		}
		fmt.Fprintf(b, "id: %s\nevent: message\ndata: {\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":%d,\"total\":1000000,\"message\":%q},\"jsonrpc\":\"2.0\"}\n\n", id(), i, delta(i))
	}
	ms++
	fmt.Fprintf(b, "id: %s\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Pydantic AI is a Python agent framework.\"}],\"isError\":false}}\n\n", id())
}
