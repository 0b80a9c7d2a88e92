package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"framescope/sessions/faults"
)

// errFaultCut is the stream cut by --fault cut-after: the proxy aborts the
// app's connection as a broken upstream would.
var errFaultCut = errors.New("cut by --fault cut-after")

// faulter applies a fault plan to one stream on its way to the app. It
// splits the upstream's reads into blocks (SSE events or NDJSON lines) and
// holds back only what a fault needs whole: the frame in progress when it
// is to be dropped, garbled, repeated, or (drop-terminal) might be the
// last. Other bytes pass at once; the output of one upstream read is one
// write to the app (a stall splits it at the stalled frame).
type faulter struct {
	plan   faults.Plan
	drop   map[int]bool
	dup    map[int]bool
	garble map[int]bool
	stalls map[int]time.Duration
	split  blockSplitter
	ndjson bool
	out    *faults.Writer
	// sleep pauses for a stall; an error (the app gone) ends the stream.
	sleep func(time.Duration) error

	buf    []byte // the bytes not yet passed on, from stream offset bufOff
	store  []byte // buf's room, reused once buf is empty
	bufOff int64
	next   int  // the index of the frame in progress
	tooBig bool // the frame in progress outgrew faults.MaxHold: it passes unfaulted

	pend       []byte // the output of the current read, written at its end
	pendFrames int

	held       []byte // drop-terminal: the last whole frame(s), not yet passed on
	heldFrames int

	blocks []faultBlock
	notes  []string
	cut    bool // cut-after ended the stream
}

type faultBlock struct {
	off, size int64
	frame     bool
}

func newFaulter(plan faults.Plan, ndjson bool, out *faults.Writer, sleep func(time.Duration) error) *faulter {
	f := &faulter{plan: plan, ndjson: ndjson, out: out, sleep: sleep,
		drop: set(plan.Drop), dup: set(plan.Dup), garble: set(plan.Garble), stalls: map[int]time.Duration{}}
	for _, s := range plan.Stalls {
		f.stalls[s.Before] += s.For
	}
	if ndjson {
		f.split = newLineSplitter()
	} else {
		f.split = newSSESplitter()
	}
	return f
}

func set(ns []int) map[int]bool {
	m := make(map[int]bool, len(ns))
	for _, n := range ns {
		m[n] = true
	}
	return m
}

// holds says whether frame k is held whole before it passes.
func (f *faulter) holds(k int) bool {
	return f.plan.DropTerminal || f.drop[k] || f.dup[k] || f.garble[k]
}

func (f *faulter) collect(off, size int64, frame bool) {
	f.blocks = append(f.blocks, faultBlock{off, size, frame})
}

// feed takes one upstream read.
func (f *faulter) feed(p []byte) error {
	if len(f.buf) == 0 {
		f.buf = append(f.store[:0], p...)
		f.store = f.buf[:0]
	} else {
		f.buf = append(f.buf, p...)
	}
	f.blocks = f.blocks[:0]
	f.split.feed(p, f.collect)
	for _, b := range f.blocks {
		if err := f.block(b); err != nil {
			return err
		}
	}
	if err := f.tail(); err != nil {
		return err
	}
	return f.writePend()
}

// finish ends the stream: what the upstream left incomplete passes as it
// is; a frame held by drop-terminal is the last one, and is dropped. clean
// is false when the stream broke (the compressed stream is left open).
func (f *faulter) finish(clean bool) error {
	f.blocks = f.blocks[:0]
	f.split.close(f.collect)
	for _, b := range f.blocks {
		if err := f.block(b); err != nil {
			return err
		}
	}
	f.emit(f.take(f.bufOff+int64(len(f.buf))), 0)
	if f.heldFrames > 0 {
		if clean {
			f.notes = append(f.notes, fmt.Sprintf("frame %d, the last, not passed on (drop-terminal)", f.next-1))
		} else {
			f.emit(f.held, f.heldFrames) // not the terminal: the stream broke after it
		}
		f.held, f.heldFrames = nil, 0
	}
	if err := f.writePend(); err != nil {
		return err
	}
	return f.out.Finish(clean)
}

// take removes the unpassed bytes before stream offset upto from buf.
func (f *faulter) take(upto int64) []byte {
	n := int(upto - f.bufOff)
	if n <= 0 {
		return nil
	}
	b := f.buf[:n]
	f.buf = f.buf[n:]
	f.bufOff = upto
	return b
}

func (f *faulter) emit(b []byte, frames int) {
	f.pend = append(f.pend, b...)
	f.pendFrames += frames
}

