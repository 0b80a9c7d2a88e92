package agui

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// separatorState: the TypeScript client's parseSSEStream
// (client/src/transform/sse.ts) splits the body on "\n\n" only. An event
// whose blank line is CRLF ("\r\n\r\n", sse-starlette's default separator)
// or CR is never split from the next one: the client gathers both, joins
// their data lines and JSON.parse fails, erroring the run (or, for the
// last event of a stream, parses it only when the body ends). WHATWG SSE
// allows those line endings, so framescope's own reader decodes the stream
// either way; the alarm says the official client does not.
type separatorState struct {
	// after: index+1 of an earlier frame whose block did not end in LF LF
	// (0: none pending).
	after  int
	raised bool
}

func (p *mapper) checkSeparator(f *decode.Frame, m *invariants.Mapping) {
	s := &p.sep
	if s.raised {
		return
	}
	if s.after > 0 {
		s.raised = true
		m.Raise("sse-separator", invariants.SevError, "frame %d ends with a CRLF or CR blank line, not \\n\\n: @ag-ui/client splits events on \\n\\n only, reads frames %d and %d as one event and JSON.parse fails",
			s.after-1, s.after-1, f.Index)
		return
	}
	if f.Raw != nil && !bytes.HasSuffix(f.Raw, []byte("\n\n")) {
		s.after = f.Index + 1
	}
}
