package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"framescope/invariants"
	"framescope/sessions"
)

// jsonSeqCapture reads a body of JSON values one after another, each over
// as many lines as it takes. It is what a developer saves with
// `curl -N URL | jq .` from an NDJSON stream (jq prints each line's value
// over several indented lines), what a log of pretty-printed frames holds,
// and an RFC 7464 JSON text sequence (application/json-seq: each value
// after an RS byte, 0x1E). Each value is one frame, its text as written —
// the white space and line breaks inside are JSON's own — turned into one
// SSE event as a raw NDJSON line is (AppendNDJSONEvent; Meta.Synthetic).
// Chunk.Line is the line a chunk's first value starts on.
//
// Bad input: a value that never closes ends where the next one visibly
// starts (a line opening with '{' or '[' at column 0, as jq prints a new
// value) or at the end of the input, and is handed on broken (the
// dialect's frame-json names it); text between values that is no object
// or array is handed on as a frame of its own, a line at a time; a value
// over maxLineSize is skipped and reported as lost bytes (capture-corrupt,
// error); a read error is lost bytes and ends the capture.
type jsonSeqCapture struct {
	meta   sessions.Meta
	lr     lineReader
	closer io.Closer
	probs  sessions.ProblemList
	out    []byte
	end    invariants.End
	done   bool

	rest   []byte // what is left of the current line after the last value
	buf    []byte // rest's storage
	val    []byte // the value being read
	valAt  int    // the line it started on
	lines  int    // how many lines it spans so far
	scan   seqScan
	eof    bool
	tooBig bool // the value outgrew maxLineSize: skipped to its end
}

func newJSONSeqCapture(name string, br *bufio.Reader, closer io.Closer) *jsonSeqCapture {
	return &jsonSeqCapture{
		meta:   sessions.Meta{Name: name, Kind: sessions.KindJSONSeq, Synthetic: true},
		lr:     lineReader{br: br},
		closer: closer,
		end:    invariants.End{Kind: invariants.EndEOF},
	}
}

func (c *jsonSeqCapture) Meta() sessions.Meta { return c.meta }

// Next hands on the events of as many values as are already buffered (up
// to readChunkSize), as the raw NDJSON reader does with lines.
func (c *jsonSeqCapture) Next() (sessions.Chunk, error) {
	return nextEvents(&c.out, &c.done,
		func() bool { return len(c.rest) > 0 || c.lr.br.Buffered() > 0 },
		c.nextValue)
}

// nextValue returns the next value's text (valid until the next call) and
// the line it starts on; ok is false at the end of the input.
func (c *jsonSeqCapture) nextValue() (v []byte, ln int, ok bool) {
	c.val, c.lines, c.tooBig = c.val[:0], 0, false
	c.scan = seqScan{}
	started := false
	for {
		if len(c.rest) == 0 {
			if !c.readLine() {
				if started && !c.tooBig {
					return c.val, c.valAt, true // cut off by the end: broken
				}
				return nil, 0, false
			}
			if started {
				c.lines++
				// jq starts each value at column 0 and indents what is
				// inside: a value still open when the next one starts was
				// cut short. Hand it on broken; this line starts anew.
				if len(c.rest) > 0 && (c.rest[0] == '{' || c.rest[0] == '[') && !c.tooBig {
					return c.val, c.valAt, true
				}
				if !c.tooBig {
					c.val = append(c.val, '\n')
				}
			}
		}
		if !started {
			c.rest = bytes.TrimLeft(c.rest, " \t\r\n\x1e")
			if len(c.rest) == 0 {
				continue
			}
			if c.rest[0] != '{' && c.rest[0] != '[' {
				// Not a value framescope reads: the rest of the line, as a
				// frame of its own (a scalar, a log prefix, garbage).
				v := bytes.TrimRight(c.rest, " \t\r")
				c.rest = nil
				return v, c.lr.line, true
			}
			started, c.valAt = true, c.lr.line
		}
		end := c.scan.feed(c.rest)
		part := c.rest
		if end >= 0 {
			part, c.rest = c.rest[:end], c.rest[end:]
		} else {
			c.rest = nil
			c.scan.endLine()
		}
		if !c.tooBig && len(c.val)+len(part) > maxLineSize {
			c.tooBig, c.val = true, nil
			c.probs.AddLost(c.valAt, "JSON value is longer than %d MiB; its frame is dropped", maxLineSize>>20)
		}
		if !c.tooBig {
			c.val = append(c.val, part...)
		}
		if end >= 0 {
			if c.tooBig {
				c.val, c.lines, c.tooBig, started = c.val[:0], 0, false, false
				c.scan = seqScan{}
				continue
			}
			return c.val, c.valAt, true
		}
	}
}

