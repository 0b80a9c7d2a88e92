package proxy

import (
	"bytes"

	"framescope/invariants"
	"framescope/sessions"
)

// ndjsonCapture reads a newline-delimited JSON body (one frame object a
// line) as the SSE the pipeline reads: each line becomes "data: LINE"
// and a blank line, as the NDJSON dump reader does (Meta.Synthetic: the
// SSE framing is not the server's). The recording below it keeps the
// bytes as received.
type ndjsonCapture struct {
	c    sessions.Capture
	part []byte // a line not ended yet
	out  []byte
}

func ndjsonAsSSE(c sessions.Capture) sessions.Capture { return &ndjsonCapture{c: c} }

func (n *ndjsonCapture) Meta() sessions.Meta {
	m := n.c.Meta()
	m.Synthetic = true
	return m
}

// maxNDJSONLine bounds a line held while waiting for its end; a longer
// one is passed on as it is (the frame-size rules name it).
const maxNDJSONLine = 8 << 20

func (n *ndjsonCapture) Next() (sessions.Chunk, error) {
	for {
		ch, err := n.c.Next()
		if err != nil {
			if len(bytes.TrimSpace(n.part)) > 0 { // the last line without its newline
				n.out = appendSSELine(n.out[:0], n.part)
				n.part = n.part[:0]
				return sessions.Chunk{Data: n.out, T: ch.T, HasTime: ch.HasTime}, nil
			}
			return ch, err
		}
		n.out = n.out[:0]
		data := ch.Data
		for {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				n.part = append(n.part, data...)
				if len(n.part) > maxNDJSONLine {
					n.out = appendSSELine(n.out, n.part)
					n.part = n.part[:0]
				}
				break
			}
			line := data[:i]
			if len(n.part) > 0 {
				n.part = append(n.part, line...)
				line = n.part
			}
			if len(bytes.TrimSpace(line)) > 0 {
				n.out = appendSSELine(n.out, line)
			}
			n.part = n.part[:0]
			data = data[i+1:]
		}
		if len(n.out) > 0 {
			return sessions.Chunk{Data: n.out, T: ch.T, HasTime: ch.HasTime}, nil
		}
	}
}

func appendSSELine(b, line []byte) []byte {
	b = append(b, "data: "...)
	b = append(b, bytes.TrimRight(line, "\r")...)
	return append(b, '\n', '\n')
}

func (n *ndjsonCapture) End() invariants.End              { return n.c.End() }
func (n *ndjsonCapture) TakeProblems() []sessions.Problem { return n.c.TakeProblems() }
func (n *ndjsonCapture) Close() error                     { return n.c.Close() }
