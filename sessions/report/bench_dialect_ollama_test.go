package report

import (
	"bytes"
	"fmt"
)

func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"ollama", genOllama})
}

// genOllama writes one long /api/chat turn as the server sends it, raw
// NDJSON (application/x-ndjson), so the benchmark reads it through the raw
// NDJSON capture as `framescope check chat.ndjson` does: thinking lines, a
// whole tool call, content lines, the done frame with timings.
func genOllama(b *bytes.Buffer, size int) {
	const head = `{"model":"qwen3:8b","created_at":"2025-09-18T10:15:03.123456789Z","message":{"role":"assistant","content":`
	for i := 0; i < 20; i++ {
		fmt.Fprintf(b, "%s\"\",\"thinking\":%q},\"done\":false}\n", head, delta(i))
	}
	b.WriteString(head + `"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"search","arguments":{"q":"go"}}}]},"done":false}` + "\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "%s%q},\"done\":false}\n", head, delta(i))
	}
	b.WriteString(head + `""},"done":true,"done_reason":"stop","total_duration":8123456789,"load_duration":41000000,"prompt_eval_count":212,"prompt_eval_duration":180000000,"eval_count":40000,"eval_duration":7900000000}` + "\n")
}
