package sessions

import (
	"strings"
	"testing"

	"framescope/decode"
)

// TestExcerptCutsAtRunes: Excerpt keeps at most n runes of the sanitized
// bytes, cutting before the n-th with "…" when there are more — as a
// []rune of the sanitized string would — on ASCII, multi-byte runes,
// escaped controls and invalid UTF-8.
func TestExcerptCutsAtRunes(t *testing.T) {
	reference := func(data []byte, n int) string {
		if max := 4*n + 4; len(data) > max {
			data = data[:max]
		}
		s := decode.SanitizeBytes(data)
		if r := []rune(s); len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return s
	}
	inputs := []string{"", "a", "abc", "abcd", "abcde", "héllo wörld", "✓★€ and more", "\x1b[31mred\x1b[0m",
		"\xff\xfe bad", "tab\there", "\u202eevil", strings.Repeat("é", 50), strings.Repeat("x", 500)}
	for _, in := range inputs {
		for _, n := range []int{1, 2, 3, 4, 5, 10, 100} {
			if got, want := Excerpt([]byte(in), n), reference([]byte(in), n); got != want {
				t.Errorf("Excerpt(%q, %d) = %q, want %q", in, n, got, want)
			}
		}
	}
}
