package replay

import (
	"compress/gzip"
	"io"
)

// Delivery faults reproduce what happens to a stream on its way rather
// than to its frames (docs/timing.md): a buffering proxy that holds the
// bytes (Buffer), a compressor (Gzip), a server that writes several
// frames at once (Burst). check's delivery rules diagnose each.
//
// deliveryWriter sits between the replay and the response: it holds the
// replay's writes until the fault lets them through, then hands them to
// the response, through gzip when asked.
type deliveryWriter struct {
	w      io.Writer    // the response
	gz     *gzip.Writer // nil: no compression
	buffer int          // hold until this many bytes (0: off)
	burst  int          // hold until this many frames (0: off)
	held   []byte
	frames int
}

func newDeliveryWriter(w io.Writer, f Faults) *deliveryWriter {
	d := &deliveryWriter{w: w, buffer: f.Buffer, burst: f.Burst}
	if f.Gzip {
		d.gz = gzip.NewWriter(w)
	}
	return d
}

// holds reports whether the writer holds writes back.
func (d *deliveryWriter) holds() bool { return d.buffer > 0 || d.burst > 0 }

// write takes an op's bytes, which complete frames frames; sent reports
// whether bytes went on to the response (so a flush is due).
func (d *deliveryWriter) write(p []byte, frames int) (sent bool, err error) {
	if !d.holds() {
		return len(p) > 0, d.out(p)
	}
	d.held = append(d.held, p...)
	d.frames += frames
	if (d.buffer > 0 && len(d.held) >= d.buffer) || (d.burst > 0 && d.frames >= d.burst) {
		return true, d.release()
	}
	return false, nil
}

// release sends everything held.
func (d *deliveryWriter) release() error {
	if len(d.held) == 0 {
		return nil
	}
	err := d.out(d.held)
	d.held, d.frames = d.held[:0], 0
	return err
}

func (d *deliveryWriter) out(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if d.gz != nil {
		if _, err := d.gz.Write(p); err != nil {
			return err
		}
		// Flushed per write, as a compressing server that streams does:
		// the compression alone delays nothing (--buffer adds the hold).
		return d.gz.Flush()
	}
	_, err := d.w.Write(p)
	return err
}

// finish sends what is held and ends the compressed stream.
func (d *deliveryWriter) finish() error {
	if err := d.release(); err != nil {
		return err
	}
	if d.gz != nil {
		return d.gz.Close()
	}
	return nil
}
