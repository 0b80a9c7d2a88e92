package gemini

import "framescope/invariants"

// ReadDone says what a data: [DONE] is to this stream's clients. A
// streamGenerateContent client parses every data line as JSON: python-genai
// (_api_client.py _iter_response_stream, json.loads) raises
// UnknownApiResponseError and js-genai (_api_client.ts processStreamResponse)
// throws. The Interactions clients declare it their end marker
// (python _gaos/interactions.py sentinel="[DONE]", JS interactions-create.ts)
// and stop there. Before the shape is known, clients skip nothing and fail:
// the generateContent reading.
func (p *mapper) ReadDone() invariants.DoneReading {
	if p.shape == shapeIA {
		return invariants.DoneSentinel
	}
	return invariants.DoneBreaks
}
