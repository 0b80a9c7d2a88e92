package decode

import (
	"fmt"
	"strings"
	"testing"
)

// TestKeySlotMatches: Keys.slot and Keys.intern, which compare words
// rather than bytes, find exactly the declared keys and values: every
// length up to the limit, a string that differs from a declared one in
// any single byte, a short one with other bytes after it in its buffer or
// none, one longer than the two words it is first compared by, and an
// escaped spelling of a value.
func TestKeySlotMatches(t *testing.T) {
	var names []string
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 33, maxKeyLen} {
		names = append(names, strings.Repeat("k", n-1)+string(rune('a'+n%26)))
	}
	names = append(names, "dat", "data", "date", "tool_call", "tool_cale")
	for start := 0; start < len(names); start += MaxKeys {
		decl := names[start:min(start+MaxKeys, len(names))]
		keys := make([]Key, len(decl))
		want := map[string]int{}
		for i, n := range decl {
			keys[i] = Key{Name: n}
			want[n] = i
		}
		ks := NewKeys(keys...)
		vs := NewKeys(Key{Name: "v", Values: decl})
		var probes []string
		for _, n := range decl {
			probes = append(probes, n, n[:len(n)-1], n+"x")
			for i := range len(n) {
				b := []byte(n)
				b[i] ^= 0x20
				probes = append(probes, string(b))
				b[i] ^= 0x21
				probes = append(probes, string(b))
			}
		}
		for _, p := range probes {
			w, ok := want[p]
			if !ok {
				w = -1
			}
			for _, after := range []string{"", `":1}`, `":"a long value that follows"}`, "\x00\x00\x00\x00\x00\x00\x00\x00"} {
				buf := []byte(p + after)
				k := buf[: len(p) : len(p)+len(after)]
				if got := ks.slot(k); got != w {
					t.Errorf("slot(%q) with %q after it = %d, want %d", p, after, got, w)
				}
				lit := []byte(`"` + p + `"` + after)
				if got := vs.intern(0, Raw(lit[:len(p)+2:len(p)+2+len(after)])); int(got) != w+1 {
					t.Errorf("intern(%q) with %q after it = %d, want %d", p, after, got, w+1)
				}
			}
			if got := ks.slotString(p); got != w {
				t.Errorf("slotString(%q) = %d, want %d", p, got, w)
			}
			if w >= 0 { // the same value, a letter escaped
				esc := fmt.Sprintf(`"\u%04x%s"`, p[0], p[1:])
				if got := vs.intern(0, Raw(esc)); int(got) != w+1 {
					t.Errorf("intern(%s) = %d, want %d", esc, got, w+1)
				}
			}
		}
	}
}

// TestKeysThroughTheScan: a frame indexes a declared key whatever follows
// it in the data, at the end of the data as anywhere else.
func TestKeysThroughTheScan(t *testing.T) {
	ks := NewKeys(Key{Name: "a"}, Key{Name: "bb"}, Key{Name: "event_seq"})
	for _, data := range []string{`{"a":1}`, `{"x":0,"a":1}`, `{"bb":2,"a":1}`, `{"event_seq":3,"a":1}`, `{"a":1,"a ":9}`} {
		f := &Frame{}
		DecodeAt(f, &Event{Data: []byte(data), HasData: true}, ks, 0, 0, false)
		for i := range ks.Len() {
			if got, want := string(f.Value(ks, i)), string(DecodeFrame(&f.Event, 0).Get(ks.Name(i))); got != want {
				t.Errorf("%s: %s = %q, want %q", data, ks.Name(i), got, want)
			}
		}
		if f.keys != ks {
			t.Errorf("%s: not indexed", data)
		}
	}
}
