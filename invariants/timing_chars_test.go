package invariants

import (
	"testing"

	"framescope/decode"
)

// contentCharsByByte is ContentChars one byte at a time: the oracle.
func contentCharsByByte(r decode.Raw) int {
	if len(r) < 2 || r[0] != '"' {
		return 0
	}
	n := 0
	for _, c := range r[1 : len(r)-1] {
		if c&0xC0 != 0x80 && c != '\\' {
			n++
		}
	}
	return n
}

func TestContentChars(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want int
	}{
		{`""`, 0},
		{`"hello"`, 5},
		{`"héllo wörld, ça va"`, 18},
		{`"line\nnext \"quoted\" \\ done"`, 24},
		{`"日本語のテキストです"`, 10},
		{`"🙂🙂 ok"`, 5},
		{`"\u00e9tait"`, 9}, // an escape counts its hex digits: a bound, not exact
		{`null`, 0},
	} {
		if got := ContentChars(decode.Raw(tc.raw)); got != tc.want {
			t.Errorf("ContentChars(%s) = %d, want %d", tc.raw, got, tc.want)
		}
	}
}

func FuzzContentChars(f *testing.F) {
	for _, s := range []string{`"hello"`, `"héllo\\n日本🙂"`, "\"\x80\xbf\\\\\xc0\xff\x5c\"", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := contentCharsByByte(decode.Raw(s))
		if got := ContentChars(decode.Raw(s)); got != want {
			t.Fatalf("ContentChars(%q) = %d, byte by byte %d", s, got, want)
		}
		if !isASCII(s) || len(s) < 2 || s[0] != '"' {
			return
		}
		// An ASCII frame's deltas are counted without the byte pass.
		moves := []Move{{Kind: MoveText, Text: decode.Raw(s)}, {Kind: MoveProgress, Text: decode.Raw(s)}}
		if _, got := contentOf(moves, true); got != want {
			t.Fatalf("contentOf(%q, ascii) = %d, byte by byte %d", s, got, want)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// An empty delta is no content: the empty string that opens a message
// (a role chunk's "content": "") must not pass for the first token.
func TestContentOfEmptyDeltas(t *testing.T) {
	for _, tc := range []struct {
		mv   Move
		want bool
	}{
		{Move{Kind: MoveText, Text: decode.Raw(`"hi"`)}, true},
		{Move{Kind: MoveText, Text: decode.Raw(`""`)}, false},
		{Move{Kind: MoveText}, false},
		{Move{Kind: MoveReasoning, Text: decode.Raw(`null`)}, false},
		{Move{Kind: MoveToolArgs, Text: decode.Raw(`""`)}, false},
		{Move{Kind: MoveToolArgs, Text: decode.Raw(`"{\"a\":1}"`)}, true},
		{Move{Kind: MoveToolOpen}, true},
		{Move{Kind: MoveProgress, Text: decode.Raw(`"Searching..."`)}, false},
	} {
		if got, _ := ContentOf([]Move{tc.mv}); got != tc.want {
			t.Errorf("ContentOf(%v %s) = %v, want %v", tc.mv.Kind, tc.mv.Text, got, tc.want)
		}
	}
}
