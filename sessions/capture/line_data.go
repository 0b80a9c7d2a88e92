package capture

import (
	"bytes"
	"io"

	"framescope/invariants"
	"framescope/sessions"
)

// nextDataLine returns the next line of a line-per-frame capture (NDJSON
// dumps, raw NDJSON bodies) that holds anything: trimmed, a BOM on line 1
// dropped, blank lines skipped. A line over maxLineSize is lost bytes
// (capture-corrupt error, issue 24 item 13) and skipped; a read error is
// lost bytes and ends the capture with end. ok is false at the end.
func (lr *lineReader) nextDataLine(probs *sessions.ProblemList, end *invariants.End) (line []byte, ln int, ok bool) {
	for {
		line, err := lr.next()
		ln := lr.line
		if err == errLineTooLong {
			probs.AddLost(ln, "line is longer than %d MiB; its frame is dropped", maxLineSize>>20)
			continue
		}
		if err != nil {
			if err != io.EOF {
				probs.AddLost(ln, "read error: %s", sessions.Clean(err.Error()))
				*end = invariants.End{Kind: invariants.EndError, Detail: "read error: " + sessions.Clean(err.Error())}
			}
			probs.Finish()
			return nil, ln, false
		}
		if ln == 1 {
			line = bytes.TrimPrefix(line, sessions.UTF8BOM)
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, ln, true
		}
	}
}
