package decode

import (
	"bytes"
	"fmt"
	"testing"
)

// readerSeeds are valid JSON values with what trips a naive skipper:
// escaped quotes and backslashes before a closing quote, brackets inside
// strings, nesting, whitespace everywhere, long strings (the 8-byte path);
// and the values the mappers read with the walkers (a Gemini chunk, an MCP
// progress notification), escaped and repeated keys.
var readerSeeds = []string{
	`{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `[1,2]`, `"x"`, `null`, `-0.5e-3`,
	`{"a":{"b":[1,2,{"c":"\u00e9"}]},"d":"}]"}`,
	`{"a\"b":"c\\","d":"\\\"]}","e":[[],{},[{}]]}`,
	` { "k" : [ 1 , "x" , { "y" : null } ] , "z" : true } `,
	langgraphTuple,
	`{"k\u0041y":"v","":"","x":"abcdefghijklmnopqrstuvwxyz\\"}`,
	geminiChunk,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5,"message":"x"}}`,
	`{"k\u0065y":"v","s\"":1,"a":{"a":{"a":{"a":[[[["deep"]]]]}}},"\ud83d\ude00":"\ud800"}`,
	`{"dup":1,"dup":2}`, `[{"s":1},2,3,{"t":[4]}]`,
}

// langgraphTuple is a langgraph [chunk, metadata] tuple.
const langgraphTuple = `[{"content":"the quick brown fox jumps over the lazy dog \"quoted\" \\ end","type":"AIMessageChunk","id":"run--a1"},{"langgraph_node":"agent"}]`

// geminiChunk is a chunk whose text lies five levels down
// (candidates[].content.parts[].text).
const geminiChunk = `{"candidates":[{"content":{"parts":[{"text":"Hi \"there\"","thought":true},{"functionCall":{"name":"f","args":{"a":[1,2,{}]}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":3},"modelVersion":"m"}`

// TestReadersMatchValidating: on valid JSON the readers see the members
// and elements the validating scanner sees, and ValueEnd ends every value
// where skipValue does.
func TestReadersMatchValidating(t *testing.T) {
	for _, s := range readerSeeds {
		checkReaders(t, []byte(s))
	}
}

func checkReaders(t *testing.T, data []byte) {
	t.Helper()
	i := skipWS(data, 0)
	want, err := skipValue(data, i)
	if err != nil {
		t.Fatalf("seed %q is not valid: %v", data, err)
	}
	if got := ValueEnd(data, i); got != want {
		t.Errorf("ValueEnd(%q) = %d, want %d", data, got, want)
	}
	r := Raw(data[i:want])
	if got, want := trustedMembers(r), validatedMembers(r); got != want {
		t.Errorf("Members(%q) = %s, want %s", r, got, want)
	}
	if got, want := trustedElements(r), validatedElements(r); got != want {
		t.Errorf("Elements(%q) = %s, want %s", r, got, want)
	}
	if got, want := decodedKeys(r), validatedKeys(r); got != want {
		t.Errorf("DecodedKey over %q = %s, want %s", r, got, want)
	}
	if r.Kind() == KindObject {
		// GetAll and Get: what the validating scanner finds, for keys
		// present and not.
		keys := []string{"a", "b", "kAy", "", "zz"}
		for _, m := range validMembers(r) {
			if keys = append(keys, validKey(m)); len(keys) >= 12 {
				break
			}
		}
		got := make([]Raw, len(keys))
		r.GetAll(got, keys...)
		for i, key := range keys {
			want := validGet(r, key)
			if !bytes.Equal(got[i], want) || (got[i] == nil) != (want == nil) {
				t.Errorf("GetAll(%q)[%q] = %s, validating %s", r, key, got[i], want)
			}
			if g := r.Get(key); !bytes.Equal(g, want) || (g == nil) != (want == nil) {
				t.Errorf("Get(%q, %q) = %s, validating %s", r, key, g, want)
			}
		}
		// End: where the object ends, also when more bytes follow it.
		for _, tail := range []string{"", " , 1 ]", "}"} {
			it := Raw(append(append([]byte(nil), r...), tail...)).Members()
			for _, _, _, ok := it.Next(); ok; _, _, _, ok = it.Next() {
			}
			if it.End() != len(r) {
				t.Errorf("End of %q+%q = %d, want %d", r, tail, it.End(), len(r))
			}
		}
	}
	// Read in one pass, every nested container left open and read in
	// place, the value reads as the validating walk reads it.
	if got, _ := openWalk(r); got != deepWalk(r) {
		t.Errorf("open walk of %q = %s, want %s", r, got, deepWalk(r))
	}
	// Read in one pass, the members on a path entered in place and the
	// rest skipped, the value ends where it ends.
	for _, path := range [][]string{chunkTextPath, {"a", "a", "a"}, {"k"}, nil} {
		if _, end := inPlace(r, path); end != len(r) {
			t.Errorf("inPlace(%q, %q) ended at %d, want %d", r, path, end, len(r))
		}
	}
	// Every nested value too.
	for _, m := range validMembers(r) {
		checkReaders(t, m.Value)
	}
	for _, v := range validElements(r) {
		checkReaders(t, v)
	}
}

