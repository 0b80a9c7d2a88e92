package a2a

import (
	"framescope/invariants/dialects/dialecttest"
	"testing"
)

// benchIDs are a2a-python's: uuid4 task, context and request ids.
const (
	benchIDs    = `"taskId":"0f8e7d6c-5b4a-4938-8271-605f4e3d2c1b","contextId":"c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"`
	benchPrefix = `data: {"id":"9b1c2f4e-3d5a-4c6b-8e7f-0a1b2c3d4e5f","jsonrpc":"2.0","result":{"contextId":"c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f","history":[],"id":"0f8e7d6c-5b4a-4938-8271-605f4e3d2c1b","kind":"task","status":{"state":"submitted"}}}` + "\n\n" +
		`data: {"id":"9b1c2f4e-3d5a-4c6b-8e7f-0a1b2c3d4e5f","jsonrpc":"2.0","result":{"append":false,"artifact":{"artifactId":"a-7c2d","name":"answer","parts":[{"kind":"text","text":"Forecast: "}]},` + benchIDs + `,"kind":"artifact-update","lastChunk":false}}` + "\n\n"
)

// BenchmarkObserveArtifactChunk is the checking core's cost of an
// artifact append chunk: the frame is decoded once (the reading core's
// work), observed b.N times.
func BenchmarkObserveArtifactChunk(b *testing.B) {
	dialecttest.ObserveBench(b, Dialect, benchPrefix, `data: {"id":"9b1c2f4e-3d5a-4c6b-8e7f-0a1b2c3d4e5f","jsonrpc":"2.0","result":{"append":true,"artifact":{"artifactId":"a-7c2d","parts":[{"kind":"text","text":"fox jumps "}]},`+benchIDs+`,"kind":"artifact-update","lastChunk":false}}`+"\n\n")
}

// BenchmarkObserveStatusMessage: a working status-update with a text
// message (an ADK agent's partial event).
func BenchmarkObserveStatusMessage(b *testing.B) {
	dialecttest.ObserveBench(b, Dialect, benchPrefix, `data: {"id":"9b1c2f4e-3d5a-4c6b-8e7f-0a1b2c3d4e5f","jsonrpc":"2.0","result":{`+benchIDs+`,"final":false,"kind":"status-update","status":{"message":{`+benchIDs+`,"kind":"message","messageId":"6e1f0c2a-8b3d-4f5e-9a7b-1c2d3e4f5a6b","parts":[{"kind":"text","text":"fox jumps "}],"role":"agent"},"state":"working","timestamp":"2026-03-02T10:00:01.000000+00:00"}}}`+"\n\n")
}
