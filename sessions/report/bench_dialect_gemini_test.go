package report

import (
	"bytes"
	"fmt"
)

func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"gemini", genGemini})
}

// genGemini writes one streamGenerateContent?alt=sse response (a stream is
// one turn): a thought summary, then text chunks, each a whole
// GenerateContentResponse with its usageMetadata, modelVersion and
// responseId as the API sends them, and a last chunk with finishReason.
func genGemini(b *bytes.Buffer, size int) {
	const tail = `"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":41,"candidatesTokenCount":%d,"totalTokenCount":%d},"modelVersion":"gemini-2.5-flash","responseId":"bH6LaZW8Fp_3nsEPqtaSwQ4"}`
	fmt.Fprintf(b, `data: {"candidates":[{"content":{"parts":[{"text":"**Planning the answer**","thought":true}],`+tail+"\n\n", 0, 41)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, `data: {"candidates":[{"content":{"parts":[{"text":%q}],`+tail+"\n\n", delta(i), i+1, i+42)
	}
	fmt.Fprintf(b, `data: {"candidates":[{"content":{"parts":[{"text":"."}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":41,"candidatesTokenCount":9,"totalTokenCount":50},"modelVersion":"gemini-2.5-flash","responseId":"bH6LaZW8Fp_3nsEPqtaSwQ4"}`+"\n\n")
}
