package agui

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// openSet remembers the spans and tool calls the current run opened, so
// that an interrupt (RUN_FINISHED with outcome interrupt) can find the ones
// still open: the engine treats an interrupt as a non-success terminal and
// would only warn, but verifyEvents rejects every RUN_FINISHED with a step,
// text message or tool call open. The engine stays the judge of what is
// open (Mapping.SpanName, ToolIsOpen); this set only names candidates.
// Buffers are reused, so it allocates only while it grows.
type openSet struct {
	e []openEntry
	n int
}

type openEntry struct {
	span  invariants.SpanKind
	tool  bool
	key   []byte // JSON literal
	frame int
}

// maxOpen bounds the set; a run that leaves more open is broken anyway.
const maxOpen = 1024

func (s *openSet) find(span invariants.SpanKind, tool bool, key decode.Raw) int {
	for i := 0; i < s.n; i++ {
		if e := &s.e[i]; e.tool == tool && e.span == span && bytes.Equal(e.key, key) {
			return i
		}
	}
	return -1
}

func (s *openSet) add(span invariants.SpanKind, tool bool, key decode.Raw, frame int) {
	if s.find(span, tool, key) >= 0 || s.n >= maxOpen {
		return
	}
	if s.n == len(s.e) {
		s.e = append(s.e, openEntry{})
	}
	e := &s.e[s.n]
	e.span, e.tool, e.key, e.frame = span, tool, append(e.key[:0], key...), frame
	s.n++
}

func (s *openSet) remove(span invariants.SpanKind, tool bool, key decode.Raw) {
	i := s.find(span, tool, key)
	if i < 0 {
		return
	}
	s.n--
	// Swap, keeping each entry's buffer for reuse.
	s.e[i], s.e[s.n] = s.e[s.n], s.e[i]
}

func (s *openSet) reset() { s.n = 0 }