// readLine makes the input's next line the rest to read (false at the
// end, which it records).
func (c *jsonSeqCapture) readLine() bool {
	if c.eof {
		return false
	}
	for {
		line, err := c.lr.next()
		if err == errLineTooLong {
			c.probs.AddLost(c.lr.line, "line is longer than %d MiB; its frame is dropped", maxLineSize>>20)
			c.scan = seqScan{} // where the line's brackets left off is unknown
			continue
		}
		if err != nil {
			if err != io.EOF {
				c.probs.AddLost(c.lr.line, "read error: %s", sessions.Clean(err.Error()))
				c.end = invariants.End{Kind: invariants.EndError, Detail: "read error: " + sessions.Clean(err.Error())}
			}
			c.probs.Finish()
			c.eof = true
			return false
		}
		if c.lr.line == 1 {
			line = bytes.TrimPrefix(line, sessions.UTF8BOM)
		}
		c.buf = append(c.buf[:0], line...)
		c.rest = c.buf
		return true
	}
}

func (c *jsonSeqCapture) End() invariants.End { return c.end }

func (c *jsonSeqCapture) TakeProblems() []sessions.Problem { return c.probs.Take() }

func (c *jsonSeqCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}

// seqScan follows a JSON value's brackets outside its strings, a line at
// a time, to find where the value ends.
type seqScan struct {
	depth     int
	inStr     bool
	escaped   bool
	seenValue bool
}

// feed scans b and returns the index just past the bracket that closes
// the value, or -1 when it is still open at b's end.
func (s *seqScan) feed(b []byte) int {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if s.inStr {
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inStr = false
			}
			continue
		}
		switch c {
		case '"':
			s.inStr = true
		case '{', '[':
			s.depth++
			s.seenValue = true
		case '}', ']':
			s.depth--
			if s.depth <= 0 && s.seenValue {
				s.depth = 0
				return i + 1
			}
		}
	}
	return -1
}

// endLine closes a string left open at a line's end: JSON allows no line
// break inside one, so the value is broken already, and carrying the
// string on would hide every bracket after it.
func (s *seqScan) endLine() { s.inStr, s.escaped = false, false }

// looksJSONSeq reports whether a sniff window (raw SSE, framescope JSONL,
// HAR and raw NDJSON ruled out) is a sequence of JSON values: after white
// space or RS bytes it opens an object or array that closes inside the
// window, the value is valid JSON, and it is not one line's NDJSON — it
// spans lines, or RS bytes frame it.
func looksJSONSeq(b []byte) bool {
	b = bytes.TrimPrefix(b, sessions.UTF8BOM)
	rs := false
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' || b[i] == 0x1e) {
		rs = rs || b[i] == 0x1e
		i++
	}
	if i == len(b) || (b[i] != '{' && b[i] != '[') {
		return false
	}
	var s seqScan
	rest := b[i:]
	for off := 0; off < len(rest); {
		nl := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if end := s.feed(line); end >= 0 {
			v := rest[:off+end]
			return (rs || bytes.IndexByte(v, '\n') >= 0) && json.Valid(v)
		}
		if nl < 0 {
			return false
		}
		s.endLine()
		off += nl + 1
	}
	return false
}