func trustedMembers(r Raw) string {
	var b bytes.Buffer
	it := r.Members()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		fmt.Fprintf(&b, "%s/%v=%s;", k, esc, v)
	}
	return b.String()
}

// decodedKeys renders r's keys as DecodedKey gives them.
func decodedKeys(r Raw) string {
	var b bytes.Buffer
	it := r.Members()
	for k, esc, _, ok := it.Next(); ok; k, esc, _, ok = it.Next() {
		fmt.Fprintf(&b, "%q;", DecodedKey(k, esc))
	}
	return b.String()
}

func validatedKeys(r Raw) string {
	var b bytes.Buffer
	for _, m := range validMembers(r) {
		fmt.Fprintf(&b, "%q;", validKey(m))
	}
	return b.String()
}

func validatedMembers(r Raw) string {
	var b bytes.Buffer
	for _, m := range validMembers(r) {
		fmt.Fprintf(&b, "%s/%v=%s;", m.Key, m.KeyEsc, m.Value)
	}
	return b.String()
}

func trustedElements(r Raw) string {
	var b bytes.Buffer
	it := r.Elements()
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		fmt.Fprintf(&b, "%s;", v)
	}
	return b.String()
}

func validatedElements(r Raw) string {
	var b bytes.Buffer
	for _, v := range validElements(r) {
		fmt.Fprintf(&b, "%s;", v)
	}
	return b.String()
}

// TestKeyIs: a key with an escape compares decoded.
func TestKeyIs(t *testing.T) {
	it := Raw(`{"k\u0041y":1,"id":2}`).Members()
	k, esc, _, _ := it.Next()
	if !esc || !KeyIs(k, esc, "kAy") || KeyIs(k, esc, "k\\u0041y") {
		t.Errorf("escaped key %q (esc %v) does not read as kAy", k, esc)
	}
	k, esc, _, _ = it.Next()
	if esc || !KeyIs(k, esc, "id") {
		t.Errorf("key %q (esc %v) does not read as id", k, esc)
	}
}

