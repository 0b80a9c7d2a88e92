package proxy

import (
	"errors"
	"io"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/codings"
)

// A body its Content-Encoding does not decode from its first byte —
// plain bytes labelled gzip (a real server bug), more than codings.Max
// stacked codings — is recorded and checked as it came, as a coding
// framescope cannot decode (zstd) is: no decoded_from, every byte, and
// the failure named (capture-corrupt, error; the stream's end an error
// saying it, the recording's end line too). Its recording used to hold 0 body
// bytes. A body that decodes and then fails (cut short) is as before.

// probe decodes the stream's first read before its recording starts (the
// recording's header says whether its chunks are decoded). On the
// checker's goroutine: it waits for the stream's first bytes, never the
// app.
func (d *decodedCapture) probe() {
	if d.stopped || d.rd != nil || d.raw {
		return
	}
	d.src.keep = true
	defer func() { d.src.keep, d.src.kept = false, nil }()
	rd, err := d.decoders()
	if err != nil {
		if !d.keepRaw(err) {
			d.held = err // Next stops on it
			d.rd = eofReader{}
		}
		return
	}
	d.rd = rd
	n, err := d.rd.Read(d.buf)
	switch {
	case n > 0:
		d.first = &sessions.Chunk{Data: d.buf[:n], T: d.src.t, HasTime: d.src.hasTime}
		d.held = err
	case err != nil && !d.keepRaw(err):
		d.held = err
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// keepRaw switches to the body as it came when err is the coding's own
// failure and what was read of the body is kept, and says whether it did.
func (d *decodedCapture) keepRaw(err error) bool {
	var be *codings.Exceeded
	if errors.Is(err, io.EOF) || errors.Is(err, errDecodeGap) || errors.As(err, &be) || d.src.over {
		return false
	}
	d.raw = true
	d.pend = d.src.kept
	d.meta.DecodedFrom = ""
	msg := sessions.Clean(err.Error())
	d.probs.AddLost(0, "the response body could not be decoded (%s): it is kept and checked as it came, undecoded", msg)
	d.end = &invariants.End{Kind: invariants.EndError, Detail: msg} // at the tap's end (End)
	return true
}

// nextRaw is the body as it came: what the probe read, then the tap.
func (d *decodedCapture) nextRaw() (sessions.Chunk, error) {
	if p := d.pend; len(p) > 0 {
		d.pend = nil
		return sessions.Chunk{Data: p, T: d.src.t, HasTime: d.src.hasTime}, nil
	}
	if d.src.ended {
		return sessions.Chunk{}, d.src.err
	}
	return d.c.Next()
}
