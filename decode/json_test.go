package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanObject(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		isObj   bool
		wantErr bool
		keys    []string
	}{
		{"object", `{"a":1,"b":"x"}`, true, false, []string{"a", "b"}},
		{"spaces", " \t\r\n{ \"a\" : [1, 2, {\"c\": null}] , \"b\":true }\n", true, false, []string{"a", "b"}},
		{"empty object", `{}`, true, false, nil},
		{"escaped key", `{"event\u005ftype":"text"}`, true, false, []string{`event\u005ftype`}},
		{"array", `[1,2]`, false, false, nil},
		{"string", `"hello"`, false, false, nil},
		{"number", `-12.5e+3`, false, false, nil},
		{"literal", `null`, false, false, nil},
		{"empty", ``, false, true, nil},
		{"trailing comma", `{"a":1,}`, false, true, nil},
		{"missing colon", `{"a" 1}`, false, true, nil},
		{"unterminated", `{"a":"x`, false, true, nil},
		{"trailing garbage", `{"a":1} x`, false, true, nil},
		{"two values", `{} {}`, false, true, nil},
		{"control char in string", "{\"a\":\"x\x01\"}", false, true, nil},
		{"bad escape", `{"a":"\q"}`, false, true, nil},
		{"bad unicode escape", `{"a":"\u12g4"}`, false, true, nil},
		{"leading zero", `{"a":01}`, false, true, nil},
		{"bare minus", `{"a":-}`, false, true, nil},
		{"bad fraction", `{"a":1.}`, false, true, nil},
		{"bad exponent", `{"a":1e}`, false, true, nil},
		{"bad literal", `{"a":tru}`, false, true, nil},
		{"single quotes", `{'a':1}`, false, true, nil},
		{"unclosed array", `{"a":[1,2}`, false, true, nil},
		{"mismatched close", `{"a":[1,2}]`, false, true, nil},
		{"done sentinel", `[DONE]`, false, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members, isObj, err := ScanObject([]byte(tt.in), nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if isObj != tt.isObj {
				t.Fatalf("isObj = %v, want %v", isObj, tt.isObj)
			}
			var keys []string
			for _, m := range members {
				keys = append(keys, string(m.Key))
			}
			if strings.Join(keys, ",") != strings.Join(tt.keys, ",") {
				t.Fatalf("keys = %v, want %v", keys, tt.keys)
			}
			if valid := json.Valid([]byte(tt.in)); valid == (err != nil) {
				t.Fatalf("disagrees with encoding/json: Valid=%v err=%v", valid, err)
			}
		})
	}
}

// TestParse: foreign bytes become a Raw only when they are one JSON
// value, whitespace around it trimmed; the error says where they are not.
func TestParse(t *testing.T) {
	for in, want := range map[string]string{` [1, {"a":"b"}] `: `[1, {"a":"b"}]`, "\n\"x\"\t": `"x"`, `{}`: `{}`, `-0.5e3`: `-0.5e3`} {
		if r, err := Parse([]byte(in)); err != nil || string(r) != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, r, err, want)
		}
	}
	for in, at := range map[string]int{``: 0, `  `: 2, `[1,]`: 3, `{} x`: 3, `"a`: 2, `tru`: 0} {
		r, err := Parse([]byte(in))
		var je *JSONError
		if r != nil || !errors.As(err, &je) || je.Offset != at {
			t.Errorf("Parse(%q) = %q, %v; want an error at byte %d", in, r, err, at)
		}
	}
}

