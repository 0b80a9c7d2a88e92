package decode

import (
	"fmt"
	"strings"
	"testing"
)

// testKeys is a key set as a dialect would declare one: two keys whose
// values are interned, and plain ones, some of the same length.
var testKeys = NewKeys(
	Key{Name: "kind", Values: []string{"text", "tool", "end"}},
	Key{Name: "rev", Values: []string{"1", "2"}},
	Key{Name: "at"},
	Key{Name: "id"},
	Key{Name: "body"},
	Key{Name: "data"},
	Key{Name: "call"},
	Key{Name: "final"},
	Key{Name: "count_in"},
	Key{Name: "count_out"},
)

// frameOf decodes data indexed with testKeys.
func frameOf(data string) *Frame {
	ev := &Event{Raw: []byte("data: " + data + "\n\n"), Data: []byte(data), HasData: true}
	f := &Frame{}
	DecodeAt(f, ev, testKeys, 0, 0, false)
	return f
}

// TestFrameIndexMatchesScan: what the index answers — Get, Value and Tag
// — equals the member-by-member scan of the same frame decoded without a
// key set, with repeated keys (the last wins), escaped keys and values,
// keys of the same length as the declared ones, and frames too wide to
// index; and a frame asked about another set's keys scans for them.
func TestFrameIndexMatchesScan(t *testing.T) {
	wide := make([]string, 0, 300)
	for i := range 300 {
		wide = append(wide, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	datas := []string{
		`{"kind":"text","rev":"2","at":"2026-01-01T00:00:00Z","id":"r","body":"hi"}`,
		`{"kind":"text","body":"a","body":"b","bodyx":1,"bodq":2}`,
		`{"kind":"t\u0065xt","rev":"\u0031","b\u006fdy":"x","body ":"no"}`,
		`{"kind":"tool","call":{"id":"c1","name":"n","id":"c2"}}`,
		`{"kind":"end","final":false,"final":true,"count_in":1,"count_out":2,"count_in":9}`,
		`{"kind":"weird","rev":"3"}`,
		`{"kind":7,"rev":4}`,
		`{"kind":"text",` + strings.Join(wide, ",") + `,"body":"late"}`,
		`{"\u006bind":"end","data":{"a":[1]}}`,
		`{}`,
	}
	other := NewKeys(Key{Name: "body"}, Key{Name: "k299"}, Key{Name: "kind", Values: []string{"end", "text"}})
	names := []string{"kind", "rev", "at", "id", "body", "data", "call", "final", "count_in", "count_out", "bodyx", "k299", "absent"}
	for _, data := range datas {
		f := frameOf(data)
		if !f.Decoded() {
			t.Fatalf("%.60s: not decoded: %s", data, f.ProblemDetail())
		}
		ref := DecodeFrame(&f.Event, 0) // no key set: every lookup scans
		if ref.keys != nil {
			t.Fatalf("%.60s: a frame decoded without a key set is indexed", data)
		}
		for _, k := range names {
			if got, want := string(f.Get(k)), string(ref.Get(k)); got != want {
				t.Errorf("%.60s: Get(%q) = %q, scan gives %q", data, k, got, want)
			}
		}
		for _, ks := range []*Keys{testKeys, other} {
			for i := range ks.Len() {
				if got, want := string(f.Value(ks, i)), string(ref.Get(ks.Name(i))); got != want {
					t.Errorf("%.60s: Value(%s) = %q, scan gives %q", data, ks.Name(i), got, want)
				}
				if got, want := f.Tag(ks, i), ref.Tag(ks, i); got != want {
					t.Errorf("%.60s: Tag(%s) = %d, scan gives %d", data, ks.Name(i), got, want)
				}
				// A tag names the value it interned.
				if tag := f.Tag(ks, i); tag != 0 && !f.Value(ks, i).StrEq(valueOf(ks, i, tag)) {
					t.Errorf("%.60s: Tag(%s) = %d, the value is %s", data, ks.Name(i), tag, f.Value(ks, i))
				}
			}
		}
		// A clone is indexed on its own bytes.
		cl := f.Clone()
		if got, want := string(cl.Value(testKeys, 4)), string(ref.Get("body")); got != want || cl.Tag(testKeys, 0) != f.Tag(testKeys, 0) {
			t.Errorf("%.60s: clone reads body %q (want %q), kind tag %d (want %d)", data, got, want, cl.Tag(testKeys, 0), f.Tag(testKeys, 0))
		}
	}
}

// valueOf is the value key i of ks interns as tag.
func valueOf(ks *Keys, i int, tag uint8) string {
	for _, w := range ks.vocab[i].words {
		if int(w.id) == int(tag)-1 {
			return w.s
		}
	}
	return ""
}

// TestFrameIndexReference: the reference scan itself reads what the
// frames say (so the comparison above cannot pass on two wrong answers).
func TestFrameIndexReference(t *testing.T) {
	tests := []struct {
		data, body string
		kind, rev  uint8
	}{
		{`{"kind":"text","body":"a","body":"b"}`, `"b"`, 1, 0},
		{`{"kind":"t\u006fol","rev":"\u0032","b\u006fdy":"x"}`, `"x"`, 2, 2},
		{`{"kind":"weird","rev":"1"}`, ``, 0, 1},
	}
	for _, tt := range tests {
		for _, f := range []*Frame{frameOf(tt.data), DecodeFrame(&Event{Data: []byte(tt.data), HasData: true}, 0)} {
			if b := f.Value(testKeys, 4); string(b) != tt.body || f.Tag(testKeys, 0) != tt.kind || f.Tag(testKeys, 1) != tt.rev {
				t.Errorf("%s (indexed %v): body %q kind %d rev %d, want %q %d %d", tt.data, f.keys != nil, b,
					f.Tag(testKeys, 0), f.Tag(testKeys, 1), tt.body, tt.kind, tt.rev)
			}
		}
	}
}

// TestNewKeysRefuses: a set the index cannot hold panics when declared.
func TestNewKeysRefuses(t *testing.T) {
	many := make([]Key, MaxKeys+1)
	for i := range many {
		many[i] = Key{Name: fmt.Sprint("k", i)}
	}
	vocab := make([]string, maxValues+1)
	for i := range vocab {
		vocab[i] = fmt.Sprint("v", i)
	}
	for name, keys := range map[string][]Key{
		"too many keys":   many,
		"twice":           {{Name: "a"}, {Name: "b"}, {Name: "a"}},
		"empty":           {{Name: ""}},
		"too long":        {{Name: strings.Repeat("k", maxKeyLen+1)}},
		"too many values": {{Name: "a", Values: vocab}},
		"value twice":     {{Name: "a", Values: []string{"x", "y", "x"}}},
		"escaped value":   {{Name: "a", Values: []string{`say "hi"`}}},
		"empty value":     {{Name: "a", Values: []string{""}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: NewKeys did not panic", name)
				}
			}()
			NewKeys(keys...)
		}()
	}
	if ks := NewKeys(many[:MaxKeys]...); ks.Len() != MaxKeys {
		t.Errorf("a full set has %d keys", ks.Len())
	}
	full := NewKeys(Key{Name: "a", Values: vocab[:maxValues]})
	last := `{"a":"` + vocab[maxValues-1] + `"}`
	if f := DecodeFrame(&Event{Data: []byte(last), HasData: true}, 0); f.Tag(full, 0) != maxValues {
		t.Errorf("the last of %d values interns as %d", maxValues, f.Tag(full, 0))
	}
}

// TestStrBytes: the decoded bytes of a string value, aliasing the literal
// only when it has no escapes.
func TestStrBytes(t *testing.T) {
	tests := []struct {
		raw, want string
		ok        bool
	}{
		{`"abc"`, "abc", true},
		{`""`, "", true},
		{`"a\nb\u00e9"`, "a\nbé", true},
		{`7`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := Raw(tt.raw).StrBytes()
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("StrBytes(%s) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

// TestTypeStringCache: event types that share a slot of the framer's
// direct-mapped cache still come back as themselves.
func TestTypeStringCache(t *testing.T) {
	types := []string{"text", "txet", "tool_call", "tool_completed", "a", "b", "ab", "ba", "status", "sutats"}
	var in strings.Builder
	for range 3 {
		for _, ty := range types {
			fmt.Fprintf(&in, "event: %s\ndata: x\n\n", ty)
		}
	}
	var got []string
	NewFramer().Feed([]byte(in.String()), func(ev *Event) { got = append(got, ev.Type) })
	if len(got) != 3*len(types) {
		t.Fatalf("%d events, want %d", len(got), 3*len(types))
	}
	for i, g := range got {
		if g != types[i%len(types)] {
			t.Errorf("event %d: type %q, want %q", i, g, types[i%len(types)])
		}
	}
}
