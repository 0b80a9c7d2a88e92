package proxy

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/codings"
)

// A stream sent with a Content-Encoding (RFC 9110 §8.4: gzip, deflate, br,
// stacked in the order applied) reaches the app as the upstream encoded
// it: the app asked for it, and the copy loop never touches the bytes.
// Its checker and its recording read it decoded: the tap's encoded
// chunks are decoded here, incrementally, on the checker's goroutine
// (never in the app's copy path), with the decoders and within the bounds
// connect decodes a body with (sessions/codings: at most codings.Max
// stacked codings, as curl), and the capture's Meta says what it was decoded
// from (Meta.DecodedFrom, "decoded_from" in a recording), as connect's.
// The response headers keep their Content-Encoding, so the check raises
// delivery-compressed as for any compressed event stream.

// streamCoding says whether a response's Content-Encoding is one (not
// identity), and whether the proxy's checker can decode it
// (codings.Decodable; stacked more than codings.Max deep still counts:
// the check reports it as a body that cannot be decoded).
func streamCoding(contentEncoding string) (encoded, decodable bool) {
	encs, n := streamCodings(contentEncoding)
	if n == 0 {
		return false, false
	}
	for _, e := range encs {
		if !codings.Decodable(e) {
			return true, false
		}
	}
	return true, true
}

// compressedStream says whether a response's body is encoded: its stream
// is then checked decoded, and --fault (which works on frames) leaves it
// as it came.
func compressedStream(contentEncoding string) bool {
	enc, _ := streamCoding(contentEncoding)
	return enc
}

// streamCodings lists a Content-Encoding's codings in the order applied
// (identity dropped, lower case): at most codings.Max+1 of them, and
// how many there are in all (a header can stack thousands: they are
// counted, not kept).
func streamCodings(v string) ([]string, int) {
	return codings.Parse([]string{v}, codings.Max+1)
}

// decodedIfEncoded is c decoded when its response is encoded and c holds
// the bytes as received (a --fault gzip stream's tap holds them before
// the proxy encoded them: Meta.DecodedFrom is set already), else c.
func decodedIfEncoded(c sessions.Capture) sessions.Capture {
	m := c.Meta()
	if m.DecodedFrom != "" {
		return c
	}
	ce, _ := sessions.HeaderLookup(m.ResponseHeaders, "Content-Encoding")
	encs, n := streamCodings(ce)
	if n == 0 {
		return c
	}
	d := &decodedCapture{c: c, meta: m, encs: encs, n: n, buf: make([]byte, copyBufSize)}
	d.src = &encodedSource{c: c, probs: &d.probs}
	if n <= codings.Max {
		d.meta.DecodedFrom = strings.Join(encs, ", ")
	}
	return d
}

// decodedCapture is the capture of an encoded stream, decoded.
type decodedCapture struct {
	c    sessions.Capture
	meta sessions.Meta
	encs []string // as applied: the last is decoded first
	n    int      // how many codings the header stacks
	src  *encodedSource
	rd   io.Reader // the decoders, made on the first Next (a gzip header is read then)
	buf  []byte
	held error // an error that came with the last data

	probs  sessions.ProblemList
	zeroes int
	// stopped: decoding ended before the stream did (a failure, a bound,
	// a gap); end is how the check says the stream ended then (nil: as
	// the tap says).
	stopped bool
	end     *invariants.End

	// The probe (decode_probe.go): first is the first decoded read,
	// held for Next; raw means the body did not decode from its start and
	// is read as it came, pend (what the probe read) first.
	first *sessions.Chunk
	raw   bool
	pend  []byte
}

func (d *decodedCapture) Meta() sessions.Meta { return d.meta }

// maxZeroReads bounds reads that return nothing and no error in a row.
const maxZeroReads = 100

