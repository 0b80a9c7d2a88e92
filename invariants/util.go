package invariants

import (
	"fmt"

	"framescope/decode"
)

// keyString is a key's text for the report: a JSON string decoded, any
// other JSON value (a number index) as written.
func keyString(k decode.Raw) string {
	if len(k) == 0 || k.Kind() == decode.KindNull {
		return ""
	}
	if s, ok := k.Str(); ok {
		return s
	}
	return string(k)
}

// rawText is keyString under the name used for names and texts.
func rawText(r decode.Raw) string { return keyString(r) }

// emptyKey: absent, null or the empty string.
func emptyKey(k decode.Raw) bool {
	return len(k) == 0 || k.Kind() == decode.KindNull || string(k) == `""`
}

// clipRaw renders a key or name for a message: quoted and cut.
func clipRaw(r decode.Raw) string {
	if len(r) == 0 {
		return "(none)"
	}
	if r.Kind() == decode.KindString {
		return fmt.Sprintf("%q", decode.Clip(keyString(r), 60))
	}
	return decode.Clip(string(r), 60)
}

// KindName names a JSON value's type for messages ("absent" when missing).
func KindName(r decode.Raw) string {
	switch r.Kind() {
	case decode.KindNone:
		return "absent"
	case decode.KindObject:
		return "an object"
	case decode.KindArray:
		return "an array"
	case decode.KindString:
		return "a string"
	case decode.KindNumber:
		return "a number"
	case decode.KindBool:
		return "a boolean"
	}
	return "null"
}

// Int parses a JSON integer without allocating (ok false for anything
// else: fractions, exponents, strings, overflow).
func Int(r decode.Raw) (int64, bool) {
	if len(r) == 0 || len(r) > 19 {
		return 0, false
	}
	neg := r[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	if i == len(r) {
		return 0, false
	}
	var n uint64
	for ; i < len(r); i++ {
		c := r[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > 1<<63-1 && !(neg && n == 1<<63) {
		return 0, false // beyond int64 (19 digits can overflow)
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

// StrBytes returns the bytes between a JSON string's quotes (still
// escaped), nil for any other value: a mapper switches on it without
// allocating. A type with escapes in it matches no case, which is right for
// every dialect's vocabulary (plain ASCII names).
func StrBytes(r decode.Raw) []byte {
	if len(r) < 2 || r[0] != '"' {
		return nil
	}
	return r[1 : len(r)-1]
}

// TypeLabel is the label of the dialects whose frames name themselves in a
// JSON "type" member (Spec.LabelOf).
func TypeLabel(f *decode.Frame) string { return StringMember(f, "type") }

// StringMember is a top-level string member of the frame ("" otherwise).
func StringMember(f *decode.Frame, key string) string {
	s, _ := f.Get(key).Str()
	return s
}
