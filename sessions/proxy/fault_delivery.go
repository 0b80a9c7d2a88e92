package proxy

import (
	"compress/gzip"
	"io"
)

// faultOut is the last stage of a faulted stream: it holds the faulted
// bytes as --fault buffer or burst says, hands them to the checker's tap
// (the check sees the stream as the app receives it, decoded and when it
// is released) and writes them to the app, gzip-compressed under --fault
// gzip, flushing every write. The delivery faults are serve's
// (sessions/replay/faults_delivery.go, docs/timing.md).
type faultOut struct {
	w     io.Writer
	flush func() error
	tap   func([]byte)
	gz    *gzip.Writer
	// buffer: hold until this many bytes are pending; burst: until this
	// many frames are (0: off).
	buffer, burst int
	held          []byte
	frames        int
}

func newFaultOut(w io.Writer, flush func() error, tap func([]byte), plan faultPlan) *faultOut {
	o := &faultOut{w: w, flush: flush, tap: tap, buffer: plan.Buffer, burst: plan.Burst}
	if plan.Gzip {
		o.gz = gzip.NewWriter(w)
	}
	return o
}

// write takes bytes that complete frames frames.
func (o *faultOut) write(p []byte, frames int) error {
	if o.buffer == 0 && o.burst == 0 {
		return o.send(p)
	}
	o.held = append(o.held, p...)
	o.frames += frames
	// burst's hold is bounded as buffer's is: N frames of any size could be
	// any number of bytes.
	if (o.buffer > 0 && len(o.held) >= o.buffer) || (o.burst > 0 && o.frames >= o.burst) || len(o.held) >= maxFaultHold {
		return o.release()
	}
	return nil
}

// release sends everything held.
func (o *faultOut) release() error {
	err := o.send(o.held)
	o.held, o.frames = o.held[:0], 0
	return err
}

func (o *faultOut) send(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	o.tap(p)
	if o.gz != nil {
		if _, err := o.gz.Write(p); err != nil {
			return err
		}
		// Flushed per write, as a compressing server that streams does:
		// the compression alone delays nothing (buffer adds the hold).
		if err := o.gz.Flush(); err != nil {
			return err
		}
	} else if _, err := o.w.Write(p); err != nil {
		return err
	}
	return o.flush()
}

// finish sends what is held and, when clean, ends the compressed stream
// (a cut or broken stream leaves it unterminated, as the app gets it).
func (o *faultOut) finish(clean bool) error {
	if err := o.release(); err != nil {
		return err
	}
	if o.gz != nil && clean {
		if err := o.gz.Close(); err != nil {
			return err
		}
		return o.flush()
	}
	return nil
}