func (d *decodedCapture) Next() (sessions.Chunk, error) {
	if d.raw {
		return d.nextRaw()
	}
	if ch := d.first; ch != nil {
		d.first = nil
		return *ch, nil
	}
	if d.stopped {
		return sessions.Chunk{}, io.EOF
	}
	if d.rd == nil {
		rd, err := d.decoders()
		if err != nil {
			d.stop(err)
			return sessions.Chunk{}, io.EOF
		}
		d.rd = rd
	}
	for {
		if err := d.held; err != nil {
			d.held = nil
			d.stop(err)
			return sessions.Chunk{}, io.EOF
		}
		n, err := d.rd.Read(d.buf)
		if n > 0 {
			d.zeroes, d.held = 0, err
			return sessions.Chunk{Data: d.buf[:n], T: d.src.t, HasTime: d.src.hasTime}, nil
		}
		if err == nil {
			if d.zeroes++; d.zeroes < maxZeroReads {
				continue
			}
			err = io.ErrNoProgress
		}
		d.stop(err)
		return sessions.Chunk{}, io.EOF
	}
}

// stop ends the decoding on err (io.EOF: the encoded stream ended), says
// why when that is news, and reads the tap to its end: the flow ends
// when the app's stream does, and the tap's queue is released as the app
// is fed (its bytes are no longer checked).
func (d *decodedCapture) stop(err error) {
	d.stopped = true
	var be *codings.Exceeded
	switch {
	case errors.Is(err, io.EOF):
		if d.src.more() {
			d.probs.Note("the stream's %s encoding ended before its body did: the bytes after it are not checked or recorded", d.meta.DecodedFrom)
		}
	case errors.Is(err, errDecodeGap):
		// The tap's Lost problem (capture-corrupt) said where: one
		// defect, one alarm.
		d.probs.Note("a compressed stream cannot be decoded past bytes the checker missed: the rest of it is not checked or recorded")
	case d.src.ended && d.src.c.End().Kind != invariants.EndEOF && errors.Is(err, io.ErrUnexpectedEOF):
		// The stream was broken or cancelled mid-way: its end says so.
	case errors.As(err, &be):
		d.end = &invariants.End{Kind: invariants.EndError, Detail: sessions.Clean(err.Error())}
	default:
		msg := sessions.Clean(err.Error())
		d.probs.AddLost(0, "the response body could not be decoded, so bytes are missing: %s", msg)
		d.end = &invariants.End{Kind: invariants.EndError, Detail: msg}
	}
	d.src.drain()
}

// End is how the stream ended: the tap's end, unless decoding failed or
// a bound stopped it first (then an error saying so, at the tap's time).
func (d *decodedCapture) End() invariants.End {
	e := d.c.End()
	if d.end == nil {
		return e
	}
	out := *d.end
	out.At, out.HasTime = e.At, e.HasTime
	return out
}

func (d *decodedCapture) TakeProblems() []sessions.Problem {
	if d.raw {
		d.src.collect()
		return d.probs.Take()
	}
	if !d.stopped && !d.src.ended && d.src.collect() && d.src.err == nil {
		d.src.err = errDecodeGap // (the tap says so in its Next: a safeguard)
	}
	return d.probs.Take()
}

func (d *decodedCapture) Close() error { return d.c.Close() }

// decoders stacks a decoder per coding, the last applied decoded first;
// between two layers the inner one's output is bounded as the body's is
// (a layer can inflate a thousandfold into one that decodes to nothing).
func (d *decodedCapture) decoders() (io.Reader, error) {
	if d.n > codings.Max {
		// Each layer is a decoder of its own; connect refuses the same.
		return nil, codings.TooMany(d.n)
	}
	between := func(inner string, r io.Reader) io.Reader { return newBoundedReader(r, inner, &d.src.n) }
	r, err := codings.Stack(d.encs, d.src, between, codingErr)
	if err != nil {
		return nil, err
	}
	return newBoundedReader(r, codings.Name(d.encs[0]), &d.src.n), nil
}

// errDecodeGap: the tap left bytes out (the checker fell behind); a
// compressed stream cannot be decoded past them.
var errDecodeGap = errors.New("bytes missing from the encoded stream")

