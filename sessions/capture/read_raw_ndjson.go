package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"framescope/invariants"
	"framescope/sessions"
)

// rawNDJSONCapture reads a response body that is itself NDJSON (Ollama's
// /api/chat and /api/generate, served as application/x-ndjson; the format
// of ndjson.org: one JSON text per line, LF or CR LF ended): each line is
// one frame as the server sent it, turned into one SSE event
// (`data: LINE` and a blank line), so the decoder and the dialects see the
// frames an SSE stream would give them. The framing is rebuilt
// (Meta.Synthetic); Chunk.Line keeps the file's line for messages.
//
// Bad input: a blank line is skipped; a line that is not JSON is still
// handed on (the dialect's frame-json names it); invalid UTF-8 is passed
// through as raw SSE's is (frame-utf8); a final line without its LF is
// still a frame; a line longer than maxLineSize is skipped and reported as
// lost bytes (capture-corrupt, error).
type rawNDJSONCapture struct {
	meta   sessions.Meta
	lr     lineReader
	closer io.Closer
	probs  sessions.ProblemList
	out    []byte
	end    invariants.End
	done   bool
}

func newRawNDJSONCapture(name string, br *bufio.Reader, closer io.Closer) *rawNDJSONCapture {
	return &rawNDJSONCapture{
		meta:   sessions.Meta{Name: name, Kind: sessions.KindRawNDJSON, Synthetic: true},
		lr:     lineReader{br: br},
		closer: closer,
		end:    invariants.End{Kind: invariants.EndEOF},
	}
}

func (c *rawNDJSONCapture) Meta() sessions.Meta { return c.meta }

// Next hands on the events of as many lines as are already buffered (up to
// readChunkSize), as the raw SSE reader hands on a read: a chunk per line
// cost a pipeline hand-off per frame. It never waits for more input while
// it holds an event, so a pipe's lines go on as they come. Chunk.Line is
// the line of the chunk's first event.
func (c *rawNDJSONCapture) Next() (sessions.Chunk, error) {
	return nextEvents(&c.out, &c.done,
		func() bool { return c.lr.br.Buffered() > 0 },
		func() ([]byte, int, bool) { return c.lr.nextDataLine(&c.probs, &c.end) })
}

// nextEvents is the Next of a capture that reads one frame at a time
// (raw NDJSON lines, JSON values): the events of as many frames as are
// already buffered (more), up to readChunkSize, each turned into one SSE
// event. It never waits for more input while it holds an event, so a
// pipe's frames go on as they come. Chunk.Line is the line of the chunk's
// first frame; frame returns ok false at the end, which sets done.
func nextEvents(out *[]byte, done *bool, more func() bool, frame func() ([]byte, int, bool)) (sessions.Chunk, error) {
	*out = (*out)[:0]
	first := 0
	for !*done {
		if len(*out) > 0 && (len(*out) >= readChunkSize || !more()) {
			break
		}
		v, ln, ok := frame()
		if !ok {
			*done = true
			break
		}
		if len(*out) == 0 {
			first = ln
		}
		*out = AppendNDJSONEvent(*out, v)
	}
	if len(*out) > 0 {
		return sessions.Chunk{Data: *out, Line: first}, nil
	}
	return sessions.Chunk{}, io.EOF
}

// AppendNDJSONEvent appends the SSE event that carries one NDJSON line: a
// data: line per line of it (a bare CR inside splits as an SSE parser
// would; JSON allows none outside white space) and the blank line that
// dispatches it. Live NDJSON streams are framed the same way.
func AppendNDJSONEvent(dst, line []byte) []byte {
	if bytes.IndexByte(line, '\r') < 0 && bytes.IndexByte(line, '\n') < 0 {
		// The usual line: one data line (IndexByte is the fast scan).
		dst = append(dst, "data: "...)
		dst = append(dst, line...)
		return append(dst, '\n', '\n')
	}
	return append(appendDataLines(dst, line), '\n')
}

func (c *rawNDJSONCapture) End() invariants.End { return c.end }

func (c *rawNDJSONCapture) TakeProblems() []sessions.Problem { return c.probs.Take() }

func (c *rawNDJSONCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}

// looksRawNDJSON reports whether a sniff window is a raw NDJSON body: its
// first non-blank line starts a JSON object and some whole line of it is
// one (the first may be broken, the window may end inside a line). Known
// capture formats and SSE were ruled out before.
func looksRawNDJSON(b []byte) bool {
	b = bytes.TrimPrefix(b, sessions.UTF8BOM)
	first := true
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			// The window's last line: whole only if the input ended here,
			// which the caller's peek cannot say; judge it anyway.
			i = len(b)
		}
		line := bytes.TrimSpace(b[:i])
		b = b[min(i+1, len(b)):]
		if len(line) == 0 {
			continue
		}
		if first && line[0] != '{' {
			return false
		}
		first = false
		if line[0] == '{' && json.Valid(line) {
			return true
		}
	}
	return false
}
