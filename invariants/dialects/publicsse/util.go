package publicsse

import (
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// faults collects one frame's payload-malformed findings, so that a frame
// raises at most one alarm naming them all. Nothing is formatted until a
// frame has a fault.
type faults struct {
	list [8]fault
	n    int
}

type fault struct {
	field, want string
	got         decode.Raw
}

func (fs *faults) reset() { fs.n = 0 }

func (fs *faults) add(field string, got decode.Raw, want string) {
	if fs.n < len(fs.list) {
		fs.list[fs.n] = fault{field: field, want: want, got: got}
		fs.n++
	}
}

// want records a fault unless v has JSON kind k.
func (fs *faults) want(v decode.Raw, k decode.Kind, field string) {
	if v.Kind() != k {
		fs.add(field, v, wantName[k])
	}
}

// wantInt records a fault unless v is a JSON integer.
func (fs *faults) wantInt(v decode.Raw, field string) {
	if _, ok := invariants.Int(v); !ok {
		fs.add(field, v, "an integer")
	}
}

var wantName = map[decode.Kind]string{
	decode.KindObject: "an object", decode.KindString: "a string", decode.KindBool: "a boolean",
	decode.KindArray: "an array", decode.KindNumber: "a number",
}

func (fs *faults) String() string {
	var b strings.Builder
	for i := 0; i < fs.n; i++ {
		ft := &fs.list[i]
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(ft.field)
		b.WriteString(" is ")
		switch ft.got.Kind() {
		case decode.KindString, decode.KindNumber:
			b.WriteString(decode.Clip(string(ft.got), 40))
		default:
			b.WriteString(invariants.KindName(ft.got))
		}
		b.WriteString(", want ")
		b.WriteString(ft.want)
	}
	return b.String()
}

// inner is a JSON string's text without its quotes: the frame's own bytes
// when it has no escapes (no allocation), else decoded. Nil for anything
// but a string.
func inner(r decode.Raw) []byte {
	if r.Kind() != decode.KindString || len(r) < 2 {
		return nil
	}
	in := r[1 : len(r)-1]
	for _, c := range in {
		if c == '\\' {
			s, _ := r.Str()
			return []byte(s)
		}
	}
	return in
}

// oneOf reports whether v is a JSON string among names.
func oneOf(v decode.Raw, names []string) bool {
	for _, n := range names {
		if v.StrEq(n) {
			return true
		}
	}
	return false
}

// labelOf is a kind for a message ("event" when it has none).
func labelOf(kind decode.Raw) string {
	if s, ok := kind.Str(); ok && s != "" {
		return s
	}
	return "event"
}
