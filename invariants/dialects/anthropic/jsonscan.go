package anthropic

// jsonScan checks, piece by piece, that a tool block's input (the
// concatenated partial_json strings) is one JSON object. It keeps a few
// bytes of state instead of the text itself, so an open tool block costs a
// fixed amount whatever its input size, and feeding it allocates nothing.
// Nesting deeper than maxDepth is not checked (the scan gives up silently).
type jsonScan struct {
	st     scanState
	key    bool // the string being scanned is an object key
	hex    uint8
	lit    string // the literal being matched (true, false, null)
	litPos uint8
	depth  int
	stack  [maxDepth / 64]uint64 // one bit per open container: 1 = object
	pos    int64                 // bytes of input seen
	badAt  int64
	bad    byte // the byte that broke it
	// notObject: the input starts with something other than an object.
	notObject bool
}

const maxDepth = 256

type scanState uint8

const (
	stBegin        scanState = iota // nothing but whitespace yet (an empty input is {})
	stValue                         // a value is due
	stValueOrClose                  // after '[': a value or ']'
	stKeyOrClose                    // after '{': a key or '}'
	stKey                           // after ',' in an object
	stColon                         // after a key
	stAfter                         // after a value in a container: ',' or its closer
	stEnd                           // the object is complete: whitespace only
	stString
	stEsc
	stHex
	stLit
	stNumMinus
	stNumZero
	stNumInt
	stNumDot
	stNumFrac
	stNumE
	stNumESign
	stNumExp
	stBad
	stDeep // nested beyond maxDepth: not checked
)

func (s *jsonScan) reset() { *s = jsonScan{} }

// feedString feeds the text a JSON string literal stands for (q keeps its
// quotes, as decode.Raw does), decoding escapes on the fly. A \u escape
// for a non-ASCII character is fed as one byte >= 0x80: legal only inside
// a string, as the character itself would be.
func (s *jsonScan) feedString(q []byte) {
	if len(q) < 2 {
		return
	}
	end := len(q) - 1
	for i := 1; i < end; i++ {
		c := q[i]
		if c != '\\' || i+1 >= end {
			s.feed(c)
			continue
		}
		i++
		switch q[i] {
		case 'n':
			s.feed('\n')
		case 't':
			s.feed('\t')
		case 'r':
			s.feed('\r')
		case 'b':
			s.feed('\b')
		case 'f':
			s.feed('\f')
		case 'u':
			var r rune
			j := i + 1
			for ; j < end && j <= i+4; j++ {
				r = r<<4 | rune(unhex(q[j]))
			}
			i = j - 1
			if r < 0x80 {
				s.feed(byte(r))
			} else {
				s.feed(0x80)
			}
		default: // " \ /
			s.feed(q[i])
		}
	}
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// feed advances the scan by one byte of input.
func (s *jsonScan) feed(c byte) {
	s.pos++
	switch s.st {
	case stBad, stDeep:
		return
	case stBegin:
		switch {
		case isWS(c):
		case c == '{':
			s.push(true)
		default:
			s.fail(c)
			s.notObject = true
		}
	case stEnd:
		if !isWS(c) {
			s.fail(c)
		}
	case stValue, stValueOrClose:
		s.value(c)
	case stKeyOrClose, stKey:
		switch {
		case isWS(c):
		case c == '"':
			s.st, s.key = stString, true
		case c == '}' && s.st == stKeyOrClose:
			s.pop()
		default:
			s.fail(c)
		}
	case stColon:
		switch {
		case isWS(c):
		case c == ':':
			s.st = stValue
		default:
			s.fail(c)
		}
	case stAfter:
		s.after(c)
	case stString:
		switch {
		case c == '"':
			if s.key {
				s.st = stColon
			} else {
				s.st = stAfter
			}
		case c == '\\':
			s.st = stEsc
		case c < 0x20:
			s.fail(c)
		}
	case stEsc:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.st = stString
		case 'u':
			s.st, s.hex = stHex, 0
		default:
			s.fail(c)
		}
	case stHex:
		if !isHexDigit(c) {
			s.fail(c)
			return
		}
		if s.hex++; s.hex == 4 {
			s.st = stString
		}
	case stLit:
		if c != s.lit[s.litPos] {
			s.fail(c)
			return
		}
		if s.litPos++; int(s.litPos) == len(s.lit) {
			s.st = stAfter
		}
	default:
		s.number(c)
	}
}

