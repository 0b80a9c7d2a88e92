package decode

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeFrame(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		problem Problem
		done    bool
		utf8bad bool
	}{
		{"done", `[DONE]`, ProblemNone, true, false},
		{"done with space is not the sentinel", `[DONE] `, ProblemNotJSON, false, false},
		{"not json", `{oops`, ProblemNotJSON, false, false},
		{"array", `[1]`, ProblemNotObject, false, false},
		{"string", `"x"`, ProblemNotObject, false, false},
		{"empty", ``, ProblemNotJSON, false, false},
		{"invalid utf8 in object", "{\"kind\":\"text\",\"body\":\"\xff\"}", ProblemNone, false, true},
	}
	for _, tt := range tests {
		f := frameOf(tt.data)
		if f.Problem != tt.problem || f.Done != tt.done || f.InvalidUTF8 != tt.utf8bad {
			t.Errorf("%s: problem=%v done=%v utf8bad=%v", tt.name, f.Problem, f.Done, f.InvalidUTF8)
		}
		if tt.problem != ProblemNone && f.ProblemDetail() == "" {
			t.Errorf("%s: no problem detail", tt.name)
		}
	}
}

// TestFrameClone: a clone reads its members and its index from its own
// bytes.
func TestFrameClone(t *testing.T) {
	buf := []byte(`{"kind":"text","rev":"1","at":"t","id":"r","body":"hello"}`)
	ev := &Event{Raw: buf, Data: buf, HasData: true}
	dec := Decoder{Keys: testKeys}
	f := dec.Decode(ev, 0, false)
	c := f.Clone()
	for i := range buf {
		buf[i] = 'x'
	}
	if c.Tag(testKeys, 0) != 1 || string(c.Value(testKeys, 4)) != `"hello"` || string(c.Get("id")) != `"r"` {
		t.Fatalf("clone aliases the buffer: %d %q", c.Tag(testKeys, 0), c.Value(testKeys, 4))
	}
}

// checkClone: a clone reads exactly as the frame decoded afresh from its
// bytes (members, index, lookups), and shares none of the frame's.
func checkClone(t *testing.T, fr *Frame) {
	t.Helper()
	c := fr.Clone()
	fresh := &Frame{}
	DecodeAt(fresh, &c.Event, fr.keys, fr.Index, 0, false)
	same := len(c.Members) == len(fresh.Members) && c.Problem == fresh.Problem && c.keys == fresh.keys
	for i := 0; same && i < testKeys.Len(); i++ {
		same = bytes.Equal(c.Value(testKeys, i), fresh.Value(testKeys, i)) && c.Tag(testKeys, i) == fresh.Tag(testKeys, i) &&
			bytes.Equal(c.Get(testKeys.Name(i)), fresh.Get(testKeys.Name(i)))
	}
	for i := 0; same && i < len(c.Members); i++ {
		same = bytes.Equal(c.Members[i].Key, fresh.Members[i].Key) && bytes.Equal(c.Members[i].Value, fresh.Members[i].Value) &&
			c.Members[i].KeyEsc == fresh.Members[i].KeyEsc
	}
	if !same {
		t.Fatalf("clone of %q reads differently from a fresh decode", fr.Data)
	}
	// Scribble over the frame's bytes: the clone must not change.
	keep := append([]byte(nil), fr.Data...)
	keepRaw := append([]byte(nil), fr.Raw...)
	for i := range fr.Data {
		fr.Data[i] = 'x'
	}
	for i := range fr.Raw {
		fr.Raw[i] = 'x'
	}
	for i := range c.Members {
		if !bytes.Equal(c.Members[i].Key, fresh.Members[i].Key) || !bytes.Equal(c.Members[i].Value, fresh.Members[i].Value) {
			t.Fatalf("clone of %q aliases the frame's bytes", keep)
		}
	}
	copy(fr.Raw, keepRaw)
	copy(fr.Data, keep)
}

func TestFrameCloneRepoints(t *testing.T) {
	for _, s := range []string{
		`{"kind":"text","rev":"1","at":"t","id":"r","data":{"body":"hi"}}`,
		`{"a":1,"a":2,"":"empty key","k\u0065y":"esc"}`, `{}`, `[DONE]`, `{"a":`, `{"type":"x"} `,
	} {
		checkClone(t, frameOf(s))
		checkClone(t, DecodeFrame(&Event{Raw: []byte(s), Data: []byte(s), HasData: true}, 0))
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{`[DONE]`, `{"kind":"text","body":"x"}`, `{"kind":"end","data":{"code":1},"final":null}`,
		`{"kind":"tool","data":{"id":1,"items":{}}}`, `{"call":[]}`, `{"a":`, "\xff{}", `{"k\u0069nd":"end","data":{"id":7}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:min(len(data), fuzzMaxInput)] // see fuzzMaxInput
		fr := frameOf(string(data))
		ref := DecodeFrame(&fr.Event, 0)
		for i := range testKeys.Len() {
			if !bytes.Equal(fr.Value(testKeys, i), ref.Value(testKeys, i)) || fr.Tag(testKeys, i) != ref.Tag(testKeys, i) {
				t.Fatalf("key %s: the index reads %q (tag %d), the scan %q (tag %d)", testKeys.Name(i),
					fr.Value(testKeys, i), fr.Tag(testKeys, i), ref.Value(testKeys, i), ref.Tag(testKeys, i))
			}
		}
		checkClone(t, fr)
		if fr.Problem == ProblemNone && !fr.Done && len(fr.Members) == 0 && len(trimWS(data)) > 2 {
			// a decoded non-empty object has members
			var n int
			Walk(data, func(tok Token) bool {
				if tok.Kind == TokKey && tok.Depth == 1 {
					n++
				}
				return true
			})
			if n > 0 {
				t.Fatalf("decoded object with %d keys has no members", n)
			}
		}
	})
}

// TestAppendPayloadExcerpt: appending the excerpt after other bytes gives
// those bytes and then PayloadExcerpt, for frames short and long, decoded
// or not, cut at a rune boundary; the lead goes first and the omitted
// members are left out.
func TestAppendPayloadExcerpt(t *testing.T) {
	x := &Excerpt{Lead: "kind", Omit: []string{"kind", "rev"}}
	if got, want := frameOf(`{"k\u0069nd":1,"kind":"text","rev":"1","body":"hi"}`).PayloadExcerpt(400, x), `text {"k\u0069nd":1,"body":"hi"}`; got != want {
		t.Errorf("excerpt %q, want %q", got, want)
	}
	for _, data := range []string{
		`{"kind":"text","body":"hi"}`,
		`{"kind":"text","rev":"1","body":"` + strings.Repeat("é", 300) + `"}`,
		`not json ` + strings.Repeat("✓", 200),
		`[DONE]`,
		`{}`,
	} {
		f := DecodeFrame(&Event{Raw: []byte("data: " + data + "\n\n"), Data: []byte(data), HasData: true}, 0)
		for _, max := range []int{5, 40, 400} {
			want := f.PayloadExcerpt(max, x)
			if got := string(f.AppendPayloadExcerpt([]byte("pre"), max, x)); got != "pre"+want {
				t.Errorf("%.20q max %d: %q, want %q", data, max, got, "pre"+want)
			}
			if !utf8.ValidString(want) || len(want) > max+len("…") {
				t.Errorf("%.20q max %d: excerpt %q is not cut at a rune within max", data, max, want)
			}
		}
	}
}
