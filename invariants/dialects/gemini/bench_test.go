package gemini

import (
	"testing"

	"framescope/invariants/dialects/dialecttest"
)

// benchChunk is a text chunk as the API streams it (testdata/real/gemini:
// spaces after colons, usageMetadata with its details on every chunk).
const benchChunk = `data: {"candidates": [{"content": {"parts": [{"text": "fox jumps "}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 6,"candidatesTokenCount": 12,"totalTokenCount": 53,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 6}],"thoughtsTokenCount": 35,"serviceTier": "standard"},"modelVersion": "gemini-2.5-flash","responseId": "8e97asPMLaS4qtsP7oGv4Ag"}` + "\n\n"

// BenchmarkObserveChunk is the checking core's cost of a text chunk (its
// text five levels down): the frame is decoded once (the reading core's
// work), observed b.N times.
func BenchmarkObserveChunk(b *testing.B) {
	dialecttest.ObserveBench(b, Dialect, benchChunk, benchChunk)
}
