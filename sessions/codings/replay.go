package codings

import (
	"bytes"
	"io"
)

// Replay reads r and keeps what it read (at most max bytes), so that a
// body whose coding turns out not to decode can be read again from its
// first byte, as it came (a server sending plain bytes labelled gzip).
type Replay struct {
	r       io.Reader
	kept    []byte
	max     int
	over    bool // more than max was read: no replay
	stopped bool
}

// ProbeMax bounds what a Replay keeps: a decoder fails on a body that is
// not in its coding within its first few bytes.
const ProbeMax = 1 << 20

// NewReplay keeps what is read from r, up to max bytes.
func NewReplay(r io.Reader, max int) *Replay { return &Replay{r: r, max: max} }

func (p *Replay) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if !p.stopped && !p.over {
		if len(p.kept)+n > p.max {
			p.over, p.kept = true, nil
		} else {
			p.kept = append(p.kept, b[:n]...)
		}
	}
	return n, err
}

// Stop ends the keeping (the body decodes) and drops what was kept.
func (p *Replay) Stop() { p.stopped, p.kept = true, nil }

// Again is the body from its first byte, as it came: what was read, then
// the rest of r; false when more than max was read.
func (p *Replay) Again() (io.Reader, bool) {
	if p.over || p.stopped {
		return nil, false
	}
	kept := p.kept
	p.Stop()
	return io.MultiReader(bytes.NewReader(kept), p.r), true
}
