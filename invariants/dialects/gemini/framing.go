package gemini

import (
	"bytes"

	"framescope/decode"
)

// generateFraming says what in a streamGenerateContent event the SDKs'
// line readers cannot take ("" when nothing): google-genai python
// (_api_client.py _iter_response_stream) keeps only lines that start
// "data: " and glues any other non-blank line into a chunk that json.loads
// rejects; @google/genai (processStreamResponse) keeps an event only when
// it starts "data:" and parses all that follows the prefix as one JSON
// text, so a second data line (or a field after the data) breaks it. The
// API itself writes one "data: " line per event.
func generateFraming(f *decode.Frame) string {
	switch {
	case f.HasType:
		return "an event: field"
	case f.HasID:
		return "an id: field"
	case f.HasRetry:
		return "a retry: field"
	case len(f.Comments) > 0:
		return "a comment line"
	case f.Unknown > 0:
		return "a line that is no data: field"
	}
	// With no other field, every line of the block is a data line, and the
	// first starts it; a data line holds no line break, so a break in the
	// joined data is a second line.
	switch {
	case f.Raw == nil: // oversized: the block was not kept
	case !bytes.HasPrefix(f.Raw, []byte("data: ")):
		return `a data line without the space after "data:"`
	case bytes.IndexByte(f.Data, '\n') >= 0:
		return "two data: lines in one event"
	}
	return ""
}
