package a2a

import "bytes"

// maxTracked bounds the artifacts and tool calls a stream's state keeps:
// a stream that opens a new id on every frame must not grow the mapper
// (the flood guard: artifact-flood, once, when the bound is hit).
const maxTracked = 256

// idSet is a bounded set of ids (JSON string literals) with an open flag;
// buffers are reused, so it allocates only while it grows.
type idSet struct {
	ids  [][]byte
	open []bool
}

// find is the index of id, -1 when absent.
func (s *idSet) find(id []byte) int {
	for i := range s.ids {
		if bytes.Equal(s.ids[i], id) {
			return i
		}
	}
	return -1
}

// add tracks id as open; false when the set is full.
func (s *idSet) add(id []byte) bool {
	if len(s.ids) >= maxTracked {
		return false
	}
	s.ids = append(s.ids, append([]byte(nil), id...))
	s.open = append(s.open, true)
	return true
}

// remove forgets id.
func (s *idSet) remove(id []byte) {
	if i := s.find(id); i >= 0 {
		last := len(s.ids) - 1
		s.ids[i], s.open[i] = s.ids[last], s.open[last]
		s.ids, s.open = s.ids[:last], s.open[:last]
	}
}
