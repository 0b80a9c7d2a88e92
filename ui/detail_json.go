package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

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
	foldArray  = 20      // elements shown of a longer array
	foldString = 2000    // bytes shown of a longer string literal
	foldLines  = 20_000  // lines of one document
	foldBytes  = 2 << 20 // rendered bytes (plain text) of one document
)

// Bounds that expanding does not lift: a hostile frame (a 20 KB array
// nested 10,000 deep; 2 MB nested 1,000,000 deep) must cost the Detail
// pane bounded time and memory. Indenting every line by its depth made
// the text grow with depth² (200 MB for the 20 KB frame), so past
// jsonIndentMax levels a line shows its depth as a number instead.
const (
	jsonIndentMax = 32
	hardLines     = 200_000  // lines of one document, expanded
	hardBytes     = 16 << 20 // rendered bytes (plain text) of one document, expanded
)

// jsonIndent is the indentation of a line at depth: two spaces a level up
// to limit levels; deeper, the same width with the depth written in it
// (right-aligned, so the text keeps its column).
func jsonIndent(depth, limit int) (plain string, deep bool) {
	if depth <= limit {
		return strings.Repeat("  ", depth), false
	}
	return fmt.Sprintf("%*d· ", 2*limit-2, depth), true
}

// jsonIndentLimit is how many levels are indented in a pane w cells wide:
// jsonIndentMax, less where the indentation would leave the text under
// two dozen cells.
func jsonIndentLimit(w int) int { return min(max((w-24)/2, 4), jsonIndentMax) }

// prettyJSON renders a valid JSON value as indented lines, every token
// sanitized. Unless expand, arrays show their first foldArray elements
// and a "… N more items" line, and long strings are cut. The document
// stops at foldLines lines or foldBytes bytes (expanded: hardLines,
// hardBytes) with a line that says so. w is the width it is shown at.
func prettyJSON(data []byte, sty *Styles, expand bool, w int) []jline {
	return prettyJSONStop(data, sty, expand, w, nil)
}

// prettyJSONStop is prettyJSON that gives up (returning nil) as soon as
// stop reports true: a render running off the update loop is abandoned
// when the selection moves on.
func prettyJSONStop(data []byte, sty *Styles, expand bool, w int, stop func() bool) []jline {
	type ctr struct {
		n       int
		skipped int
		arr     bool
	}
	// Every line is a span of two growing buffers, the plain and the
	// styled text: a few allocations per document rather than per line.
	type span struct{ p0, p1, s0, s1 int }
	var (
		spans     []span
		p0, s0    int // where the open line starts
		plain     strings.Builder
		styled    strings.Builder
		open      bool // a line is being built
		stack     []ctr
		skipUntil = -1 // skipping a folded element: the depth of its end token
		afterKey  bool
		truncated bool
		stopped   bool
	)
	size := func() int { return plain.Len() + len(spans) } // plain bytes, line ends counted
	maxLines, maxBytes := foldLines, foldBytes
	indentLimit := jsonIndentLimit(w)
	if expand {
		maxLines, maxBytes = hardLines, hardBytes
	}
	punct, keyP, strP, numP, litP, dimP := painter(sty.JSONPunct), painter(sty.JSONKey),
		painter(sty.JSONString), painter(sty.JSONNumber), painter(sty.JSONLit), painter(sty.Dim)
	flush := func() {
		if open {
			// Grow by doubling (append grows a big buffer by a quarter,
			// copying the text four times over).
			for _, b := range []*strings.Builder{&plain, &styled} {
				if b.Cap()-b.Len() < 4096 {
					b.Grow(4096)
				}
			}
			spans = append(spans, span{p0, plain.Len(), s0, styled.Len()})
			p0, s0 = plain.Len(), styled.Len()
			open = false
		}
	}
	newLine := func(depth int) {
		flush()
		ind, deep := jsonIndent(depth, indentLimit)
		plain.WriteString(ind)
		if deep {
			styled.WriteString(dimP(ind))
		} else {
			styled.WriteString(ind)
		}
		open = true
	}
	put := func(text string, st func(string) string) {
		plain.WriteString(text)
		styled.WriteString(st(text))
	}
	comma := func() {
		// The previous element's last line gets the comma.
		if open {
			put(",", punct)
			return
		}
		if n := len(spans); n > 0 {
			put(",", punct) // nothing was written since that line ended
			spans[n-1].p1, spans[n-1].s1 = plain.Len(), styled.Len()
			p0, s0 = plain.Len(), styled.Len()
		}
	}
	token := func(t decode.Token) string {
		s := string(t.Raw)
		limit := foldString
		if expand {
			// Expanded, a string is cut only where the document would be.
			limit = max(maxBytes-size(), 64)
		}
		if len(s) > limit {
			more := len(s) - limit
			s = decode.Cut(s, limit) + fmt.Sprintf(`…" (+%d bytes)`, more)
		}
		return decode.Sanitize(s)
	}
	decode.Walk(data, func(t decode.Token) bool {
		if len(spans) >= maxLines || size() >= maxBytes {
			truncated = true
			return false
		}
		if stop != nil && len(spans)%1024 == 0 && stop() {
			stopped = true
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
			put(token(t), keyP)
			put(": ", punct)
			afterKey = true
			return true
		case decode.TokObjectStart, decode.TokArrayStart:
			if !afterKey {
				newLine(t.Depth)
			}
			put(string(t.Raw), punct)
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
				put(s, dimP)
			}
			if c.n > 0 {
				newLine(t.Depth)
			} else if !open {
				newLine(t.Depth)
			}
			put(string(t.Raw), punct)
		case decode.TokString:
			if !afterKey {
				newLine(t.Depth)
			}
			put(token(t), strP)
		case decode.TokNumber:
			if !afterKey {
				newLine(t.Depth)
			}
			put(decode.Sanitize(string(t.Raw)), numP)
		case decode.TokLiteral:
			if !afterKey {
				newLine(t.Depth)
			}
			put(string(t.Raw), litP)
		}
		afterKey = false
		return true
	})
	if stopped {
		return nil
	}
	flush()
	ptext, stext := plain.String(), styled.String()
	lines := make([]jline, len(spans), len(spans)+1)
	for i, sp := range spans {
		lines[i] = jline{ptext[sp.p0:sp.p1], stext[sp.s0:sp.s1]}
	}
	if truncated {
		s := fmt.Sprintf("… document cut at %d lines, %s (enter: expand)", len(lines), fmtBytes(int64(size())))
		if expand {
			s = fmt.Sprintf("… document cut at %d lines, %s: the pane's limit (framescope dump shows it all)", len(lines), fmtBytes(int64(size())))
		}
		lines = append(lines, jline{s, sty.Dim.Render(s)})
	}
	return lines
}

// painter renders text in st by wrapping it in the style's opening and
// closing sequences, found once by rendering a probe: lipgloss's Render
// costs microseconds a call, and a document makes one call per token.
// Styles that do more than colour and weight (a newline in the text, a
// probe that does not come back whole) go through Render.
func painter(st lipgloss.Style) func(string) string {
	const probe = "p q"
	out := st.Render(probe)
	i := strings.Index(out, probe)
	if i < 0 || strings.Contains(out[i+len(probe):], probe) {
		return func(s string) string { return st.Render(s) }
	}
	pre, suf := out[:i], out[i+len(probe):]
	return func(s string) string {
		if s == "" || strings.ContainsAny(s, "\n\t\r") {
			return st.Render(s)
		}
		return pre + s + suf
	}
}
