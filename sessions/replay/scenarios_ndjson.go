package replay

import (
	"net/http"
	"slices"
	"strings"

	"framescope/invariants"
	"framescope/invariants/dialects"
)

// ndjsonType is the Content-Type an NDJSON demo is served with (Ollama's).
const ndjsonType = "application/x-ndjson"

// servesNDJSON reports whether a dialect's responses are NDJSON rather
// than SSE (its Shape.ContentTypes names application/x-ndjson): its demo is
// then played as the server would, one JSON line per block.
func servesNDJSON(dialect string) bool {
	d, ok := dialects.Lookup(dialect)
	if !ok {
		return false
	}
	spec, ok := d.(*invariants.Spec)
	return ok && slices.Contains(spec.Shape.ContentTypes, ndjsonType)
}

// ndjsonHead sends the response head of an NDJSON demo itself (the SSE
// session's upgrade would say text/event-stream).
func (t *relayTurn) ndjsonHead() {
	w := t.sess.Res
	w.Header().Set("Content-Type", ndjsonType)
	w.WriteHeader(http.StatusOK)
	http.NewResponseController(w).Flush()
}

// writeNDJSON sends one demo block as NDJSON: the data of its data: lines
// (joined by LF as an SSE client joins them), then LF, and flushes it.
func (t *relayTurn) writeNDJSON(block string) error {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(block, "\r\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(strings.TrimPrefix(d, " "))
		}
	}
	if b.Len() == 0 {
		return nil // a block without data (a comment): nothing on the wire
	}
	b.WriteByte('\n')
	w := t.sess.Res
	if _, err := w.Write([]byte(b.String())); err != nil {
		return err
	}
	return http.NewResponseController(w).Flush()
}
