package decode

import (
	"bytes"
	"fmt"
	"testing"
)

// trustedSeeds are valid JSON values with what trips a naive skipper:
// escaped quotes and backslashes before a closing quote, brackets inside
// strings, nesting, whitespace everywhere, long strings (the 8-byte path).
var trustedSeeds = []string{
	`{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `[1,2]`, `"x"`, `null`, `-0.5e-3`,
	`{"a":{"b":[1,2,{"c":"\u00e9"}]},"d":"}]"}`,
	`{"a\"b":"c\\","d":"\\\"]}","e":[[],{},[{}]]}`,
	` { "k" : [ 1 , "x" , { "y" : null } ] , "z" : true } `,
	`[{"content":"the quick brown fox jumps over the lazy dog \"quoted\" \\ end","type":"AIMessageChunk","id":"run--a1"},{"langgraph_node":"agent"}]`,
	`{"k\u0041y":"v","":"","x":"abcdefghijklmnopqrstuvwxyz\\"}`,
}

// TestTrustedMatchesValidating: on valid JSON the trusted walkers see the
// members and elements the validating scanner sees, and SkipTrusted ends
// every value where skipValue does.
func TestTrustedMatchesValidating(t *testing.T) {
	for _, s := range trustedSeeds {
		checkTrusted(t, []byte(s))
	}
}

func checkTrusted(t *testing.T, data []byte) {
	t.Helper()
	i := skipWS(data, 0)
	want, err := skipValue(data, i)
	if err != nil {
		t.Fatalf("seed %q is not valid: %v", data, err)
	}
	if got := SkipTrusted(data, i); got != want {
		t.Errorf("SkipTrusted(%q) = %d, want %d", data, got, want)
	}
	r := Raw(data[i:want])
	if got, want := trustedMembers(r), validatedMembers(r); got != want {
		t.Errorf("TrustedMembers(%q) = %s, want %s", r, got, want)
	}
	if got, want := trustedElements(r), validatedElements(r); got != want {
		t.Errorf("TrustedElements(%q) = %s, want %s", r, got, want)
	}
	if r.Kind() == KindObject {
		// TrustedGetAll: what GetAll finds, for keys present and not.
		keys := []string{"a", "b", "kAy", "", "zz"}
		r.Members(func(k string, _ Raw) bool {
			keys = append(keys, k)
			return len(keys) < 12
		})
		got, want := make([]Raw, len(keys)), make([]Raw, len(keys))
		r.TrustedGetAll(got, keys...)
		r.GetAll(want, keys...)
		for i := range keys {
			if !bytes.Equal(got[i], want[i]) || (got[i] == nil) != (want[i] == nil) {
				t.Errorf("TrustedGetAll(%q)[%q] = %s, GetAll %s", r, keys[i], got[i], want[i])
			}
		}
		// End: where the object ends, also when more bytes follow it.
		for _, tail := range []string{"", " , 1 ]", "}"} {
			it := Raw(append(append([]byte(nil), r...), tail...)).TrustedMembers()
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
	// Every nested value too.
	r.Members(func(_ string, v Raw) bool { checkTrusted(t, v); return true })
	r.Elements(func(v Raw) bool { checkTrusted(t, v); return true })
}

func trustedMembers(r Raw) string {
	var b bytes.Buffer
	it := r.TrustedMembers()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		fmt.Fprintf(&b, "%s/%v=%s;", k, esc, v)
	}
	return b.String()
}

func validatedMembers(r Raw) string {
	var b bytes.Buffer
	if r.Kind() == KindObject {
		_ = eachMember(r, func(k []byte, esc bool, v Raw) bool {
			fmt.Fprintf(&b, "%s/%v=%s;", k, esc, v)
			return true
		})
	}
	return b.String()
}

func trustedElements(r Raw) string {
	var b bytes.Buffer
	it := r.TrustedElements()
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		fmt.Fprintf(&b, "%s;", v)
	}
	return b.String()
}

func validatedElements(r Raw) string {
	var b bytes.Buffer
	r.Elements(func(v Raw) bool { fmt.Fprintf(&b, "%s;", v); return true })
	return b.String()
}

// TestTrustedKeyIs: a key with an escape compares decoded.
func TestTrustedKeyIs(t *testing.T) {
	it := Raw(`{"k\u0041y":1,"id":2}`).TrustedMembers()
	k, esc, _, _ := it.Next()
	if !esc || !KeyIs(k, esc, "kAy") || KeyIs(k, esc, "k\\u0041y") {
		t.Errorf("escaped key %q (esc %v) does not read as kAy", k, esc)
	}
	k, esc, _, _ = it.Next()
	if esc || !KeyIs(k, esc, "id") {
		t.Errorf("key %q (esc %v) does not read as id", k, esc)
	}
}

// TestTrustedNoAlloc: the walkers allocate nothing.
func TestTrustedNoAlloc(t *testing.T) {
	r := Raw(trustedSeeds[len(trustedSeeds)-2])
	n := testing.AllocsPerRun(100, func() {
		it := r.TrustedElements()
		for v, ok := it.Next(); ok; v, ok = it.Next() {
			mi := v.TrustedMembers()
			for _, _, _, ok := mi.Next(); ok; _, _, _, ok = mi.Next() {
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzTrusted: on any bytes the walkers end, stay in bounds and never
// panic; on valid JSON they agree with the validating scanner.
func FuzzTrusted(f *testing.F) {
	for _, s := range trustedSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{`{"a`, `{"a":`, `["\`, `{"a":1,}`, `[1,`, `{"\\`, `{,}`, `[,]`, `}`, `{"a"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:min(len(data), fuzzMaxInput)]
		for i := range data {
			if end := SkipTrusted(data, i); end < i || end > len(data) {
				t.Fatalf("SkipTrusted(%q, %d) = %d", data, i, end)
			}
		}
		r := Raw(data)
		trustedMembers(r)
		trustedElements(r)
		openWalkBounded(r, 0)
		if i := skipWS(data, 0); i < len(data) {
			if end, err := skipValue(data, i); err == nil && skipWS(data, end) == len(data) { // valid JSON
				checkTrusted(t, data)
			}
		}
	})
}

// TestTrustedGet: the last of a repeated key wins, an escaped key matches
// decoded, a non-object has no members (as Raw.Get).
func TestTrustedGet(t *testing.T) {
	r := Raw(`{"a":1,"b":{"a":3},"a":2,"k\u0041y":"v"}`)
	for _, key := range []string{"a", "b", "kAy", "k\\u0041y", "c", ""} {
		if got, want := r.TrustedGet(key), r.Get(key); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("TrustedGet(%q) = %s, want %s", key, got, want)
		}
	}
	if Raw(`[1]`).TrustedGet("a") != nil || Raw(nil).TrustedGet("a") != nil {
		t.Error("a non-object has a member")
	}
}

// openWalk renders r reading every container in place (NextOpen, Resume)
// and returns where r's value ended.
func openWalk(r Raw) (string, int) {
	var b bytes.Buffer
	switch r.Kind() {
	case KindObject:
		it := r.TrustedMembers()
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
		it := r.TrustedElements()
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
		_ = eachMember(r, func(k []byte, esc bool, v Raw) bool {
			fmt.Fprintf(&b, "%s/%v=%s;", k, esc, deepWalk(v))
			return true
		})
		return "{" + b.String() + "}"
	case KindArray:
		r.Elements(func(v Raw) bool { fmt.Fprintf(&b, "%s;", deepWalk(v)); return true })
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
		it := r.TrustedMembers()
		for _, _, v, open, ok := it.NextOpen(); ok; _, _, v, open, ok = it.NextOpen() {
			if open {
				it.Resume(openWalkBounded(v, depth+1))
			}
		}
		return it.End()
	case KindArray:
		it := r.TrustedElements()
		for v, open, ok := it.NextOpen(); ok; v, open, ok = it.NextOpen() {
			if open {
				it.Resume(openWalkBounded(v, depth+1))
			}
		}
		return it.End()
	}
	return len(r)
}
