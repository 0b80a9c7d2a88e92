package proxy

import "framescope/decode"

// blockSplitter finds the blocks of a stream fed read by read: each
// block's stream offset and size, and whether it is a frame. Bytes
// between blocks (a line feed after a lone-CR block end) belong to none.
type blockSplitter interface {
	feed(p []byte, emit func(off, size int64, frame bool))
	close(emit func(off, size int64, frame bool))
}

// sseSplitter finds SSE blocks with decode's framer; a frame is a block
// WHATWG dispatches (HTML §9.2.6: one with a data field). A block ended
// by a lone CR is released at once (decode.Framer.Release), as a live
// reader dispatches it.
type sseSplitter struct {
	fr   *decode.Framer
	emit func(off, size int64, frame bool)
}

func newSSESplitter() *sseSplitter { return &sseSplitter{fr: decode.NewFramer()} }

func (s *sseSplitter) event(ev *decode.Event) { s.emit(ev.Offset, ev.Size, ev.Dispatched()) }

func (s *sseSplitter) feed(p []byte, emit func(off, size int64, frame bool)) {
	s.emit = emit
	s.fr.Feed(p, s.event)
	s.fr.Release(s.event)
}

func (s *sseSplitter) close(emit func(off, size int64, frame bool)) {
	s.emit = emit
	s.fr.Close(s.event)
}

// lineSplitter finds NDJSON lines (the NDJSON and JSON Lines
// conventions: one value a line, LF-terminated); a frame is a line with
// anything but white space, a blank line a block that is none.
type lineSplitter struct {
	off, lineStart int64
	blank          bool
}

func newLineSplitter() *lineSplitter { return &lineSplitter{blank: true} }

func (l *lineSplitter) feed(p []byte, emit func(off, size int64, frame bool)) {
	for i, c := range p {
		switch c {
		case '\n':
			end := l.off + int64(i) + 1
			emit(l.lineStart, end-l.lineStart, !l.blank)
			l.lineStart, l.blank = end, true
		case ' ', '\t', '\r':
		default:
			l.blank = false
		}
	}
	l.off += int64(len(p))
}

// close ends a last line without its LF: a frame still (the NDJSON reader
// reads it so).
func (l *lineSplitter) close(emit func(off, size int64, frame bool)) {
	if l.off > l.lineStart {
		emit(l.lineStart, l.off-l.lineStart, !l.blank)
		l.lineStart = l.off
	}
}
