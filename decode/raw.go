package decode

import (
	"bytes"
	"strconv"
)

// Raw is the bytes of one valid JSON value (whitespace trimmed).
//
// A Raw is valid by construction: it is a view of data the decoder
// validated (a decoded frame's data, a member or element of it), a copy of
// one, or what Parse returned for foreign bytes. Its readers trust that:
// they find where each value ends (strings by their closing quote,
// containers by their matching bracket) and do not validate again, which
// would be most of a nested dialect's checking cost. On bytes that are not
// valid JSON they return views that may not mean much, but never panic,
// never loop and never allocate: bytes from elsewhere go through Parse.
type Raw []byte

// Kind is the JSON type of a value, read from its first byte.
type Kind byte

const (
	KindNone   Kind = 0
	KindObject Kind = '{'
	KindArray  Kind = '['
	KindString Kind = '"'
	KindNumber Kind = '0'
	KindBool   Kind = 't'
	KindNull   Kind = 'n'
)

// Kind returns the value's JSON type; KindNone for an absent value.
func (r Raw) Kind() Kind {
	if len(r) == 0 {
		return KindNone
	}
	switch c := r[0]; c {
	case '{', '[', '"', 'n':
		return Kind(c)
	case 't', 'f':
		return KindBool
	default:
		return KindNumber
	}
}

// Str returns the value as a Go string when it is a JSON string.
func (r Raw) Str() (string, bool) {
	if r.Kind() != KindString {
		return "", false
	}
	return unquote(r), true
}

// StrEq reports whether the value is a JSON string equal to s, without
// allocating when it has no escapes.
func (r Raw) StrEq(s string) bool {
	if len(r) < 2 || r[0] != '"' {
		return false
	}
	in := r[1 : len(r)-1]
	if len(in) < len(s) {
		return false // an escape only ever makes the literal longer
	}
	if bytes.IndexByte(in, '\\') >= 0 {
		return unquote(r) == s
	}
	return string(in) == s
}

// StrBytes returns the decoded value of a JSON string: the literal's own
// bytes when it has no escapes (no copy; valid as long as r), a fresh
// slice otherwise.
func (r Raw) StrBytes() ([]byte, bool) {
	if len(r) < 2 || r[0] != '"' {
		return nil, false
	}
	in := r[1 : len(r)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		return in, true
	}
	return appendUnquoted(make([]byte, 0, len(in)), r), true
}

// IsNonEmptyStr reports whether the value is a non-empty JSON string.
func (r Raw) IsNonEmptyStr() bool { return len(r) > 2 && r[0] == '"' }

// NonEmptyStr returns the string and true only for a non-empty JSON string.
func (r Raw) NonEmptyStr() (string, bool) {
	s, ok := r.Str()
	return s, ok && s != ""
}

// Bool returns the value when it is a JSON boolean.
func (r Raw) Bool() (v, ok bool) {
	if r.Kind() != KindBool {
		return false, false
	}
	return r[0] == 't', true
}

// Int returns the value when it is a JSON number without fraction or
// exponent that fits in int64.
func (r Raw) Int() (int64, bool) {
	if r.Kind() != KindNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(string(r), 10, 64)
	return n, err == nil
}

// Get returns the member key of an object value (nil when absent or when r
// is not an object). When a key repeats, the last one wins, as in
// encoding/json; a key written with escapes is compared decoded.
func (r Raw) Get(key string) Raw {
	var found Raw
	it := r.Members()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		if keyEquals(k, esc, key) {
			found = v
		}
	}
	return found
}

// GetAll looks up several members of an object value in one pass: dst[i]
// gets keys[i] (nil when absent; the last one when a key repeats). A
// reader of the same members frame after frame compiles them once
// instead (Keys).
func (r Raw) GetAll(dst []Raw, keys ...string) {
	clear(dst)
	it := r.Members()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		for i, key := range keys {
			if i < len(dst) && keyEquals(k, esc, key) {
				dst[i] = v
			}
		}
	}
}

// Len returns the number of elements of an array value (-1 when not an array).
func (r Raw) Len() int {
	if r.Kind() != KindArray {
		return -1
	}
	n := 0
	it := r.Elements()
	for _, ok := it.Next(); ok; _, ok = it.Next() {
		n++
	}
	return n
}

func keyEquals(k []byte, esc bool, key string) bool {
	if !esc {
		return string(k) == key
	}
	// decodeKey, not unquote: a key read from bytes that are not JSON (a
	// "\u12" cut short) must not make it panic.
	return string(decodeKey(k)) == key
}

// AppendStr appends the decoded value of a JSON string to dst without an
// intermediate string (a client appending text chunks to its bubble);
// ok is false, and dst unchanged, when the value is not a string.
func (r Raw) AppendStr(dst []byte) ([]byte, bool) {
	if r.Kind() != KindString {
		return dst, false
	}
	return appendUnquoted(dst, r), true
}
