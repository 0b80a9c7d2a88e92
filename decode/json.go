package decode

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
)

// This file is a small validating JSON scanner. The check pipeline touches
// every frame, so it must not build a DOM: one pass validates the whole value
// and records where each top-level member of an object lies; nested values
// are read later, on demand, by scanning their span again. It is iterative —
// 200,000-deep nesting costs a byte of stack bookkeeping per level, never a
// goroutine stack frame.

// JSONError is a syntax error at a byte offset of the scanned value.
//
// The message is kept in parts and joined only when Error is called: a
// stream of a million broken frames (an alarm flood) must not build a
// million messages that nobody reads.
type JSONError struct {
	Offset int
	// Msg, then the quoted byte Char when HasChar, then After.
	Msg     string
	Char    byte
	HasChar bool
	After   string
}

func (e *JSONError) Error() string {
	msg := e.Msg
	if e.HasChar {
		msg += quoteChar(e.Char) + e.After
	}
	return msg + " at byte " + strconv.Itoa(e.Offset)
}

// valueStart says which bytes can begin a JSON value.
var valueStart = [256]bool{'{': true, '[': true, '"': true, '-': true, 't': true, 'f': true, 'n': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// charError is a JSONError naming the byte c: msg 'c' after.
func charError(i int, msg string, c byte, after string) *JSONError {
	return &JSONError{Offset: i, Msg: msg, Char: c, HasChar: true, After: after}
}

// Member is one top-level member of a scanned object.
type Member struct {
	Key    []byte // raw key bytes between the quotes
	KeyEsc bool   // the key contains escapes (compare decoded)
	Value  Raw
}

// ScanObject validates data as exactly one JSON value and, when it is an
// object, appends its members to dst. It reports whether the value is an
// object; a syntax error returns a *JSONError and appends nothing.
func ScanObject(data []byte, dst []Member) ([]Member, bool, error) {
	return scanObject(data, dst, nil)
}

// scanObject is ScanObject; with a frame, each member is also noted in
// the frame's index as it is scanned (frame_index.go).
func scanObject(data []byte, dst []Member, f *Frame) ([]Member, bool, error) {
	i := skipWS(data, 0)
	if i >= len(data) {
		return dst, false, &JSONError{Offset: i, Msg: "empty data"}
	}
	if data[i] != '{' {
		end, err := skipValue(data, i)
		if err == nil {
			err = trailing(data, end)
		}
		return dst, false, err
	}
	start := len(dst)
	dst, end, err := appendMembers(data, i, dst, f)
	if err == nil {
		err = trailing(data, end)
	}
	if err != nil {
		return dst[:start], false, err
	}
	return dst, true, nil
}

// Parse validates data, bytes that did not come out of the decoder (a
// request's body, a file, a capture's line), as exactly one JSON value
// with only whitespace around it, and returns the value: the way foreign
// bytes become a Raw (see Raw). A syntax error is a *JSONError.
func Parse(data []byte) (Raw, error) {
	i := skipWS(data, 0)
	if i >= len(data) {
		return nil, &JSONError{Offset: i, Msg: "empty data"}
	}
	end, err := skipValue(data, i)
	if err == nil {
		err = trailing(data, end)
	}
	if err != nil {
		return nil, err
	}
	return Raw(data[i:end]), nil
}

// trailing is the error for what follows the top-level value that ends
// at data[end], nil when it is only whitespace.
func trailing(data []byte, end int) error {
	if j := skipWS(data, end); j != len(data) {
		return charError(j, "unexpected ", data[j], " after top-level value")
	}
	return nil
}

// appendMembers validates the object starting at data[i] ('{') and
// appends each member to dst, returning the index past its closing brace
// (no callback per member: this is the per-frame hot path). A string
// value is scanned directly.
func appendMembers(data []byte, i int, dst []Member, f *Frame) ([]Member, int, error) {
	if f != nil {
		f.idx = frameIndex{}
	}
	i++ // '{'
	i = skipWS(data, i)
	if i < len(data) && data[i] == '}' {
		return dst, i + 1, nil
	}
	for {
		i = skipWS(data, i)
		if i >= len(data) {
			return dst, i, errEOF(i)
		}
		if data[i] != '"' {
			return dst, i, charError(i, "expected string key, found ", data[i], "")
		}
		kEnd, esc, err := scanString(data, i)
		if err != nil {
			return dst, i, err
		}
		key := data[i+1 : kEnd-1]
		i = kEnd
		if i < len(data) && data[i] == ':' {
			i++
		} else {
			i = skipWS(data, i)
			if i >= len(data) {
				return dst, i, errEOF(i)
			}
			if data[i] != ':' {
				return dst, i, charError(i, "expected ':' after object key, found ", data[i], "")
			}
			i++
		}
		i = skipWS(data, i)
		var vEnd int
		if i < len(data) && data[i] == '"' {
			vEnd, _, err = scanString(data, i)
		} else {
			vEnd, err = skipValue(data, i)
		}
		if err != nil {
			return dst, vEnd, err
		}
		dst = append(dst, Member{Key: key, KeyEsc: esc, Value: data[i:vEnd]})
		if f != nil {
			f.note(key, esc, i, vEnd, len(dst)-1)
		}
		i = vEnd
		if i >= len(data) || data[i] != ',' && data[i] != '}' {
			i = skipWS(data, i)
		}
		if i >= len(data) {
			return dst, i, errEOF(i)
		}
		switch data[i] {
		case ',':
			i++
		case '}':
			return dst, i + 1, nil
		default:
			return dst, i, charError(i, "expected ',' or '}' in object, found ", data[i], "")
		}
	}
}

func errEOF(i int) error { return &JSONError{Offset: i, Msg: "unexpected end of JSON"} }

func quoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

var wsTable = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func skipWS(data []byte, i int) int {
	for i < len(data) && wsTable[data[i]] {
		i++
	}
	return i
}

// strSafe marks bytes that need no attention inside a JSON string.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = true
	}
	t['"'] = false
	t['\\'] = false
	return t
}()

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// scanString validates the string starting at data[i] ('"') and returns the
// index past its closing quote and whether it contains escapes.
func scanString(data []byte, i int) (int, bool, error) {
	i++
	esc := false
	for {
		// 8 bytes at a time: the lowest flagged byte of the word is the
		// first '"', '\\' or control byte (a borrow can flag a byte above
		// a true one, never below), so the scan lands on it directly.
		for i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			q := x ^ (swarLo * '"')
			b := x ^ (swarLo * '\\')
			if m := ((q-swarLo)&^q | (b-swarLo)&^b | (x-swarLo*0x20)&^x) & swarHi; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
			i += 8
		}
		for i < len(data) && strSafe[data[i]] {
			i++
		}
	special:
		if i >= len(data) {
			return i, esc, &JSONError{Offset: i, Msg: "unterminated string"}
		}
		switch c := data[i]; c {
		case '"':
			return i + 1, esc, nil
		case '\\':
			esc = true
			if i+1 >= len(data) {
				return i, esc, &JSONError{Offset: i, Msg: "unterminated string"}
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) {
					return i, esc, &JSONError{Offset: i, Msg: "unterminated \\u escape"}
				}
				for _, h := range data[i+2 : i+6] {
					if !isHex(h) {
						return i, esc, &JSONError{Offset: i, Msg: "invalid \\u escape"}
					}
				}
				i += 6
			default:
				return i, esc, charError(i, "invalid escape ", data[i+1], "")
			}
		default:
			return i, esc, charError(i, "control character ", c, " in string")
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// skipValue validates one value starting at data[i] and returns the index
// just past it. Containers are walked with an explicit stack.
func skipValue(data []byte, i int) (int, error) {
	var stack []byte // open containers: '{' or '['
	for {
		i = skipWS(data, i)
		if i >= len(data) {
			return i, errEOF(i)
		}
		// One value.
		switch c := data[i]; {
		case c == '{' || c == '[':
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			j := skipWS(data, i+1)
			if j < len(data) && data[j] == close {
				i = j + 1
				break
			}
			stack = append(stack, c)
			i = j
			if c == '{' {
				var err error
				if i, err = scanKeyColon(data, i); err != nil {
					return i, err
				}
			}
			continue
		case c == '"':
			end, _, err := scanString(data, i)
			if err != nil {
				return end, err
			}
			i = end
		case c == '-' || c >= '0' && c <= '9':
			end, err := scanNumber(data, i)
			if err != nil {
				return end, err
			}
			i = end
		case c == 't':
			if !hasLit(data, i, "true") {
				return i, &JSONError{Offset: i, Msg: "invalid literal"}
			}
			i += 4
		case c == 'f':
			if !hasLit(data, i, "false") {
				return i, &JSONError{Offset: i, Msg: "invalid literal"}
			}
			i += 5
		case c == 'n':
			if !hasLit(data, i, "null") {
				return i, &JSONError{Offset: i, Msg: "invalid literal"}
			}
			i += 4
		default:
			return i, charError(i, "unexpected ", c, "")
		}
		// After a value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipWS(data, i)
			if i >= len(data) {
				return i, errEOF(i)
			}
			top := stack[len(stack)-1]
			c := data[i]
			if c == ',' {
				i++
				if top == '{' {
					var err error
					if i, err = scanKeyColon(data, skipWS(data, i)); err != nil {
						return i, err
					}
				}
				break
			}
			if top == '{' && c == '}' || top == '[' && c == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return i, charError(i, "unexpected ", c, inContainer(top))
		}
	}
}

