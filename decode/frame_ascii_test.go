package decode

import (
	"testing"
	"unicode/utf8"
)

func checkASCIIOrValid(t *testing.T, p []byte) {
	ascii := true
	for _, c := range p {
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	gotASCII, gotInvalid := asciiOrValid(p)
	if gotASCII != ascii || gotInvalid != !utf8.Valid(p) {
		t.Fatalf("asciiOrValid(%q) = %v, %v; want %v, %v", p, gotASCII, gotInvalid, ascii, !utf8.Valid(p))
	}
}

func TestASCIIOrValid(t *testing.T) {
	for _, s := range []string{"", "a", "plain ascii, longer than eight", "héllo", "12345678é", "1234567\xe9x",
		"\xff", "abcdefgh\xc3", "abcdefgh\xc3\xa9", "日本語", "\xed\xa0\x80 surrogate"} {
		checkASCIIOrValid(t, []byte(s))
	}
}

func FuzzASCIIOrValid(f *testing.F) {
	for _, s := range []string{"abc", "12345678é", "\xff\xfe", "abcdefgh\xf0\x9f\x99\x82"} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkASCIIOrValid)
}
