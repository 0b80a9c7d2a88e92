package decode

import (
	"bytes"
	"strings"
	"testing"
)

// TestNamesPick: the last of a repeated key wins, an escaped key is picked
// decoded, an alias fills its slot, absent members are nil and a
// non-object has none; End is where the object ended.
func TestNamesPick(t *testing.T) {
	ns := Names("type", "id", "content", "x").Alias("text", 2)
	obj := `{"id":1,"t\u0079pe":"a","y":[{"id":9}],"id":2,"text":"t","x":0,"\u0069d":3} , 5]`
	var dst [4]Raw
	end := ns.Pick(Raw(obj), dst[:])
	want := []string{`"a"`, `3`, `"t"`, `0`}
	for i, w := range want {
		if string(dst[i]) != w {
			t.Errorf("slot %d = %s, want %s", i, dst[i], w)
		}
	}
	if end != strings.LastIndex(obj, "}")+1 {
		t.Errorf("end %d", end)
	}
	members, _, err := ScanObject([]byte(obj[:end]), nil)
	if err != nil {
		t.Fatal(err)
	}
	var fromMembers [4]Raw
	ns.PickMembers(members, fromMembers[:])
	if !sameRaws(dst[:], fromMembers[:]) {
		t.Errorf("PickMembers %q, Pick %q", fromMembers, dst)
	}
	for _, v := range []string{`[1]`, `"x"`, ``, `{}`} {
		dst = [4]Raw{Raw("stale")}
		if end := ns.Pick(Raw(v), dst[:]); !sameRaws(dst[:], make([]Raw, 4)) || (v != `{}` && end != 0) {
			t.Errorf("Pick(%q) = %q, end %d", v, dst, end)
		}
	}
	if ns.Slot([]byte("id"), false) != 1 || ns.Slot([]byte(`\u0069d`), true) != 1 || ns.Slot([]byte("idx"), false) != -1 ||
		ns.Slot([]byte(`\u12`), true) != -1 {
		t.Error("Slot")
	}
}

// sameRaws reports whether a and b hold the same values, nil told from
// empty.
func sameRaws(a, b []Raw) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) || (a[i] == nil) != (b[i] == nil) {
			return false
		}
	}
	return true
}

// TestNamesPanics: a name listed twice, empty or too long, or an alias
// to no slot, is a mistake the program makes at init.
func TestNamesPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"twice":       func() { Names("a", "b", "a") },
		"alias twice": func() { Names("a", "b").Alias("b", 0) },
		"alias slot":  func() { Names("a").Alias("b", 1) },
		"empty":       func() { Names("a", "") },
		"too long":    func() { Names(strings.Repeat("k", maxWordLen+1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestNamesNoAlloc: picking allocates nothing while no key has an escape.
func TestNamesNoAlloc(t *testing.T) {
	ns := Names("type", "id", "content", "tool_call_chunks", "chunk_position", "response_metadata", "tool_call_id", "status")
	chunk := Raw(benchChunk)
	var dst [8]Raw
	if n := testing.AllocsPerRun(100, func() { ns.Pick(chunk, dst[:]) }); n != 0 {
		t.Errorf("Pick allocates %.0f times", n)
	}
	if dst[0] == nil || dst[1] == nil || dst[2] == nil {
		t.Errorf("Pick missed a member: %q", dst)
	}
}

// FuzzNamesPick: a key set picks what Get finds, name by name, on any valid
// object (escaped keys, repeated keys, names of any bytes), through Pick
// and through PickMembers; on any bytes Pick stays in bounds.
func FuzzNamesPick(f *testing.F) {
	for _, s := range readerSeeds {
		f.Add([]byte(s), "a\x00b\x00kAy\x00\x00dup\x00candidates\x00modelVersion")
	}
	f.Add([]byte(`{"\u0074ype":1,"type":2,"typ\u0065":3}`), "type\x00typ")
	f.Add([]byte(`{"a":1,"\ud83d\ude00":2,"\ud800":3}`), "a\x00😀\x00\uFFFD")
	f.Add([]byte(`{"x":1`), "x")
	f.Fuzz(func(t *testing.T, data []byte, list string) {
		data = data[:min(len(data), fuzzMaxInput)]
		var names []string
		seen := map[string]bool{}
		for _, n := range strings.Split(list, "\x00") {
			if !seen[n] && len(names) < 40 && n != "" && len(n) <= maxWordLen {
				seen[n] = true
				names = append(names, n)
			}
		}
		ns := Names(names...)
		dst := make([]Raw, len(names))
		if end := ns.Pick(Raw(data), dst); end < 0 || end > len(data) {
			t.Fatalf("Pick(%q) ended at %d", data, end)
		}
		members, isObj, err := ScanObject(data, nil)
		if err != nil {
			return
		}
		r := Raw(trimWS(data))
		end := ns.Pick(r, dst)
		if isObj && end != len(r) {
			t.Fatalf("Pick(%q) ended at %d, want %d", r, end, len(r))
		}
		fromMembers := make([]Raw, len(names))
		ns.PickMembers(members, fromMembers)
		for i, name := range names {
			want := r.Get(name)
			if !bytes.Equal(dst[i], want) || (dst[i] == nil) != (want == nil) {
				t.Fatalf("Pick(%q)[%q] = %s, Get %s", r, name, dst[i], want)
			}
			if !bytes.Equal(fromMembers[i], want) || (fromMembers[i] == nil) != (want == nil) {
				t.Fatalf("PickMembers(%q)[%q] = %s, Get %s", r, name, fromMembers[i], want)
			}
		}
	})
}

// benchChunk is a langgraph messages-tuple chunk, members in
// langchain-core's order.
const benchChunk = `{"content":"the quick brown fox","additional_kwargs":{},"response_metadata":{},"type":"AIMessageChunk","name":null,"id":"run--0b8c7c2a-6b6e-4a9e","example":false,"tool_calls":[],"invalid_tool_calls":[],"usage_metadata":null,"tool_call_chunks":[],"chunk_position":null}`

// BenchmarkNamesPick picks a chunk's members with a key set.
func BenchmarkNamesPick(b *testing.B) {
	ns := Names("type", "id", "content", "tool_call_chunks", "chunk_position", "response_metadata", "tool_call_id", "status")
	chunk := Raw(benchChunk)
	var dst [8]Raw
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		ns.Pick(chunk, dst[:])
	}
}
