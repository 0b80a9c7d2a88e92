package decode

import (
	"encoding/binary"
	"math/bits"
)

// Reading a Raw: the streaming iterators over an object's members and an
// array's elements, and the skipping they are made of. They trust the
// bytes to be valid JSON (a Raw is: raw.go) and check nothing more than
// they must to stay in bounds.

// ValueEnd returns the index just past the JSON value that starts at
// data[i] (no whitespace before it), trusting the value to be valid.
func ValueEnd(data []byte, i int) int {
	if i < 0 || i >= len(data) {
		return len(data)
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		return skipContainer(data, i)
	}
	for i < len(data) && !delimiter[data[i]] { // a number, true, false, null
		i++
	}
	return i
}

// delimiter marks the bytes that end a number or a literal.
var delimiter = [256]bool{',': true, '}': true, ']': true, ':': true, ' ': true, '\t': true, '\n': true, '\r': true}

// skipString returns the index past the closing quote of the
// string that starts at data[i] ('"').
func skipString(data []byte, i int) int {
	end, _ := stringEnd(data, i)
	return end
}

// stringEnd returns the index past the closing quote of the
// string that starts at data[i] ('"') and whether it holds an escape, 8
// bytes at a time: the lowest '"' or '\\' of a word is the next byte
// that matters.
func stringEnd(data []byte, i int) (int, bool) {
	i++
	esc := false
	for i < len(data) {
		for i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			q := x ^ (swarLo * '"')
			b := x ^ (swarLo * '\\')
			if m := ((q-swarLo)&^q | (b-swarLo)&^b) & swarHi; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
			i += 8
		}
		for i < len(data) && data[i] != '"' && data[i] != '\\' {
			i++
		}
	special:
		if i >= len(data) {
			break
		}
		if data[i] == '"' {
			return i + 1, esc
		}
		esc = true
		i += 2 // an escape: the byte after the backslash is never the end
	}
	return len(data), esc
}

// skipContainer returns the index past the bracket that closes the
// object or array starting at data[i].
func skipContainer(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			i = skipString(data, i)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(data)
}

// walk is what an iterator over an object's members or an array's
// elements keeps between values.
type walk struct {
	data []byte
	i    int
	end  int // past the closing bracket, once Next has reached it
	open int // where the value NextOpen left open starts
}

// Resume continues after the value NextOpen left open, end bytes long
// (the End of the iterator that read it; 0, a value not read to its end,
// stops the iteration).
func (w *walk) Resume(end int) {
	if end <= 0 || w.open+end > len(w.data) {
		w.i = len(w.data)
		return
	}
	w.i = w.open + end
}

// End is the index in the value iterated just past its closing bracket,
// once Next has returned its last member or element (0 before, or when
// the bytes are not a valid object or array).
func (w *walk) End() int { return w.end }

// stop ends the iteration at data[i]: End is set when it is the closing
// bracket c.
func (w *walk) stop(i int, c byte) {
	if i < len(w.data) && w.data[i] == c && w.end == 0 {
		w.end = i + 1
	}
	w.i = len(w.data)
}

// MemberIter reads an object's members in order (Raw.Members).
type MemberIter struct{ walk }

// Members reads the members of the object value that starts r, in one
// pass, without a callback: a reader looks each key up as it comes (a
// KeySet's Slot). r may run on past the object (the rest of an array):
// End says where the object ended. A value that is not an object has no
// members.
func (r Raw) Members() MemberIter {
	if r.Kind() != KindObject {
		return MemberIter{}
	}
	return MemberIter{walk{data: r, i: 1}}
}

// Next returns the next member: its key's raw bytes between the quotes,
// whether the key holds an escape (compare it decoded: KeyIs, or look it
// up in a KeySet), and its value; ok is false after the last.
func (it *MemberIter) Next() (key []byte, esc bool, v Raw, ok bool) {
	key, esc, v, _, ok = it.next(false)
	return key, esc, v, ok
}

