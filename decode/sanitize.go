package decode

import (
	"strconv"
	"unicode/utf8"
)

// Frames carry untrusted text: LLM output, tool names, server JSON. This is
// the one sanitizer every string from input passes through before it can
// reach a terminal. It escapes, visibly and reversibly:
//   - C0 controls (ESC included), DEL and C1 controls (U+0080–U+009F,
//     U+009B CSI included) as \xNN / \u00NN (\n, \r, \t by name);
//   - bidi controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069);
//   - zero-width and invisible characters (U+200B–U+200D, U+2060–U+2064,
//     U+FEFF, U+180E, U+00AD soft hyphen) and line/paragraph separators;
//   - invalid UTF-8 bytes as \xNN.
// Output never contains a control sequence, and Sanitize(Sanitize(s)) ==
// Sanitize(s): the escapes it writes are printable ASCII it leaves alone.

// Sanitize returns s safe to print on one line.
func Sanitize(s string) string {
	if safeASCII(s) {
		return s
	}
	return string(appendSanitized(nil, s, false))
}

// SanitizeBytes is Sanitize for bytes.
func SanitizeBytes(b []byte) string {
	if safeASCII(string(b)) {
		return string(b)
	}
	return string(appendSanitized(nil, string(b), false))
}

// SanitizeMultiline is Sanitize but keeps LF line breaks (a CR, tab and
// every other control is still escaped).
func SanitizeMultiline(s string) string {
	return string(appendSanitized(nil, s, true))
}

// AppendSanitized appends the sanitized form of s to dst.
func AppendSanitized(dst []byte, s string) []byte {
	return appendSanitized(dst, s, false)
}

func safeASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func appendSanitized(dst []byte, s string, keepLF bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			dst = append(dst, c)
			i++
			continue
		}
		if c < 0x80 {
			switch {
			case c == '\n' && keepLF:
				dst = append(dst, '\n')
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c == '\t':
				dst = append(dst, `\t`...)
			default:
				dst = appendHexByte(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			dst = appendHexByte(dst, c)
			i++
			continue
		}
		if UnsafeRune(r) {
			dst = appendURune(dst, r)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// UnsafeRune reports whether r must not reach a terminal as itself.
func UnsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x00ad, r == 0x061c, r == 0x180e:
		return true
	case r >= 0x200b && r <= 0x200f: // zero-width space/joiners, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line/para separators, bidi embeddings/overrides
		return true
	case r >= 0x2060 && r <= 0x2069: // word joiner, invisible operators, bidi isolates
		return true
	case r == 0xfeff:
		return true
	case r >= 0xfff9 && r <= 0xfffb: // interlinear annotation controls
		return true
	}
	return false
}

const hexDigits = "0123456789abcdef"

func appendHexByte(dst []byte, c byte) []byte {
	return append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
}

func appendURune(dst []byte, r rune) []byte {
	dst = append(dst, '\\', 'u')
	h := strconv.FormatInt(int64(r), 16)
	for n := len(h); n < 4; n++ {
		dst = append(dst, '0')
	}
	return append(dst, h...)
}

// AppendJSONString appends s as a JSON string literal that is safe to print
// on a terminal: every rune UnsafeRune reports is written as a \u escape and
// invalid UTF-8 bytes as U+FFFD escapes (\ufffd), so the output is valid
// JSON that carries no control sequence.
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			if c == '"' || c == '\\' {
				dst = append(dst, '\\')
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			dst = append(dst, `\ufffd`...)
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case UnsafeRune(r):
			dst = appendURune(dst, r)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// Clip cuts s to at most n bytes at a rune boundary and marks the cut with
// "…" (messages quote frame values without letting one swamp them).
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Cut(s, n) + "…"
}

// Cut cuts s to at most n bytes at a rune boundary, unmarked.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

// SafePrefix is a sanitized one-line prefix of b of about n runes (never
// sanitizing megabytes for one line).
func SafePrefix(b []byte, n int) string {
	if len(b) > 4*n+4 {
		b = b[:4*n+4]
	}
	return SanitizeBytes(b)
}