// value starts a value (or closes an empty array).
func (s *jsonScan) value(c byte) {
	switch {
	case isWS(c):
	case c == '{':
		s.push(true)
	case c == '[':
		s.push(false)
	case c == ']' && s.st == stValueOrClose:
		s.pop()
	case c == '"':
		s.st, s.key = stString, false
	case c == '-':
		s.st = stNumMinus
	case c == '0':
		s.st = stNumZero
	case c >= '1' && c <= '9':
		s.st = stNumInt
	case c == 't':
		s.st, s.lit, s.litPos = stLit, "true", 1
	case c == 'f':
		s.st, s.lit, s.litPos = stLit, "false", 1
	case c == 'n':
		s.st, s.lit, s.litPos = stLit, "null", 1
	default:
		s.fail(c)
	}
}

// after follows a value inside a container.
func (s *jsonScan) after(c byte) {
	switch {
	case isWS(c):
	case c == ',':
		if s.top() {
			s.st = stKey
		} else {
			s.st = stValue
		}
	case c == '}' && s.top(), c == ']' && !s.top():
		s.pop()
	default:
		s.fail(c)
	}
}

// number runs the number grammar; the byte that ends a number is then read
// as what follows the value.
func (s *jsonScan) number(c byte) {
	switch s.st {
	case stNumMinus:
		switch {
		case c == '0':
			s.st = stNumZero
		case c >= '1' && c <= '9':
			s.st = stNumInt
		default:
			s.fail(c)
		}
		return
	case stNumZero, stNumInt:
		switch {
		case isDigit(c) && s.st == stNumInt:
			return
		case c == '.':
			s.st = stNumDot
			return
		case c == 'e' || c == 'E':
			s.st = stNumE
			return
		}
	case stNumDot:
		if isDigit(c) {
			s.st = stNumFrac
		} else {
			s.fail(c)
		}
		return
	case stNumFrac:
		switch {
		case isDigit(c):
			return
		case c == 'e' || c == 'E':
			s.st = stNumE
			return
		}
	case stNumE:
		switch {
		case c == '+' || c == '-':
			s.st = stNumESign
		case isDigit(c):
			s.st = stNumExp
		default:
			s.fail(c)
		}
		return
	case stNumESign:
		if isDigit(c) {
			s.st = stNumExp
		} else {
			s.fail(c)
		}
		return
	case stNumExp:
		if isDigit(c) {
			return
		}
	}
	// A complete number ended: c follows it.
	s.st = stAfter
	s.after(c)
}

func (s *jsonScan) push(object bool) {
	if s.depth >= maxDepth {
		s.st = stDeep
		return
	}
	w, b := s.depth/64, uint(s.depth%64)
	if object {
		s.stack[w] |= 1 << b
		s.st = stKeyOrClose
	} else {
		s.stack[w] &^= 1 << b
		s.st = stValueOrClose
	}
	s.depth++
}

func (s *jsonScan) pop() {
	s.depth--
	if s.depth == 0 {
		s.st = stEnd
	} else {
		s.st = stAfter
	}
}

// top reports whether the innermost open container is an object.
func (s *jsonScan) top() bool {
	d := s.depth - 1
	return d >= 0 && s.stack[d/64]&(1<<uint(d%64)) != 0
}

func (s *jsonScan) fail(c byte) {
	s.st, s.bad, s.badAt = stBad, c, s.pos
}

// valid reports whether the input seen is a complete JSON object (or
// empty, which the API reads as {}), or too deep to tell.
func (s *jsonScan) valid() bool {
	return s.st == stBegin || s.st == stEnd || s.st == stDeep
}

// cut reports whether the input is an unfinished prefix of a JSON object:
// nothing in it is wrong, it only stops too early.
func (s *jsonScan) cut() bool {
	return !s.valid() && s.st != stBad
}

// fault says why the input is not valid (for the alarm message only).
func (s *jsonScan) fault() string {
	switch s.st {
	case stBad:
		if s.notObject {
			return "it is not a JSON object"
		}
		return "unexpected " + quoteByte(s.bad) + " at byte " + itoa(s.badAt)
	case stString, stEsc, stHex:
		return "it ends inside a string"
	}
	return "it ends before the object is complete"
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	const hexd = "0123456789abcdef"
	return "byte 0x" + string([]byte{hexd[c>>4], hexd[c&15]})
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
