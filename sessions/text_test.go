package sessions

import "testing"

func TestCleanQuotes(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path.sse": "plain/path.sse",
		"a\x1bb":         `"a\x1bb"`,
		"bad\xffutf8":    `"bad\xffutf8"`,
		"bidi\u202e":     `"bidi\u202e"`,
		"ünïcode ok":     "ünïcode ok",
	} {
		if got := Clean(in); got != want {
			t.Errorf("clean(%q) = %s, want %s", in, got, want)
		}
	}
}
