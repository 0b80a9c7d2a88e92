package capture

import (
	"bufio"
	"io"

	"framescope/invariants"
	"framescope/sessions"
)

// sseCapture streams a raw text/event-stream file in chunks of at most
// readChunkSize bytes, exactly as stored (a BOM or leading garbage
// included: the decoder judges them). It never holds more than one chunk.
type sseCapture struct {
	meta   sessions.Meta
	br     *bufio.Reader
	closer io.Closer
	buf    []byte
	end    invariants.End
	done   bool
	probs  sessions.ProblemList
}

// RawSSE reads r as raw SSE bytes, without sniffing its format (a body
// known to be an event stream); name is used in Meta and messages.
func RawSSE(name string, r io.Reader) sessions.Capture {
	return newSSECapture(name, bufio.NewReader(r), nil)
}

func newSSECapture(name string, br *bufio.Reader, closer io.Closer) *sseCapture {
	return &sseCapture{
		meta:   sessions.Meta{Name: name, Kind: sessions.KindSSE},
		br:     br,
		closer: closer,
		buf:    make([]byte, readChunkSize),
		end:    invariants.End{Kind: invariants.EndEOF},
	}
}

func (c *sseCapture) Meta() sessions.Meta { return c.meta }

func (c *sseCapture) Next() (sessions.Chunk, error) {
	if c.done {
		return sessions.Chunk{}, io.EOF
	}
	for empty := 0; ; empty++ {
		n, err := c.br.Read(c.buf)
		if n > 0 {
			if err != nil && err != io.EOF {
				c.fail(err)
			}
			return sessions.Chunk{Data: c.buf[:n]}, nil
		}
		if err == nil {
			if empty < 100 {
				continue // a reader may return 0, nil now and then
			}
			err = io.ErrNoProgress
		}
		if err != io.EOF {
			c.fail(err)
		}
		c.done = true
		return sessions.Chunk{}, io.EOF
	}
}

// fail records a read error as the end of the stream.
func (c *sseCapture) fail(err error) {
	if c.end.Kind == invariants.EndError {
		return
	}
	c.end = invariants.End{Kind: invariants.EndError, Detail: "read error: " + sessions.Clean(err.Error())}
	c.probs.AddLost(0, "read error: %s", sessions.Clean(err.Error()))
}

func (c *sseCapture) End() invariants.End { return c.end }

func (c *sseCapture) TakeProblems() []sessions.Problem { return c.probs.Take() }

func (c *sseCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}
