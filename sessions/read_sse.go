package sessions

import (
	"bufio"
	"io"
)

// sseCapture streams a raw text/event-stream file in chunks of at most
// readChunkSize bytes, exactly as stored (a BOM or leading garbage
// included: the decoder judges them). It never holds more than one chunk.
type sseCapture struct {
	meta   Meta
	br     *bufio.Reader
	closer io.Closer
	buf    []byte
	end    End
	done   bool
	probs  problemList
}

// RawSSE reads r as raw SSE bytes, without sniffing its format (a body
// known to be an event stream); name is used in Meta and messages.
func RawSSE(name string, r io.Reader) Capture {
	return newSSECapture(name, bufio.NewReader(r), nil)
}

func newSSECapture(name string, br *bufio.Reader, closer io.Closer) *sseCapture {
	return &sseCapture{
		meta:   Meta{Name: name, Kind: KindSSE},
		br:     br,
		closer: closer,
		buf:    make([]byte, readChunkSize),
		end:    End{Kind: EndEOF},
	}
}

func (c *sseCapture) Meta() Meta { return c.meta }

func (c *sseCapture) Next() (Chunk, error) {
	if c.done {
		return Chunk{}, io.EOF
	}
	for empty := 0; ; empty++ {
		n, err := c.br.Read(c.buf)
		if n > 0 {
			if err != nil && err != io.EOF {
				c.fail(err)
			}
			return Chunk{Data: c.buf[:n]}, nil
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
		return Chunk{}, io.EOF
	}
}

// fail records a read error as the end of the stream.
func (c *sseCapture) fail(err error) {
	if c.end.Kind == EndError {
		return
	}
	c.end = End{Kind: EndError, Detail: "read error: " + clean(err.Error())}
	c.probs.add(0, "read error: %s", clean(err.Error()))
}

func (c *sseCapture) End() End { return c.end }

func (c *sseCapture) TakeProblems() []Problem { return c.probs.take() }

func (c *sseCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}
