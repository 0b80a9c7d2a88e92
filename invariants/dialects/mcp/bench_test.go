package mcp

import (
	"testing"

	"framescope/decode"
)

// A progress notification cannot be observed over and over (its value
// must increase), so these measure the readers the mapper calls on one.

// benchProgress is a progress notification as the Python SDK writes it
// (members in its order, the params last but one).
var benchProgress = decode.Raw(`{"method":"notifications/progress","params":{"progressToken":1,"progress":4711,"total":1000000,"message":"fox jumps "},"jsonrpc":"2.0"}`)

// BenchmarkProgressFields reads a progress notification's params.
func BenchmarkProgressFields(b *testing.B) {
	params := benchProgress.Get("params")
	b.SetBytes(int64(len(params)))
	b.ReportAllocs()
	for b.Loop() {
		if tok, val, text := progressFields(params); tok == nil || val == nil || text == nil {
			b.Fatal("a member missed")
		}
	}
}

// BenchmarkRawRPC reads a batch element's members.
func BenchmarkRawRPC(b *testing.B) {
	b.SetBytes(int64(len(benchProgress)))
	b.ReportAllocs()
	for b.Loop() {
		if g := rawRPC(benchProgress); g.method == nil || g.params == nil {
			b.Fatal("a member missed")
		}
	}
}