// NextOpen is Next, but an object or array value is left open, not
// skipped (open is true): v runs from the value to the end of the data,
// for the caller to read in the same pass with Members or Elements
// (which stop at its end) and then hand that iterator's
// End to Resume. The members of a nested object are read once, not once
// to skip them and once more to read them.
func (it *MemberIter) NextOpen() (key []byte, esc bool, v Raw, open, ok bool) {
	return it.next(true)
}

func (it *MemberIter) next(lazy bool) (key []byte, esc bool, v Raw, open, ok bool) {
	d, i := it.data, skipWS(it.data, it.i)
	if i < len(d) && d[i] == ',' {
		i = skipWS(d, i+1)
	}
	if i >= len(d) || d[i] != '"' {
		it.stop(i, '}')
		return nil, false, nil, false, false
	}
	kEnd, esc := stringEnd(d, i)
	if kEnd < i+2 { // not valid JSON
		it.i = len(d)
		return nil, false, nil, false, false
	}
	key = d[i+1 : kEnd-1]
	i = kEnd
	if i < len(d) && d[i] != ':' {
		i = skipWS(d, i)
	}
	if i >= len(d) || d[i] != ':' {
		it.i = len(d)
		return nil, false, nil, false, false
	}
	i = skipWS(d, i+1)
	if lazy && i < len(d) && (d[i] == '{' || d[i] == '[') {
		it.open, it.i = i, len(d) // until Resume
		return key, esc, d[i:], true, true
	}
	end := ValueEnd(d, i)
	if end <= i {
		it.i = len(d)
		return nil, false, nil, false, false
	}
	it.i = end
	return key, esc, d[i:end], false, true
}

// KeyIs reports whether a member's key (as MemberIter.Next returns it) is
// name, decoding it when it holds an escape.
func KeyIs(key []byte, esc bool, name string) bool { return keyEquals(key, esc, name) }

// DecodedKey is a member's key (as MemberIter.Next returns it) decoded,
// for a mapper to switch on: the key itself, or, when it holds an escape,
// a fresh decoded copy. One switch picks among a handful of names where
// KeyIs would compare the key once per name.
func DecodedKey(key []byte, esc bool) []byte {
	if !esc {
		return key
	}
	return decodeKey(key)
}

// decodeKey decodes a key that holds an escape. A key that is not a valid
// JSON string (bytes the decoder did not validate) is returned as it is:
// unquoting it could index past its end.
func decodeKey(key []byte) []byte {
	q := make([]byte, 0, len(key)+2)
	q = append(append(append(q, '"'), key...), '"')
	if end, _, err := scanString(q, 0); err != nil || end != len(q) {
		return key
	}
	return appendUnquoted(make([]byte, 0, len(key)), q)
}

// ElementIter reads an array's elements in order (Raw.Elements).
type ElementIter struct{ walk }

// Elements reads the elements of the array value that starts r, in one
// pass (r may run on past the array: End says where it ended). A value
// that is not an array has none.
func (r Raw) Elements() ElementIter {
	if r.Kind() != KindArray {
		return ElementIter{}
	}
	return ElementIter{walk{data: r, i: 1}}
}

// Next returns the next element; ok is false after the last.
func (it *ElementIter) Next() (v Raw, ok bool) {
	v, _, ok = it.next(false)
	return v, ok
}

// NextOpen is Next, but an object or array element is left open, as
// MemberIter.NextOpen leaves a value: read it, then Resume.
func (it *ElementIter) NextOpen() (v Raw, open, ok bool) { return it.next(true) }

func (it *ElementIter) next(lazy bool) (v Raw, open, ok bool) {
	d, i := it.data, skipWS(it.data, it.i)
	if i < len(d) && d[i] == ',' {
		i = skipWS(d, i+1)
	}
	if i >= len(d) || d[i] == ']' {
		it.stop(i, ']')
		return nil, false, false
	}
	if lazy && (d[i] == '{' || d[i] == '[') {
		it.open, it.i = i, len(d) // until Resume
		return d[i:], true, true
	}
	end := ValueEnd(d, i)
	if end <= i {
		it.i = len(d)
		return nil, false, false
	}
	it.i = end
	return d[i:end], false, true
}
