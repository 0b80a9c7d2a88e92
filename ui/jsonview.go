package ui

import (
	"fmt"
	"strings"

	"framescope/decode"
)

// jline is one line of a rendered document: the plain text (for search and
// wrapping) and the styled text.
type jline struct {
	plain  string
	styled string
}

// Folding limits of the JSON view (lifted by expanding).
const (
	foldArray  = 20     // elements shown of a longer array
	foldString = 2000   // bytes shown of a longer string literal
	foldLines  = 20_000 // lines of one document
)

// prettyJSON renders a valid JSON value as indented lines, every token
// sanitized. Unless expand, arrays show their first foldArray elements
// and a "… N more items" line, and long strings are cut.
func prettyJSON(data []byte, sty *Styles, expand bool) []jline {
	type ctr struct {
		n       int
		skipped int
		arr     bool
	}
	var (
		lines     []jline
		plain     strings.Builder
		styled    strings.Builder
		open      bool // a line is being built
		stack     []ctr
		skipUntil = -1 // skipping a folded element: the depth of its end token
		afterKey  bool
		truncated bool
	)
	flush := func() {
		if open {
			lines = append(lines, jline{plain.String(), styled.String()})
			plain.Reset()
			styled.Reset()
			open = false
		}
	}
	newLine := func(depth int) {
		flush()
		ind := strings.Repeat("  ", depth)
		plain.WriteString(ind)
		styled.WriteString(ind)
		open = true
	}
	put := func(text string, st func(...string) string) {
		plain.WriteString(text)
		styled.WriteString(st(text))
	}
	comma := func() {
		// The previous element's last line gets the comma.
		if open {
			put(",", sty.JSONPunct.Render)
			return
		}
		if n := len(lines); n > 0 {
			lines[n-1].plain += ","
			lines[n-1].styled += sty.JSONPunct.Render(",")
		}
	}
	token := func(t decode.Token) string {
		s := string(t.Raw)
		if !expand && len(s) > foldString {
			more := len(s) - foldString
			s = cutString(s, foldString) + fmt.Sprintf(`…" (+%d bytes)`, more)
		}
		return decode.Sanitize(s)
	}
	decode.Walk(data, func(t decode.Token) bool {
		if len(lines) >= foldLines && !expand {
			truncated = true
			return false
		}
		if skipUntil >= 0 {
			if (t.Kind == decode.TokObjectEnd || t.Kind == decode.TokArrayEnd) && t.Depth == skipUntil {
				skipUntil = -1
			}
			return true
		}
		isEnd := t.Kind == decode.TokObjectEnd || t.Kind == decode.TokArrayEnd
		// A new element of the enclosing container?
		if !isEnd && !afterKey && len(stack) > 0 {
			c := &stack[len(stack)-1]
			if c.arr {
				c.n++
				if !expand && c.n > foldArray {
					c.skipped++
					if t.Kind == decode.TokObjectStart || t.Kind == decode.TokArrayStart {
						skipUntil = t.Depth
					}
					return true
				}
				if c.n > 1 {
					comma()
				}
			} else if t.Kind == decode.TokKey {
				c.n++
				if c.n > 1 {
					comma()
				}
			}
		}
		switch t.Kind {
		case decode.TokKey:
			newLine(t.Depth)
			put(token(t), sty.JSONKey.Render)
			put(": ", sty.JSONPunct.Render)
			afterKey = true
			return true
		case decode.TokObjectStart, decode.TokArrayStart:
			if !afterKey {
				newLine(t.Depth)
			}
			put(string(t.Raw), sty.JSONPunct.Render)
			stack = append(stack, ctr{arr: t.Kind == decode.TokArrayStart})
		case decode.TokObjectEnd, decode.TokArrayEnd:
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c.skipped > 0 {
				newLine(t.Depth + 1)
				s := fmt.Sprintf("… %d more items (enter: expand)", c.skipped)
				if c.skipped == 1 {
					s = "… 1 more item (enter: expand)"
				}
				put(s, sty.Dim.Render)
			}
			if c.n > 0 {
				newLine(t.Depth)
			} else if !open {
				newLine(t.Depth)
			}
			put(string(t.Raw), sty.JSONPunct.Render)
		case decode.TokString:
			if !afterKey {
				newLine(t.Depth)
			}
			put(token(t), sty.JSONString.Render)
		case decode.TokNumber:
			if !afterKey {
				newLine(t.Depth)
			}
			put(decode.Sanitize(string(t.Raw)), sty.JSONNumber.Render)
		case decode.TokLiteral:
			if !afterKey {
				newLine(t.Depth)
			}
			put(string(t.Raw), sty.JSONLit.Render)
		}
		afterKey = false
		return true
	})
	flush()
	if truncated {
		s := fmt.Sprintf("… document cut at %d lines (enter: expand)", foldLines)
		lines = append(lines, jline{s, sty.Dim.Render(s)})
	}
	return lines
}
