package decode

import "encoding/binary"

// wordSet finds a byte string among a fixed set of short strings — a key
// set's names, a key's Values — comparing machine words, not bytes: the
// frame index looks up every member's key of every frame, and interns the
// values of its vocabulary keys, so a call to compare bytes per candidate
// was the index's largest cost.
type wordSet struct {
	// The strings n bytes long are words[start[n]:start[n+1]].
	start [maxWordLen + 2]uint8
	words []word
}

// maxWordLen bounds a string of a wordSet.
const maxWordLen = 64

type word struct {
	// head and tail are the string's first and last eight bytes, little
	// endian; a shorter string's bytes, zero-padded, are head.
	head, tail uint64
	s          string
	id         uint8 // its position in the list the set was made from
}

// newWordSet indexes ss (at most 255 strings, each 1 to maxWordLen bytes,
// all different: the caller checks).
func newWordSet(ss []string) wordSet {
	var w wordSet
	for n := 0; n <= maxWordLen; n++ {
		w.start[n] = uint8(len(w.words))
		for id, s := range ss {
			if len(s) != n {
				continue
			}
			e := word{s: s, id: uint8(id)}
			var pad [8]byte
			copy(pad[:], s)
			e.head = binary.LittleEndian.Uint64(pad[:])
			if n >= 8 {
				e.tail = binary.LittleEndian.Uint64([]byte(s[n-8:]))
			}
			w.words = append(w.words, e)
		}
	}
	w.start[maxWordLen+1] = uint8(len(w.words))
	return w
}

// find returns the id of k in the set (-1: not in it). The rare cases —
// a short string at the very end of its buffer, one longer than sixteen
// bytes — are compared apart (findString), which keeps this one small: it
// runs for every member of every frame.
func (w *wordSet) find(k []byte) int {
	n := uint(len(k))
	if n > maxWordLen {
		return -1
	}
	cands := w.words[w.start[n]:w.start[n+1]]
	switch {
	case len(cands) == 0:
		return -1
	case n > 16:
		return w.findString(string(k))
	case n >= 8: // the first and the last eight bytes cover the string
		head, tail := binary.LittleEndian.Uint64(k), binary.LittleEndian.Uint64(k[n-8:])
		for i := range cands {
			if e := &cands[i]; e.head == head && e.tail == tail {
				return int(e.id)
			}
		}
	case cap(k) >= 8: // a short string inside a frame's data: the bytes after it are masked off
		head := binary.LittleEndian.Uint64(k[:8]) & (1<<(8*n) - 1)
		for i := range cands {
			if e := &cands[i]; e.head == head {
				return int(e.id)
			}
		}
	default:
		return w.findString(string(k))
	}
	return -1
}

// findString is find for a string, comparing bytes.
//
//go:noinline
func (w *wordSet) findString(k string) int {
	if len(k) > maxWordLen {
		return -1
	}
	for j := w.start[len(k)]; j < w.start[len(k)+1]; j++ {
		if e := &w.words[j]; e.s == k {
			return int(e.id)
		}
	}
	return -1
}