// codingErr names the coding in a decoder's error, unless it is the
// encoded stream's own end or gap (said elsewhere) or a bound's.
func codingErr(coding string, err error) error {
	var be *codings.Exceeded
	if errors.Is(err, io.EOF) || errors.Is(err, errDecodeGap) || errors.As(err, &be) {
		return err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s body truncated: %w", coding, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("%s body: %w", coding, err)
}

// encodedSource reads the tap's chunks as one encoded byte stream, for
// the innermost decoder (a ByteReader: flate reads no further than it
// needs, so a decoded event comes out as soon as its bytes came in).
type encodedSource struct {
	c       sessions.Capture
	probs   *sessions.ProblemList
	cur     []byte // the rest of the chunk being read (valid until c.Next)
	t       time.Duration
	hasTime bool
	n       int64 // encoded bytes read: the ratio bound's denominator
	err     error // how the tap ended (io.EOF), or errDecodeGap
	ended   bool  // the tap returned its last chunk
	// keep: the probe is on, kept holds every chunk read (a copy), over
	// that more than codings.ProbeMax was read.
	keep, over bool
	kept       []byte
}

// fill makes cur non-empty, or returns why it cannot be.
func (s *encodedSource) fill() error {
	for len(s.cur) == 0 {
		if s.err != nil {
			return s.err
		}
		ch, err := s.c.Next()
		if s.keep && !s.over {
			if len(s.kept)+len(ch.Data) > codings.ProbeMax {
				s.over, s.kept = true, nil
			} else {
				s.kept = append(s.kept, ch.Data...)
			}
		}
		if s.collect() {
			s.err = errDecodeGap
			return s.err
		}
		if err != nil {
			s.ended = true
			s.err = err
			continue
		}
		s.cur, s.t, s.hasTime = ch.Data, ch.T, ch.HasTime
	}
	return nil
}

// collect moves the tap's problems to the capture's, and says whether
// one is bytes left out.
func (s *encodedSource) collect() (lost bool) {
	for _, p := range s.c.TakeProblems() {
		if p.Lost {
			lost = true
			s.probs.AddLost(p.Line, "%s", p.Message)
		} else if p.Note {
			s.probs.Note("%s", p.Message)
		} else {
			s.probs.Add(p.Line, "%s", p.Message)
		}
	}
	return lost
}

func (s *encodedSource) Read(p []byte) (int, error) {
	if err := s.fill(); err != nil {
		return 0, err
	}
	n := copy(p, s.cur)
	s.cur = s.cur[n:]
	s.n += int64(n)
	return n, nil
}

func (s *encodedSource) ReadByte() (byte, error) {
	if err := s.fill(); err != nil {
		return 0, err
	}
	b := s.cur[0]
	s.cur = s.cur[1:]
	s.n++
	return b, nil
}

// more says whether bytes are left after the decoder's end.
func (s *encodedSource) more() bool {
	return len(s.cur) > 0 || !s.ended && s.fill() == nil
}

// drain reads the tap to its end, dropping its bytes (and its problems
// but notes: a gap in bytes no longer checked is no news).
func (s *encodedSource) drain() {
	s.cur = nil
	for !s.ended {
		_, err := s.c.Next()
		for _, p := range s.c.TakeProblems() {
			if p.Note {
				s.probs.Note("%s", p.Message)
			}
		}
		if err != nil {
			s.ended = true
		}
	}
}

// boundedReader stops a decoding at connect's bounds (codings.Bound's
// defaults), with an error that says the check stopped there: the app's
// stream is not the proxy's to end.
type boundedReader struct {
	r      io.Reader
	b      codings.Bound
	coding string
	raw    *int64 // encoded bytes read: the ratio bound's denominator
}

func newBoundedReader(r io.Reader, coding string, raw *int64) *boundedReader {
	return &boundedReader{r: r, b: codings.NewBound(0, 0), coding: coding, raw: raw}
}

func (g *boundedReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if n > 0 {
		var ex *codings.Exceeded
		if n, ex = g.b.Allow(n, *g.raw); ex != nil {
			if ex.Ratio > 0 {
				return n, fmt.Errorf("%s: %w: the check stopped there as at a decompression bomb (the app got every byte)", g.coding, ex)
			}
			return n, fmt.Errorf("%s: %w: the check stopped there (the app got every byte)", g.coding, ex)
		}
	}
	return n, err
}
