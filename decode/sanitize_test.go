package decode

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"é😀 ünïcode", "é😀 ünïcode"},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"osc52 \x1b]52;c;aGk=\x07", `osc52 \x1b]52;c;aGk=\x07`},
		{"line1\nline2\r\tx", `line1\nline2\r\tx`},
		{"csi \u009b31m c1", `csi \u009b31m c1`},
		{"del\x7f", `del\x7f`},
		{"nul\x00", `nul\x00`},
		{"rlo \u202egnp.exe", `rlo \u202egnp.exe`},
		{"isolate \u2066x\u2069", `isolate \u2066x\u2069`},
		{"zw\u200bsp\u200d\ufeff", `zw\u200bsp\u200d\ufeff`},
		{"lrm\u200e rlm\u200f alm\u061c", `lrm\u200e rlm\u200f alm\u061c`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad \xff\xfe utf8 \xc3", `bad \xff\xfe utf8 \xc3`},
		{`already \x1b escaped`, `already \x1b escaped`},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := SanitizeBytes([]byte(tt.in)); got != tt.want {
			t.Errorf("SanitizeBytes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := SanitizeMultiline("a\nb\x1bc\r\n"); got != "a\nb\\x1bc\\r\n" {
		t.Errorf("SanitizeMultiline = %q", got)
	}
}

func TestAppendJSONString(t *testing.T) {
	in := "q\"\\ \x1b[31m \u009b \u202e \xff end\n"
	out := AppendJSONString(nil, in)
	if !json.Valid(out) {
		t.Fatalf("not valid JSON: %s", out)
	}
	assertTerminalSafe(t, string(out))
	var back string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if want := strings.ToValidUTF8(in, "\ufffd"); back != want {
		t.Fatalf("round trip %q, want %q", back, want)
	}
}

// assertTerminalSafe fails when s holds anything a terminal could act on.
func assertTerminalSafe(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("output is not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if UnsafeRune(r) {
			t.Fatalf("output contains unsafe rune %U: %q", r, s)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b]0;title\x07", "\u009b2J", "\u202e\u2066", "\xff\xfe", "a\nb", `\x1b`, "\u200b\ufeff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Half the bound: an interesting input here is one with many kinds
		// of character, long by nature, and minimizing it is quadratic
		// (see fuzzMaxInput).
		s = s[:min(len(s), fuzzMaxInput/2)]
		out := Sanitize(s)
		if strings.ContainsRune(out, '\n') {
			t.Fatalf("Sanitize kept a newline: %q", out)
		}
		assertTerminalSafe(t, out)
		if again := Sanitize(out); again != out {
			t.Fatalf("not idempotent: %q → %q → %q", s, out, again)
		}
		multi := SanitizeMultiline(s)
		assertTerminalSafe(t, multi)
		if again := SanitizeMultiline(multi); again != multi {
			t.Fatalf("multiline not idempotent: %q → %q", multi, again)
		}
		js := AppendJSONString(nil, s)
		if !json.Valid(js) {
			t.Fatalf("AppendJSONString not valid JSON: %q", js)
		}
		assertTerminalSafe(t, string(js))
	})
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"}, {"exactly", 7, "exactly"}, {"abcdef", 3, "abc…"},
		{"café!", 4, "caf…"}, // the é (2 bytes) straddles the cut: cut before it
		{"ééé", 1, "…"},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
