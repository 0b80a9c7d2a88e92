package agui

import (
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
	// at indexes e[:n] by span, tool and key (name) once more than
	// scanMax are open (indexed): a run that floods opens (or closes of
	// unknown ids) costs a lookup per frame, not a scan of up to maxOpen
	// entries (issue 24, item 3); a run with a few open scans them without
	// allocating.
	at      map[string]int
	indexed bool
	name    []byte // scratch for a lookup's map key
}

// scanMax is how many open entries are scanned before the set indexes them.
const scanMax = 32

type openEntry struct {
	span invariants.SpanKind
	tool bool
	// soft: a reasoning phase, reasoning message or thinking span, which
	// verifyEvents does not require closed at RUN_FINISHED (reasoning.go).
	soft  bool
	key   []byte // JSON literal
	frame int
}

// maxOpen bounds the set; a run that leaves more open is broken anyway
// (the engine raised id-limit at invariants.MaxOpenIDs).
const maxOpen = invariants.MaxOpenIDs

// nameOf is the map key of an entry, in s.name (valid until the next call).
func (s *openSet) nameOf(span invariants.SpanKind, tool bool, key decode.Raw) []byte {
	t := byte(0)
	if tool {
		t = 1
	}
	s.name = append(append(s.name[:0], byte(span), t), key...)
	return s.name
}

func (s *openSet) find(span invariants.SpanKind, tool bool, key decode.Raw) int {
	if !s.indexed {
		for i := 0; i < s.n; i++ {
			if e := &s.e[i]; e.tool == tool && e.span == span && string(e.key) == string(key) {
				return i
			}
		}
		return -1
	}
	if i, ok := s.at[string(s.nameOf(span, tool, key))]; ok {
		return i
	}
	return -1
}

func (s *openSet) add(span invariants.SpanKind, tool, soft bool, key decode.Raw, frame int) {
	if s.n >= maxOpen || s.find(span, tool, key) >= 0 {
		return
	}
	if s.n == len(s.e) {
		s.e = append(s.e, openEntry{})
	}
	e := &s.e[s.n]
	e.span, e.tool, e.soft, e.key, e.frame = span, tool, soft, append(e.key[:0], key...), frame
	s.n++
	switch {
	case s.indexed:
		s.at[string(s.nameOf(span, tool, key))] = s.n - 1
	case s.n > scanMax:
		if s.at == nil {
			s.at = map[string]int{}
		}
		for i := 0; i < s.n; i++ {
			m := &s.e[i]
			s.at[string(s.nameOf(m.span, m.tool, m.key))] = i
		}
		s.indexed = true
	}
}

func (s *openSet) remove(span invariants.SpanKind, tool bool, key decode.Raw) {
	i := s.find(span, tool, key)
	if i < 0 {
		return
	}
	s.n--
	// Swap, keeping each entry's buffer for reuse.
	s.e[i], s.e[s.n] = s.e[s.n], s.e[i]
	if !s.indexed {
		return
	}
	delete(s.at, string(s.nameOf(span, tool, key)))
	if i < s.n {
		m := &s.e[i]
		s.at[string(s.nameOf(m.span, m.tool, m.key))] = i
	}
}

func (s *openSet) reset() {
	s.n = 0
	if s.indexed {
		clear(s.at)
		s.indexed = false
	}
}