func TestRawAccessors(t *testing.T) {
	r := Raw(`{"s":"a\"b\u00e9\ud83d\ude00","n":42,"f":1.5,"neg":-3,"b":false,"z":null,"arr":[1,{"x":2},[3]],"o":{"k":"v"},"s":"last"}`)
	if s, ok := r.Get("s").Str(); !ok || s != "last" {
		t.Errorf("duplicate key: got %q, want last (last wins)", s)
	}
	if n, ok := r.Get("n").Int(); !ok || n != 42 {
		t.Errorf("n = %d %v", n, ok)
	}
	if _, ok := r.Get("f").Int(); ok {
		t.Error("1.5 read as an integer")
	}
	if n, ok := r.Get("neg").Int(); !ok || n != -3 {
		t.Errorf("neg = %d", n)
	}
	if v, ok := r.Get("b").Bool(); !ok || v {
		t.Errorf("b = %v %v", v, ok)
	}
	if k := r.Get("z").Kind(); k != KindNull {
		t.Errorf("z kind %c", k)
	}
	if n := r.Get("arr").Len(); n != 3 {
		t.Errorf("arr len %d", n)
	}
	if s, _ := r.Get("o").Get("k").Str(); s != "v" {
		t.Errorf("o.k = %q", s)
	}
	if r.Get("missing") != nil || r.Get("n").Get("x") != nil {
		t.Error("absent member not nil")
	}
	if s, _ := Raw(`"a\"b\u00e9\ud83d\ude00\ud800x\n\/"`).Str(); s != "a\"bé😀\ufffdx\n/" {
		t.Errorf("unquote = %q", s)
	}
	var keys []string
	it := Raw(`{"a\u0062":1,"c":2}`).Members()
	for k, esc, _, ok := it.Next(); ok; k, esc, _, ok = it.Next() {
		keys = append(keys, string(DecodedKey(k, esc)))
	}
	if strings.Join(keys, ",") != "ab,c" {
		t.Errorf("members %v", keys)
	}
}

