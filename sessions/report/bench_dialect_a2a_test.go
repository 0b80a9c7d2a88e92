package report

import (
	"bytes"
	"fmt"
)

func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"a2a", genA2A})
}

// genA2A writes a v0.3 message/stream task as a2a-python servers send
// it: the Task, a working status, an ADK function call and its response
// in status messages, then the answer streamed as one artifact in append
// chunks (a status message every 500), lastChunk, completed with final.
func genA2A(b *bytes.Buffer, size int) {
	const env = `data: {"jsonrpc":"2.0","id":"9b1c2f4e-3d5a-4c6b-8e7f-0a1b2c3d4e5f","result":`
	ev := func(result string) {
		b.WriteString(env)
		b.WriteString(result)
		b.WriteString("}\n\n")
	}
	const ids = `"taskId":"0f8e7d6c-5b4a-4938-8271-605f4e3d2c1b","contextId":"c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"`
	ev(`{"kind":"task","id":"0f8e7d6c-5b4a-4938-8271-605f4e3d2c1b","contextId":"c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f","status":{"state":"submitted","timestamp":"2026-03-02T10:00:00.000000+00:00"},"history":[{"kind":"message","role":"user","messageId":"u-1","parts":[{"kind":"text","text":"What is the ridge forecast?"}]}]}`)
	status := func(parts string) {
		ev(`{"kind":"status-update",` + ids + `,"status":{"state":"working","timestamp":"2026-03-02T10:00:01.000000+00:00","message":{"kind":"message","role":"agent","messageId":"m-1",` + ids + `,"parts":` + parts + `}},"final":false}`)
	}
	status(`[{"kind":"text","text":"Looking up the forecast."}]`)
	status(`[{"kind":"data","data":{"id":"adk-4f1e","name":"get_forecast","args":{"place":"ridge"}},"metadata":{"adk_type":"function_call"}}]`)
	status(`[{"kind":"data","data":{"id":"adk-4f1e","name":"get_forecast","response":{"sky":"light rain after noon"}},"metadata":{"adk_type":"function_response"}}]`)
	ev(`{"kind":"artifact-update",` + ids + `,"append":false,"lastChunk":false,"artifact":{"artifactId":"a-7c2d","name":"answer","parts":[{"kind":"text","text":"Forecast: "}]}}`)
	for i := 0; b.Len() < size; i++ {
		if i%500 == 499 {
			status(`[{"kind":"text","text":"Still writing."}]`)
		}
		fmt.Fprintf(b, "%s{\"kind\":\"artifact-update\",%s,\"append\":true,\"lastChunk\":false,\"artifact\":{\"artifactId\":\"a-7c2d\",\"parts\":[{\"kind\":\"text\",\"text\":%q}]}}}\n\n", env, ids, delta(i))
	}
	ev(`{"kind":"artifact-update",` + ids + `,"append":true,"lastChunk":true,"artifact":{"artifactId":"a-7c2d","parts":[{"kind":"text","text":"."}]}}`)
	ev(`{"kind":"status-update",` + ids + `,"status":{"state":"completed","timestamp":"2026-03-02T10:00:09.000000+00:00"},"final":true}`)
}
