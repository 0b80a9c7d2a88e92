package proxy

import (
	"encoding/binary"
	"errors"
	"os"
	"sync/atomic"
	"time"
)

// A stream's checker that falls more than its in-memory queue behind does
// not lose bytes: the tap appends the reads it cannot queue to a spill
// file, and the checker reads them back, in order, before the queue
// resumes. The app's copy loop only ever does a plain write (to the page
// cache) for it; the check and the recording finish after the stream,
// complete. The spill is bounded proxy-wide (Options.MaxSpill): beyond
// it the bytes are left out of the check and the recording (a Lost
// problem, as before spilling existed).

// DefaultMaxSpill bounds the spill files of all of a proxy's streams
// together.
const DefaultMaxSpill = 1 << 30

// spillBudget is the bytes all of a proxy's spill files hold.
type spillBudget struct {
	held    atomic.Int64
	limit   int64
	dir     string       // where spill files go: the library's dir, else os.TempDir()
	spilled atomic.Int64 // bytes of reads that ever went through a spill
}

// errSpillFull is the spill budget spent: the read is left out.
var errSpillFull = errors.New("the spill is full")

// spillHeader precedes each read in a spill file: its arrival time (ns
// since the stream started), the bytes left out just before it, its length.
const spillHeader = 8 + 8 + 4

// spillReadSize is how much the checker reads back from a spill at once.
const spillReadSize = 256 << 10

// spillFile is one stream's spill: the producer (the copy loop) appends
// records at w, the checker reads them from r. w is published under the
// tap's lock once a record is whole; r, buf and bufOff are the checker's.
type spillFile struct {
	f       *os.File
	name    string // "" once unlinked (at creation, where the system allows)
	w       int64
	r       int64
	buf     []byte // the checker's read buffer: file bytes from bufOff
	bufOff  int64
	scratch []byte // the producer's record buffer
}

// newSpillFile creates a spill in dir, unlinked at once where the system
// allows it (Unix): a killed proxy leaves nothing behind. Its name starts
// with a dot, which the session library ignores.
func newSpillFile(dir string) (*spillFile, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, ".framescope-spill-*.tmp")
	if err != nil {
		return nil, err
	}
	s := &spillFile{f: f, name: f.Name()}
	if os.Remove(s.name) == nil {
		s.name = ""
	}
	return s, nil
}

// write appends one record at off (the producer's only write, outside the
// tap's lock); it returns the record's size.
func (s *spillFile) write(off int64, t time.Duration, lost int64, p []byte, budget *spillBudget) (int64, error) {
	n := int64(spillHeader + len(p))
	if budget.held.Add(n) > budget.limit {
		budget.held.Add(-n)
		return 0, errSpillFull
	}
	b := s.scratch[:0]
	b = binary.LittleEndian.AppendUint64(b, uint64(t))
	b = binary.LittleEndian.AppendUint64(b, uint64(lost))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
	b = append(b, p...)
	if cap(b) <= 1<<20 {
		s.scratch = b
	}
	if _, err := s.f.WriteAt(b, off); err != nil {
		budget.held.Add(-n)
		return 0, err
	}
	budget.spilled.Add(int64(len(p)))
	return n, nil
}

// read returns the record at r (the checker's, outside the tap's lock; w
// is the published end): its time, the bytes lost before it and its data,
// valid until the next read.
func (s *spillFile) read(w int64) (t time.Duration, lost int64, data []byte, err error) {
	hdr, err := s.span(s.r, spillHeader, w)
	if err != nil {
		return 0, 0, nil, err
	}
	t = time.Duration(binary.LittleEndian.Uint64(hdr))
	lost = int64(binary.LittleEndian.Uint64(hdr[8:]))
	n := int64(binary.LittleEndian.Uint32(hdr[16:]))
	data, err = s.span(s.r+spillHeader, n, w)
	if err != nil {
		return 0, 0, nil, err
	}
	s.r += spillHeader + n
	return t, lost, data, nil
}

// span is the file's bytes [off, off+n), read ahead up to w in
// spillReadSize reads.
func (s *spillFile) span(off, n, w int64) ([]byte, error) {
	if off >= s.bufOff && off+n <= s.bufOff+int64(len(s.buf)) {
		i := off - s.bufOff
		return s.buf[i : i+n : i+n], nil
	}
	size := min(max(n, spillReadSize), w-off)
	if size < n {
		return nil, errors.New("spill record past the written end")
	}
	if int64(cap(s.buf)) < size {
		s.buf = make([]byte, size)
	}
	s.buf = s.buf[:size]
	if _, err := s.f.ReadAt(s.buf, off); err != nil {
		s.buf = s.buf[:0]
		return nil, err
	}
	s.bufOff = off
	return s.buf[:n:n], nil
}

// close closes and removes the spill, giving its bytes back to budget.
func (s *spillFile) close(budget *spillBudget) {
	budget.held.Add(-s.w)
	s.f.Close()
	if s.name != "" {
		os.Remove(s.name)
	}
}
