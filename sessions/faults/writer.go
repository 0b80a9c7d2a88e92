package faults

import (
	"compress/gzip"
	"io"
)

// Delivery faults reproduce what happens to a stream on its way rather
// than to its frames (docs/timing.md): a buffering proxy that holds the
// bytes (Buffer), a compressor (Gzip), a server that writes several
// frames at once (Burst). check's delivery rules diagnose each.
//
// Writer is the last stage of a faulted stream, serve's and the proxy's:
// it holds the stream's writes until the fault lets them through, then
// hands them to the response, gzip-compressed when asked.
type Writer struct {
	w   io.Writer
	out Out
	gz  *gzip.Writer // nil: no compression
	// buffer: hold until this many bytes are pending; burst: until this
	// many frames are (0: off).
	buffer, burst int
	held          []byte
	frames        int
	reserved      int // of held, taken from out.Budget
}

// Out is what a Writer does besides writing to the response.
type Out struct {
	// Tap sees the bytes as they are released, before compression (the
	// proxy's check reads the stream as the app receives it); nil: none.
	Tap func([]byte)
	// Flush follows every write to the response (the proxy's); nil: the
	// caller flushes, as serve does after a Send that sent bytes.
	Flush func() error
	// MaxHold releases what is held once it reaches this many bytes (the
	// proxy's bound: N frames of any size could be any number of bytes);
	// 0: no bound.
	MaxHold int
	// Budget bounds what all the Writers sharing it hold (nil: none).
	Budget *HoldBudget
}

// NewWriter is the delivery faults of f in front of w.
func NewWriter(w io.Writer, f Set, out Out) *Writer {
	d := &Writer{w: w, out: out, buffer: f.Buffer, burst: f.Burst}
	if f.Gzip {
		d.gz = gzip.NewWriter(w)
	}
	return d
}

// Send takes bytes that complete frames frames; sent reports whether
// bytes went on to the response (so a flush is due).
func (d *Writer) Send(p []byte, frames int) (sent bool, err error) {
	if d.buffer <= 0 && d.burst <= 0 { // nothing held back
		return len(p) > 0, d.send(p)
	}
	over := false
	if b := d.out.Budget; b != nil {
		if b.take(len(p)) {
			d.reserved += len(p)
		} else {
			over = true // the streams together hold their bound: this one lets go
		}
	}
	d.held = append(d.held, p...)
	d.frames += frames
	if over || (d.buffer > 0 && len(d.held) >= d.buffer) || (d.burst > 0 && d.frames >= d.burst) ||
		(d.out.MaxHold > 0 && len(d.held) >= d.out.MaxHold) {
		return true, d.Release()
	}
	return false, nil
}

// keptHold is the capacity a Writer keeps for its next hold once it
// released one; a larger buffer is dropped (it would stay in memory for
// as long as the stream lasts).
const keptHold = 64 << 10

// Release sends everything held.
func (d *Writer) Release() error {
	err := d.send(d.held)
	d.held, d.frames = d.held[:0], 0
	if cap(d.held) > keptHold {
		d.held = nil
	}
	if d.reserved > 0 {
		d.out.Budget.give(d.reserved)
		d.reserved = 0
	}
	return err
}

func (d *Writer) send(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if d.out.Tap != nil {
		d.out.Tap(p)
	}
	if d.gz != nil {
		if _, err := d.gz.Write(p); err != nil {
			return err
		}
		// Flushed per write, as a compressing server that streams does:
		// the compression alone delays nothing (Buffer adds the hold).
		if err := d.gz.Flush(); err != nil {
			return err
		}
	} else if _, err := d.w.Write(p); err != nil {
		return err
	}
	return d.flush()
}

func (d *Writer) flush() error {
	if d.out.Flush == nil {
		return nil
	}
	return d.out.Flush()
}

// Finish sends what is held and, when clean, ends the compressed stream
// (a cut or broken stream leaves it unterminated, as its reader gets it).
func (d *Writer) Finish(clean bool) error {
	if err := d.Release(); err != nil {
		return err
	}
	if d.gz != nil && clean {
		if err := d.gz.Close(); err != nil {
			return err
		}
		return d.flush()
	}
	return nil
}

// Discard drops what is held without sending it, giving its bytes back to
// the Budget (a stream that ended on a failed write).
func (d *Writer) Discard() {
	d.held, d.frames = nil, 0
	if d.reserved > 0 {
		d.out.Budget.give(d.reserved)
		d.reserved = 0
	}
}
