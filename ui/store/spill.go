package store

import (
	"io"
	"os"
	"runtime"
	"sync"
)

// ByteSource is where the store reads rows' bytes back from: positions are
// stream offsets (Row.Offset), so a row's block is ReadAt(Offset, Size).
// A row keeps no bytes itself: at a million frames the blocks alone are
// ~300 MB, more than the whole memory budget of the process.
type ByteSource interface {
	io.ReaderAt
}

// spillMemMax is how much of a stream the spill keeps in memory before it
// moves to a file: small sessions (tests, short live turns) never touch the
// disk, and it is the write buffer afterwards.
const spillMemMax = 4 << 20

// spill is the home of the stream's bytes when the source is not a file we
// can read back (stdin, a live stream, a JSONL or HAR capture whose bytes
// are JSON-escaped chunks): an append-only copy of the decoded SSE stream,
// byte for byte at its stream offsets, written by the feeder as blocks go
// by. The first spillMemMax bytes stay in memory; past that the spill is an
// unlinked temp file (nothing to clean up, even if the process dies) with
// the unflushed tail in memory. The pipeline goroutine writes; the
// bubbletea goroutine and search commands read concurrently.
type spill struct {
	mu      sync.Mutex
	f       *os.File // nil while everything fits in buf
	buf     []byte   // bytes [flushed, flushed+len(buf))
	flushed int64    // bytes before buf (in the file)
	err     error    // the first file error: later bytes are not kept
}

func newSpill() *spill { return &spill{} }

// failure is the first error writing the spill file (nil while fine):
// bytes written after it are not kept.
func (s *spill) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// end is the stream offset one past the last byte written.
func (s *spill) end() int64 { return s.flushed + int64(len(s.buf)) }

// write puts a block's bytes at its stream offset. Blocks arrive in stream
// order; a gap (bytes no block kept: an oversized event) is left as a hole.
func (s *spill) write(off int64, b []byte) {
	if len(b) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || off < s.end() {
		return // a failed file, or bytes out of order: not kept
	}
	if off > s.end() {
		if gap := off - s.end(); gap <= 64<<10 && int64(len(s.buf))+gap <= spillMemMax {
			s.buf = append(s.buf, make([]byte, gap)...)
		} else {
			s.flush()
			s.flushed = off // WriteAt leaves a hole
		}
	}
	if len(s.buf)+len(b) > spillMemMax {
		s.flush()
	}
	if s.err == nil {
		s.buf = append(s.buf, b...)
	}
}

// flush moves buf to the file (creating it). Called with mu held.
func (s *spill) flush() {
	if len(s.buf) == 0 || s.err != nil {
		return
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "framescope-spill-*")
		if err != nil {
			s.err = err
			return
		}
		if os.Remove(f.Name()) != nil {
			// Windows keeps an open file's name: remove it once the spill
			// is gone (the *os.File closes itself when unreachable too).
			runtime.AddCleanup(s, func(f *os.File) { f.Close(); os.Remove(f.Name()) }, f)
		} // else unlinked: the fd keeps the bytes until it is closed
		s.f = f
	}
	if _, err := s.f.WriteAt(s.buf, s.flushed); err != nil {
		s.err = err
		return
	}
	s.flushed += int64(len(s.buf))
	s.buf = s.buf[:0]
}

// ReadAt reads bytes back: from the file, then from the in-memory tail.
func (s *spill) ReadAt(p []byte, off int64) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	if off < s.flushed {
		if s.f == nil {
			return 0, io.ErrUnexpectedEOF
		}
		k := min(int64(len(p)), s.flushed-off)
		m, err := s.f.ReadAt(p[:k], off)
		n += m
		if err != nil {
			return n, err
		}
		off += int64(m)
	}
	if n < len(p) {
		i := off - s.flushed
		if i >= int64(len(s.buf)) {
			return n, io.EOF
		}
		n += copy(p[n:], s.buf[i:])
		if n < len(p) {
			return n, io.EOF
		}
	}
	return n, nil
}