// inContainer is " in object" or " in array" (constants: no string built
// per error).
func inContainer(c byte) string {
	if c == '{' {
		return " in object"
	}
	return " in array"
}

// scanKeyColon validates `"key" :` at data[i] and returns the index after
// the colon.
func scanKeyColon(data []byte, i int) (int, error) {
	if i >= len(data) {
		return i, errEOF(i)
	}
	if data[i] != '"' {
		return i, charError(i, "expected string key, found ", data[i], "")
	}
	end, _, err := scanString(data, i)
	if err != nil {
		return end, err
	}
	i = skipWS(data, end)
	if i >= len(data) {
		return i, errEOF(i)
	}
	if data[i] != ':' {
		return i, charError(i, "expected ':' after object key, found ", data[i], "")
	}
	return i + 1, nil
}

func hasLit(data []byte, i int, lit string) bool {
	return len(data)-i >= len(lit) && string(data[i:i+len(lit)]) == lit
}

// ScanNumber returns the end of the JSON number that starts at data[i],
// or i when no valid number starts there (a capture reader's fast path
// uses it to take a number without a full parse).
func ScanNumber(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	end, err := scanNumber(data, i)
	if err != nil {
		return i
	}
	return end
}

func scanNumber(data []byte, i int) (int, error) {
	start := i
	if data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return i, errEOF(i)
	}
	switch {
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		i = digits(data, i)
	default:
		return i, &JSONError{Offset: start, Msg: "invalid number"}
	}
	if i < len(data) && data[i] == '.' {
		d := i + 1
		if i = digits(data, d); i == d {
			return i, &JSONError{Offset: start, Msg: "invalid number"}
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		d := i
		if i = digits(data, d); i == d {
			return i, &JSONError{Offset: start, Msg: "invalid number"}
		}
	}
	return i, nil
}

// digits returns the index past the decimal digits that start at data[i].
func digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}
