package decode

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoding JSON strings. The escape sequences are decoded in one place,
// AppendEscape, for the decoder's strings and for the capture readers'
// (which read their own framing and decide for themselves what a bad
// escape or invalid UTF-8 means).

// AppendEscape appends the decoding of the JSON escape sequence that
// begins s (s[0] is the backslash) to dst, as encoding/json decodes it: a
// \uXXXX as its rune's UTF-8, a surrogate pair's two escapes as the one
// rune they make, and a surrogate without its pair as U+FFFD (lone is
// then true). n is how many bytes of s the escape took; it is 0, and dst
// unchanged, when s does not begin with an escape JSON has: cut short by
// the end of s, a letter that is no escape, \u without four hex digits.
// A high surrogate at the very end of s is lone: a caller reading a
// stream in pieces waits for the next piece before an escape within 12
// bytes of its end.
func AppendEscape(dst, s []byte) (out []byte, n int, lone bool) {
	if len(s) < 2 || s[0] != '\\' {
		return dst, 0, false
	}
	switch s[1] {
	case '"', '\\', '/':
		return append(dst, s[1]), 2, false
	case 'b':
		return append(dst, '\b'), 2, false
	case 'f':
		return append(dst, '\f'), 2, false
	case 'n':
		return append(dst, '\n'), 2, false
	case 'r':
		return append(dst, '\r'), 2, false
	case 't':
		return append(dst, '\t'), 2, false
	case 'u':
	default:
		return dst, 0, false
	}
	r, ok := hex4(s, 2)
	if !ok {
		return dst, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(dst, r), 6, false
	}
	if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if r2, ok := hex4(s, 8); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return utf8.AppendRune(dst, d), 12, false
			}
		}
	}
	return utf8.AppendRune(dst, utf8.RuneError), 6, true
}

// hex4 is the value of the four hex digits at s[p:].
func hex4(s []byte, p int) (rune, bool) {
	if p+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[p : p+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unquote decodes a validated JSON string literal (with its quotes).
// Invalid surrogates become U+FFFD, as in encoding/json.
func unquote(q []byte) string {
	s := q[1 : len(q)-1]
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s)
	}
	return string(appendUnquoted(make([]byte, 0, len(s)), q))
}

// appendUnquoted appends the decoded validated JSON string literal q
// (with its quotes): the runs between escapes as they are, each escape
// decoded.
func appendUnquoted(out, q []byte) []byte {
	s := q[1 : len(q)-1]
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(out, s...)
		}
		out = append(out, s[:i]...)
		var n int
		if out, n, _ = AppendEscape(out, s[i:]); n == 0 {
			return append(out, s[i:]...) // not validated: the rest as it is
		}
		s = s[i+n:]
	}
}
