package decode

// TokenKind is the kind of a token produced by Walk.
type TokenKind uint8

const (
	TokObjectStart TokenKind = iota + 1
	TokObjectEnd
	TokArrayStart
	TokArrayEnd
	TokKey    // an object member's key (Raw is the quoted literal)
	TokString // a string value (Raw is the quoted literal)
	TokNumber
	TokLiteral // true, false, null
)

// Token is one step of a walk over a JSON value.
type Token struct {
	Kind  TokenKind
	Raw   []byte
	Depth int // nesting depth of the token (the outermost value is 0)
}

// Text decodes a TokKey or TokString token.
func (t Token) Text() string { return unquote(t.Raw) }

// Walk visits every token of a valid JSON value in document order, in one
// pass and without recursion, so any nesting depth is safe. fn returns
// false to stop. Invalid input stops the walk at the first bad byte.
func Walk(data []byte, fn func(Token) bool) {
	var stack []byte // '{' or '['
	expectKey := false
	i := skipWS(data, 0)
	for i < len(data) {
		c := data[i]
		depth := len(stack)
		switch {
		case c == '{' || c == '[':
			kind := TokObjectStart
			if c == '[' {
				kind = TokArrayStart
			}
			if !fn(Token{Kind: kind, Raw: data[i : i+1], Depth: depth}) {
				return
			}
			stack = append(stack, c)
			expectKey = c == '{'
			i = skipWS(data, i+1)
			continue
		case c == '}' || c == ']':
			if depth == 0 {
				return
			}
			kind := TokObjectEnd
			if c == ']' {
				kind = TokArrayEnd
			}
			stack = stack[:depth-1]
			if !fn(Token{Kind: kind, Raw: data[i : i+1], Depth: depth - 1}) {
				return
			}
			i++
		case c == '"':
			end, _, err := scanString(data, i)
			if err != nil {
				return
			}
			kind := TokString
			if expectKey {
				kind = TokKey
			}
			if !fn(Token{Kind: kind, Raw: data[i:end], Depth: depth}) {
				return
			}
			i = skipWS(data, end)
			if expectKey {
				if i >= len(data) || data[i] != ':' {
					return
				}
				expectKey = false
				i = skipWS(data, i+1)
				continue
			}
		case c == '-' || c >= '0' && c <= '9':
			end, err := scanNumber(data, i)
			if err != nil {
				return
			}
			if !fn(Token{Kind: TokNumber, Raw: data[i:end], Depth: depth}) {
				return
			}
			i = end
		case c == 't' || c == 'f' || c == 'n':
			n := 4
			if c == 'f' {
				n = 5
			}
			if len(data)-i < n {
				return
			}
			if !fn(Token{Kind: TokLiteral, Raw: data[i : i+n], Depth: depth}) {
				return
			}
			i += n
		default:
			return
		}
		// After a value or a closing bracket: a comma or the next close.
		i = skipWS(data, i)
		if i < len(data) && data[i] == ',' {
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
			i = skipWS(data, i+1)
		}
		if len(stack) == 0 {
			return
		}
	}
}
