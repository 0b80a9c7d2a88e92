package sessions

import (
	"strconv"
	"unicode/utf8"

	"framescope/decode"
)

var UTF8BOM = []byte{0xEF, 0xBB, 0xBF}

// Clean makes a string from a file safe to put in a message: it is quoted
// when it holds anything but printable characters.
func Clean(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// CleanShort is Clean on at most n runes of s (with an ellipsis).
func CleanShort(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		r := []rune(s)
		s = string(r[:n]) + "…"
	}
	return Clean(s)
}

// Excerpt returns a sanitized one-line excerpt of at most n runes.
func Excerpt(data []byte, n int) string {
	if max := 4*n + 4; len(data) > max {
		data = data[:max] // enough for n runes; never sanitize megabytes for a line
	}
	s := decode.SanitizeBytes(data)
	// Cut before the n-th rune when there are more than n (a sanitized
	// string is valid UTF-8), without a []rune copy of it.
	k, cut := 0, 0
	for i := range s {
		if k == n-1 {
			cut = i
		} else if k == n {
			return s[:cut] + "…"
		}
		k++
	}
	return s
}