// TestReadersNoAlloc: the readers allocate nothing, nor does DecodedKey
// on a key without an escape (it is the key itself).
func TestReadersNoAlloc(t *testing.T) {
	r := Raw(langgraphTuple)
	n := testing.AllocsPerRun(100, func() {
		it := r.Elements()
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			mi := v.Members()
			for _, _, _, ok := mi.Next(); ok; _, _, _, ok = mi.Next() {
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
	// A Gemini chunk read in place down to its text, as the gemini
	// mapper reads it.
	chunk := Raw(geminiChunk)
	var text Raw
	var end int
	n = testing.AllocsPerRun(100, func() { text, end = inPlace(chunk, chunkTextPath) })
	if n != 0 || string(text) != `"Hi \"there\""` || end != len(geminiChunk) {
		t.Errorf("%v allocations reading a chunk, text %s, end %d", n, text, end)
	}
}

var chunkTextPath = []string{"candidates", "content", "parts", "text"}

// inPlace reads the value that starts v (as NextOpen hands it) in one
// pass, entering the members the path names (and every element of an
// array on it) in place and skipping the rest, as the gemini mapper reads
// a chunk; it returns the first scalar at the path's end and v's length.
func inPlace(v Raw, path []string) (found Raw, n int) {
	switch v.Kind() {
	case KindObject:
		it := v.Members()
		for k, esc, mv, open, ok := it.NextOpen(); ok; k, esc, mv, open, ok = it.NextOpen() {
			var f Raw
			switch {
			case len(path) == 0 || string(DecodedKey(k, esc)) != path[0]:
				if open {
					it.Resume(ValueEnd(mv, 0))
				}
			case open:
				var end int
				f, end = inPlace(mv, path[1:])
				it.Resume(end)
			case len(path) == 1:
				f = mv
			}
			if found == nil {
				found = f
			}
		}
		return found, it.End()
	case KindArray:
		it := v.Elements()
		for ev, open, ok := it.NextOpen(); ok; ev, open, ok = it.NextOpen() {
			if open {
				f, end := inPlace(ev, path)
				it.Resume(end)
				if found == nil {
					found = f
				}
			}
		}
		return found, it.End()
	}
	return nil, ValueEnd(v, 0)
}

// FuzzReaders: on any bytes the readers end, stay in bounds and never
// panic; on valid JSON they agree with the validating scanner.
func FuzzReaders(f *testing.F) {
	for _, s := range readerSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{`{"a`, `{"a":`, `["\`, `{"a":1,}`, `[1,`, `{"\\`, `{,}`, `[,]`, `}`, `{"a"}`,
		`{"a":}`, `{"a" 1}`, `{"a":"x`, `{`, `{1:2}`, `[tru]`, `{"a":[1}`, `{"\u12":1}`, `{"\`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:min(len(data), fuzzMaxInput)]
		for i := range data {
			if end := ValueEnd(data, i); end < i || end > len(data) {
				t.Fatalf("ValueEnd(%q, %d) = %d", data, i, end)
			}
		}
		r := Raw(data)
		trustedMembers(r)
		trustedElements(r)
		decodedKeys(r)
		openWalkBounded(r, 0)
		if _, end := inPlace(r, chunkTextPath); end < 0 || end > len(r) {
			t.Fatalf("inPlace(%q) ended at %d", r, end)
		}
		if i := skipWS(data, 0); i < len(data) {
			if end, err := skipValue(data, i); err == nil && skipWS(data, end) == len(data) { // valid JSON
				checkReaders(t, data)
			}
		}
	})
}

// TestGet: the last of a repeated key wins, an escaped key matches
// decoded, a non-object has no members (as the validating scanner reads
// them).
func TestGet(t *testing.T) {
	r := Raw(`{"a":1,"b":{"a":3},"a":2,"k\u0041y":"v"}`)
	for _, key := range []string{"a", "b", "kAy", "k\\u0041y", "c", ""} {
		if got, want := r.Get(key), validGet(r, key); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("Get(%q) = %s, want %s", key, got, want)
		}
	}
	if Raw(`[1]`).Get("a") != nil || Raw(nil).Get("a") != nil {
		t.Error("a non-object has a member")
	}
}

// openWalk renders r reading every container in place (NextOpen, Resume)
// and returns where r's value ended.
func openWalk(r Raw) (string, int) {
	var b bytes.Buffer
	switch r.Kind() {
	case KindObject:
		it := r.Members()
		for k, esc, v, open, ok := it.NextOpen(); ok; k, esc, v, open, ok = it.NextOpen() {
			fmt.Fprintf(&b, "%s/%v=", k, esc)
			if open {
				s, end := openWalk(v)
				b.WriteString(s)
				it.Resume(end)
			} else {
				b.Write(v)
			}
			b.WriteString(";")
		}
		return "{" + b.String() + "}", it.End()
	case KindArray:
		it := r.Elements()
		for v, open, ok := it.NextOpen(); ok; v, open, ok = it.NextOpen() {
			if open {
				s, end := openWalk(v)
				b.WriteString(s)
				it.Resume(end)
			} else {
				b.Write(v)
			}
			b.WriteString(";")
		}
		return "[" + b.String() + "]", it.End()
	}
	return string(r), len(r)
}

// deepWalk is openWalk's rendering made with the validating scanner.
func deepWalk(r Raw) string {
	var b bytes.Buffer
	switch r.Kind() {
	case KindObject:
		for _, m := range validMembers(r) {
			fmt.Fprintf(&b, "%s/%v=%s;", m.Key, m.KeyEsc, deepWalk(m.Value))
		}
		return "{" + b.String() + "}"
	case KindArray:
		for _, v := range validElements(r) {
			fmt.Fprintf(&b, "%s;", deepWalk(v))
		}
		return "[" + b.String() + "]"
	}
	return string(r)
}

// openWalkBounded is openWalk on any bytes, to a bounded depth (the fuzzer
// nests brackets deeper than a test's stack wants to follow).
func openWalkBounded(r Raw, depth int) int {
	if depth > 64 {
		return 0
	}
	switch r.Kind() {
	case KindObject:
		it := r.Members()
		for _, _, v, open, ok := it.NextOpen(); ok; _, _, v, open, ok = it.NextOpen() {
			if open {
				it.Resume(openWalkBounded(v, depth+1))
			}
		}
		return it.End()
	case KindArray:
		it := r.Elements()
		for v, open, ok := it.NextOpen(); ok; v, open, ok = it.NextOpen() {
			if open {
				it.Resume(openWalkBounded(v, depth+1))
			}
		}
		return it.End()
	}
	return len(r)
}

// KeyIs never panics on a key from bytes that are not JSON: an escape
// cut short is compared as it is.
func TestKeyIsOnBrokenEscapes(t *testing.T) {
	for _, k := range []string{`\u12`, `\u`, `\`, `a\`, `\uZZZZ`, `\ud800`, `x\u00`} {
		if KeyIs([]byte(k), true, "text") {
			t.Errorf("%q matched text", k)
		}
	}
	if !KeyIs([]byte(`t\u0065xt`), true, "text") {
		t.Error(`t\u0065xt must match text`)
	}
}