func (f *faulter) writePend() error {
	if len(f.pend) == 0 && f.pendFrames == 0 {
		return nil
	}
	_, err := f.out.Send(f.pend, f.pendFrames)
	f.pend, f.pendFrames = f.pend[:0], 0
	if len(f.buf) == 0 && cap(f.store) > copyBufSize*4 {
		f.buf, f.store = nil, nil // a large frame held once: do not keep its room
	}
	if cap(f.pend) > copyBufSize*4 {
		f.pend = nil
	}
	return err
}

// stallFor pauses before frame k's first byte passes, once: what the
// read brought before it is written first.
func (f *faulter) stallFor(k int) error {
	d, ok := f.stalls[k]
	if !ok {
		return nil
	}
	delete(f.stalls, k)
	if err := f.writePend(); err != nil {
		return err
	}
	return f.sleep(d)
}

// block handles one whole block.
func (f *faulter) block(b faultBlock) error {
	end := b.off + b.size
	if b.off > f.bufOff { // bytes between blocks
		f.emit(f.take(b.off), 0)
	}
	if !b.frame {
		// Comments and keep-alives pass, even ahead of a frame held by
		// drop-terminal: they carry no event.
		f.emit(f.take(end), 0)
		return nil
	}
	k := f.next
	f.next++
	if err := f.stallFor(k); err != nil {
		return err
	}
	raw := f.take(end)
	if f.tooBig {
		f.tooBig = false
		f.emit(raw, 1)
		return f.cutAfter(k)
	}
	frames := 1
	switch {
	case f.drop[k]:
		raw, frames = nil, 0
	case f.garble[k]:
		raw = f.garbled(raw)
	}
	if f.dup[k] && frames > 0 {
		raw = append(append([]byte(nil), raw...), raw...)
		frames = 2
	}
	if f.plan.DropTerminal && frames > 0 {
		f.emit(f.held, f.heldFrames) // a frame came after it: not the last
		f.held = append(f.held[:0], raw...)
		f.heldFrames = frames
		return f.cutAfter(k)
	}
	f.emit(raw, frames)
	return f.cutAfter(k)
}

// cutAfter ends the stream after frame k when cut-after names it.
func (f *faulter) cutAfter(k int) error {
	if f.plan.CutAfter != k {
		return nil
	}
	f.emit(f.held, f.heldFrames)
	f.held, f.heldFrames = nil, 0
	if err := f.writePend(); err != nil {
		return err
	}
	f.cut = true
	if err := f.out.Finish(false); err != nil {
		return err
	}
	return errFaultCut
}

// tail handles the bytes after the read's last whole block: the start of
// frame f.next (or of a comment). They pass at once unless the frame is
// held whole; under drop-terminal, a frame that starts releases the one
// held before it.
func (f *faulter) tail() error {
	if len(f.buf) == 0 {
		return nil
	}
	k := f.next
	if f.heldFrames > 0 && f.startsFrame(f.buf) {
		f.emit(f.held, f.heldFrames)
		f.held, f.heldFrames = f.held[:0], 0
	}
	if f.holds(k) && !f.tooBig {
		if len(f.buf) <= faults.MaxHold {
			return nil
		}
		f.tooBig = true
		f.notes = append(f.notes, fmt.Sprintf("frame %d is over %d MiB: passed on unfaulted", k, faults.MaxHold>>20))
	}
	if f.startsFrame(f.buf) {
		if err := f.stallFor(k); err != nil {
			return err
		}
	}
	f.emit(f.take(f.bufOff+int64(len(f.buf))), 0)
	return nil
}

// startsFrame says whether b, the start of a block, has a field line (SSE:
// a line that is neither blank nor a comment) or, in NDJSON, anything but
// white space: a frame is on its way, not a keep-alive.
func (f *faulter) startsFrame(b []byte) bool {
	if f.ndjson {
		return len(bytes.TrimSpace(b)) > 0
	}
	lineStart := true
	for _, c := range b {
		switch {
		case c == '\n' || c == '\r':
			lineStart = true
		case lineStart && c != ':':
			return true
		default:
			lineStart = false
		}
	}
	return false
}

// garbled corrupts a frame's data as serve's --garble does; an NDJSON
// line is garbled as the data of an SSE block.
func (f *faulter) garbled(raw []byte) []byte {
	if !f.ndjson {
		return faults.Garble(raw)
	}
	body := bytes.TrimRight(raw, "\r\n")
	g := faults.Garble(append(append([]byte("data: "), body...), '\n', '\n'))
	g = bytes.TrimPrefix(g, []byte("data: "))
	g = bytes.TrimSuffix(g, []byte("\n\n"))
	return append(g, raw[len(body):]...)
}