func TestScanDeepNesting(t *testing.T) {
	const depth = 200000
	deep := `{"a":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
	if _, ok, err := ScanObject([]byte(deep), nil); err != nil || !ok {
		t.Fatalf("deep nesting: ok=%v err=%v", ok, err)
	}
	unclosed := `{"a":` + strings.Repeat(`{"b":[`, depth)
	if _, _, err := ScanObject([]byte(unclosed), nil); err == nil {
		t.Fatal("unclosed deep nesting accepted")
	}
	n := 0
	Walk([]byte(deep), func(Token) bool { n++; return true })
	if n != 2*depth+3 {
		t.Fatalf("walk visited %d tokens, want %d", n, 2*depth+3)
	}
}

func TestWalk(t *testing.T) {
	var got []string
	Walk([]byte(`{"a":[1,"x",{"b":true}],"c":null}`), func(tok Token) bool {
		got = append(got, string(tok.Raw))
		return true
	})
	want := `{ "a" [ 1 "x" { "b" true } ] "c" null }`
	if strings.Join(got, " ") != want {
		t.Fatalf("walk = %q, want %q", strings.Join(got, " "), want)
	}
}

func FuzzScanObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `[1,2]`, `"x"`, `{"a":{"b":[1,2,{"c":"\u00e9"}]}}`, `{"a":1,}`, `{"a`, `nul`, `-0.5e-3`, "{\"a\":\"\x00\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:min(len(data), fuzzMaxInput)] // see fuzzMaxInput
		members, isObj, err := ScanObject(data, nil)
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("ScanObject err=%v but json.Valid=%v for %q", err, valid, data)
		}
		if r, perr := Parse(data); (perr == nil) != (err == nil) || (perr == nil && !bytes.Equal(r, trimWS(data))) {
			t.Fatalf("Parse(%q) = %q, %v; ScanObject err=%v", data, r, perr, err)
		}
		if err != nil {
			return
		}
		var v any
		_ = json.Unmarshal(data, &v)
		m, isMap := v.(map[string]any)
		if isMap != isObj {
			t.Fatalf("isObj=%v, encoding/json map=%v", isObj, isMap)
		}
		for _, mem := range members {
			k := unquote(append(append([]byte{'"'}, mem.Key...), '"'))
			if _, ok := m[jsonKey(k)]; !ok {
				t.Fatalf("key %q not in encoding/json's map", k)
			}
		}
		Walk(data, func(Token) bool { return true })
	})
}

// jsonKey is a key as encoding/json's map holds it: every byte that is not
// UTF-8 replaced by U+FFFD (ScanObject keeps the bytes).
func jsonKey(k string) string {
	var b strings.Builder
	for i := 0; i < len(k); {
		r, size := utf8.DecodeRuneInString(k[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(k[i : i+size])
		}
		i += size
	}
	return b.String()
}

// TestAppendStr: AppendStr appends what Str returns, and leaves dst alone
// for a value that is not a string.
func TestAppendStr(t *testing.T) {
	for _, lit := range []string{`""`, `"plain"`, `"a\"b\u00e9\ud83d\ude00\ud800x\n\/"`, `"\\\t"`} {
		want, _ := Raw(lit).Str()
		got, ok := Raw(lit).AppendStr([]byte("pre:"))
		if !ok || string(got) != "pre:"+want {
			t.Errorf("%s: %q %v, want %q", lit, got, ok, "pre:"+want)
		}
	}
	for _, v := range []string{`1`, `null`, `{"a":"b"}`, ``} {
		if got, ok := Raw(v).AppendStr([]byte("x")); ok || string(got) != "x" {
			t.Errorf("%q: %q %v", v, got, ok)
		}
	}
}

func TestGetAll(t *testing.T) {
	obj := Raw(`{"a":1,"b":"x","a":2,"c\u0064":true,"e":{"f":1}}`)
	var got [4]Raw
	obj.GetAll(got[:], "a", "cd", "e", "zz")
	if string(got[0]) != "2" || string(got[1]) != "true" || string(got[2]) != `{"f":1}` || got[3] != nil {
		t.Errorf("GetAll = %q", got)
	}
	Raw(`[1]`).GetAll(got[:], "a")
	if got[0] != nil {
		t.Errorf("GetAll on an array = %q", got[0])
	}
	plain := Raw(`{"type":"text_delta","text":"hi","index":3}`)
	if n := testing.AllocsPerRun(100, func() { plain.GetAll(got[:3], "type", "text", "index") }); n != 0 {
		t.Errorf("GetAll allocates %.0f times", n)
	}
}

func TestStrEqLengths(t *testing.T) {
	for _, tc := range []struct {
		raw, s string
		want   bool
	}{
		{`"abc"`, "abc", true}, {`"ab"`, "abc", false}, {`"abcd"`, "abc", false},
		{`"\u0061bc"`, "abc", true}, {`"a\"c"`, `a"c`, true}, {`"a\\c"`, `a\c`, true}, {`"a\\c"`, `a\\c`, false},
	} {
		if got := Raw(tc.raw).StrEq(tc.s); got != tc.want {
			t.Errorf("%s.StrEq(%q) = %v", tc.raw, tc.s, got)
		}
	}
}

// TestScanStringLandsOnFirstSpecial: the word-at-a-time scan stops on the
// first quote, backslash or control byte at every position of a word, also
// with more special bytes (which a borrow could flag) right after it and
// bytes ≥ 0x80 around it, exactly where a byte-by-byte scan does.
func TestScanStringLandsOnFirstSpecial(t *testing.T) {
	naive := func(data []byte, i int) (int, bool, bool) { // end, esc, ok
		esc := false
		for i++; i < len(data); i++ {
			switch c := data[i]; {
			case c == '"':
				return i + 1, esc, true
			case c == '\\':
				if i+1 >= len(data) || !strings.ContainsRune(`"\/bfnrt`, rune(data[i+1])) {
					return 0, esc, false
				}
				esc = true
				i++
			case c < 0x20:
				return 0, esc, false
			}
		}
		return 0, esc, false
	}
	fillers := []byte{'a', 0x7f, 0x80, 0xff, ' ', '!', '#', '[', ']', 0x21}
	specials := [][]byte{{'"'}, {'\\', 'n'}, {'\\', '"'}, {0x00}, {0x1f}, {'\n'}, {'"', '"'}, {0x01, '"'}, {'\\', 'x'}}
	for n := 0; n < 24; n++ {
		for _, fill := range fillers {
			for _, sp := range specials {
				for _, tail := range []string{`"`, `x"`, "\x00\"", ""} {
					data := []byte{'"'}
					data = append(data, bytes.Repeat([]byte{fill}, n)...)
					data = append(data, sp...)
					data = append(data, tail...)
					end, esc, err := scanString(data, 0)
					wantEnd, wantEsc, ok := naive(data, 0)
					if ok != (err == nil) || (ok && (end != wantEnd || esc != wantEsc)) {
						t.Fatalf("%q: scanString = %d, %v, %v; byte by byte: %d, %v, ok %v", data, end, esc, err, wantEnd, wantEsc, ok)
					}
				}
			}
		}
	}
}
