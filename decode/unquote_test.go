package decode

import (
	"encoding/json"
	"testing"
)

// TestAppendEscape: each escape decodes as encoding/json decodes it, a
// surrogate without its pair is U+FFFD and said to be lone, and what is
// no escape takes nothing.
func TestAppendEscape(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		lone bool
	}{
		{`\"`, 2, false}, {`\\`, 2, false}, {`\/`, 2, false}, {`\b`, 2, false}, {`\f`, 2, false},
		{`\n`, 2, false}, {`\r`, 2, false}, {`\tx`, 2, false}, {`\u00e9`, 6, false}, {`\u00E9\u00e9`, 6, false},
		{`\ud83d\ude00`, 12, false}, {`\ud83d`, 6, true}, {`\ud83d\u0041`, 6, true}, {`\ude00\ud83d`, 6, true},
		{`\ud83d\n`, 6, true}, {`\ud83d\uzzzz`, 6, true},
		{`\`, 0, false}, {`\x`, 0, false}, {`\u12`, 0, false}, {`\u12g4`, 0, false}, {`x`, 0, false}, {``, 0, false},
	} {
		out, n, lone := AppendEscape([]byte("pre"), []byte(tc.in))
		if n != tc.n || lone != tc.lone {
			t.Errorf("%s: n %d lone %v, want %d %v", tc.in, n, lone, tc.n, tc.lone)
			continue
		}
		if n == 0 {
			if string(out) != "pre" {
				t.Errorf("%s: wrote %q", tc.in, out)
			}
			continue
		}
		var want string
		if err := json.Unmarshal([]byte(`"`+tc.in[:n]+`"`), &want); err != nil {
			t.Fatal(err)
		}
		if string(out) != "pre"+want {
			t.Errorf("%s: %q, want %q", tc.in, out[3:], want)
		}
	}
}
