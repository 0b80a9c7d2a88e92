package live

import (
	"io"
	"mime"
	"strings"

	"framescope/invariants"
	"framescope/sessions"
)

// ndjsonMediaTypes are the Content-Types read as a live NDJSON stream, one
// JSON text per line: application/x-ndjson (ndjson.org; Ollama's
// /api/chat and /api/generate), application/ndjson and application/jsonl
// (jsonlines.org), which other servers use for the same framing.
// application/json-seq (RFC 7464) separates records with RS, not lines:
// it is not one of them.
var ndjsonMediaTypes = []string{"application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"}

// isNDJSONMediaType reports whether a Content-Type is a line-framed JSON
// stream.
func isNDJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	mt = strings.ToLower(strings.TrimSpace(mt))
	for _, t := range ndjsonMediaTypes {
		if mt == t {
			return true
		}
	}
	return false
}

// frameNDJSON makes the stream's chunks SSE events, one per line, as a raw
// NDJSON capture's are (capture.AppendNDJSONEvent): the decoder, the
// dialects, the recorder and the library see the same events either way.
func (l *Live) frameNDJSON() {
	l.ndjson = &ndjsonFramer{}
	l.meta.Kind = sessions.KindRawNDJSON
	l.meta.Synthetic = true
}

// nextNDJSON is Next for an NDJSON body: every read is converted as it
// arrives (nothing waits for the end), keeping its arrival time; a last
// line the server left without its LF is ended when the body ends cleanly.
func (l *Live) nextNDJSON() (sessions.Chunk, error) {
	for {
		ch, err := l.nextRaw()
		if err == io.EOF {
			if tail := l.ndjson.close(); len(tail) > 0 && l.end.Kind == invariants.EndEOF {
				return sessions.Chunk{Data: tail, T: l.end.At, HasTime: l.end.HasTime}, nil
			}
			return ch, err
		}
		ch.Data = l.ndjson.feed(ch.Data)
		if len(ch.Data) > 0 {
			return ch, nil
		}
		// A read of blank lines only: nothing to hand on yet.
	}
}

// ndjsonFramer turns NDJSON bytes into SSE events as they stream: `data: `
// before a line's first byte, the line's bytes as they come, a blank line
// after its LF. It holds no line in memory (a huge line streams through,
// and the SSE framer bounds it as it bounds any event: frame-size), so its
// state is where in a line the stream is. Blank lines and the white space
// that begins a line are dropped; a CR LF ends a line like an LF (the CR
// is kept in the data line, where the SSE parser reads CR LF as one
// ending).
type ndjsonFramer struct {
	inLine bool
	out    []byte
}

// feed converts one read; the result is valid until the next call.
func (n *ndjsonFramer) feed(p []byte) []byte {
	out := n.out[:0]
	for len(p) > 0 {
		if !n.inLine {
			i := 0
			for i < len(p) && (p[i] == '\n' || p[i] == '\r' || p[i] == ' ' || p[i] == '\t') {
				i++
			}
			p = p[i:]
			if len(p) == 0 {
				break
			}
			out = append(out, "data: "...)
			n.inLine = true
		}
		i := strings.IndexByte(string(p), '\n') // no copy: the compiler elides it
		if i < 0 {
			out = append(out, p...)
			break
		}
		out = append(out, p[:i+1]...)
		out = append(out, '\n')
		n.inLine = false
		p = p[i+1:]
	}
	n.out = out
	return out
}

// close ends the stream: the blank line a last line without LF needs.
func (n *ndjsonFramer) close() []byte {
	if !n.inLine {
		return nil
	}
	n.inLine = false
	return []byte("\n\n")
}
