package decode

import (
	"encoding/json"
	"strings"
	"testing"
)

// walkCursor renders a value read with a Cursor: containers entered (and
// then taken whole with Mark and Since), scalars read, and the members whose key starts with "s" and every
// third element left unread (the next call skips them).
func walkCursor(c *Cursor, depth int) string {
	if depth > 64 {
		return string(c.Value())
	}
	var b strings.Builder
	mark := c.Mark()
	switch {
	case c.Object():
		b.WriteByte('{')
		for {
			k, ok := c.Member()
			if !ok {
				break
			}
			if strings.HasPrefix(string(k), "s") {
				continue
			}
			b.WriteString(string(k) + ":" + walkCursor(c, depth+1) + ",")
		}
		b.WriteByte('}')
	case c.Array():
		b.WriteByte('[')
		for n := 0; c.Elem(); n++ {
			if n%3 == 2 {
				continue
			}
			b.WriteString(walkCursor(c, depth+1) + ",")
		}
		b.WriteByte(']')
	default:
		b.Write(c.Value())
	}
	// A value read to its end is, by Since, what Value reads.
	if whole := c.Since(mark); !c.Bad() && walkRaw(whole, depth) != b.String() {
		b.WriteString("!Since " + string(whole))
	}
	return b.String()
}

// walkRaw renders the same with Members and Elements.
func walkRaw(r Raw, depth int) string {
	if depth > 64 {
		return string(r)
	}
	var b strings.Builder
	switch r.Kind() {
	case KindObject:
		b.WriteByte('{')
		r.Members(func(k string, v Raw) bool {
			if !strings.HasPrefix(k, "s") {
				b.WriteString(k + ":" + walkRaw(v, depth+1) + ",")
			}
			return true
		})
		b.WriteByte('}')
	case KindArray:
		b.WriteByte('[')
		n := 0
		r.Elements(func(v Raw) bool {
			if n%3 != 2 {
				b.WriteString(walkRaw(v, depth+1) + ",")
			}
			n++
			return true
		})
		b.WriteByte(']')
	default:
		b.Write(r)
	}
	return b.String()
}

var cursorSeeds = []string{
	`{"candidates":[{"content":{"parts":[{"text":"Hi \"there\"","thought":true},{"functionCall":{"name":"f","args":{"a":[1,2,{}]}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":3},"modelVersion":"m"}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5,"message":"x"}}`,
	` { "a" : [ 1 , "two" , null , true , false , -1.5e3 , [ ] , { } ] , "skip" : { "x" : [ 1 ] } , "b" : { } } `,
	`{"k\u0065y":"v","s\"":1,"a":{"a":{"a":{"a":[[[["deep"]]]]}}}}`,
	`{"dup":1,"dup":2}`, `[]`, `{}`, `"str"`, `12`, `[{"s":1},2,3,{"t":[4]}]`,
}

// TestCursorReadsLikeRaw: a value read with a Cursor, skipping some
// members and elements unread, gives what Members and Elements give.
func TestCursorReadsLikeRaw(t *testing.T) {
	for _, s := range cursorSeeds {
		c := NewCursor(Raw(strings.TrimSpace(s)))
		got, want := walkCursor(&c, 0), walkRaw(Raw(strings.TrimSpace(s)), 0)
		if got != want || c.Bad() {
			t.Errorf("%s:\ncursor %s (bad %v)\nraw    %s", s, got, c.Bad(), want)
		}
	}
}

// TestCursorStopsOnBadBytes: bytes that are not JSON stop the cursor
// (Bad), wherever they are.
func TestCursorStopsOnBadBytes(t *testing.T) {
	for _, s := range []string{`{"a":}`, `{"a" 1}`, `{"a":"x`, `[1,`, `{`, `{1:2}`, `[tru]`, `{"a":[1}`} {
		c := NewCursor(Raw(s))
		walkCursor(&c, 0)
		if !c.Bad() {
			t.Errorf("%s: the cursor read it to the end without noticing", s)
		}
		if c.Member(); c.Elem() || c.Value() != nil || c.Object() || c.Array() {
			t.Errorf("%s: a stopped cursor reads on", s)
		}
	}
}

// TestCursorNoAlloc: reading a chunk's nested text allocates nothing.
func TestCursorNoAlloc(t *testing.T) {
	data := Raw(cursorSeeds[0])
	var text Raw
	n := testing.AllocsPerRun(100, func() {
		c := NewCursor(data)
		c.Object()
		for k, ok := c.Member(); ok; k, ok = c.Member() {
			if string(k) != "candidates" || !c.Array() {
				continue
			}
			for c.Elem() {
				c.Object()
				for k, ok := c.Member(); ok; k, ok = c.Member() {
					if string(k) != "content" || !c.Object() {
						continue
					}
					for k, ok := c.Member(); ok; k, ok = c.Member() {
						if string(k) != "parts" || !c.Array() {
							continue
						}
						for c.Elem() {
							c.Object()
							for k, ok := c.Member(); ok; k, ok = c.Member() {
								if string(k) == "text" {
									text = c.Value()
								}
							}
						}
					}
				}
			}
		}
	})
	if n != 0 || string(text) != `"Hi \"there\""` {
		t.Errorf("%.1f allocations, text %s", n, text)
	}
}

// FuzzCursor: any bytes, no panic and an end; on valid JSON the cursor
// reads what Members and Elements read.
func FuzzCursor(f *testing.F) {
	for _, s := range cursorSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:min(len(data), fuzzMaxInput)]
		c := NewCursor(Raw(data))
		got := walkCursor(&c, 0)
		trimmed := Raw(trimWS(data))
		if !json.Valid(trimmed) {
			return
		}
		if want := walkRaw(trimmed, 0); got != want || c.Bad() {
			t.Fatalf("cursor %s (bad %v)\nraw    %s", got, c.Bad(), want)
		}
	})
}
