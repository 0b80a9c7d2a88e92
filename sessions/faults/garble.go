package faults

import (
	"bytes"
	"encoding/json"
)

// sseDataSpan is a `data` line of an SSE block: the line starts at ls, its
// value is [vs, le).
type sseDataSpan struct{ ls, vs, le int }

// sseDataLines finds the `data` lines of an SSE block.
func sseDataLines(raw []byte) []sseDataSpan {
	var out []sseDataSpan
	for i := 0; i < len(raw); {
		ls := i
		le := ls
		for le < len(raw) && raw[le] != '\n' && raw[le] != '\r' {
			le++
		}
		i = le
		if i < len(raw) {
			if raw[i] == '\r' && i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			i++
		}
		line := raw[ls:le]
		if len(line) == 0 || line[0] == ':' {
			continue
		}
		name, vs := line, le
		if c := bytes.IndexByte(line, ':'); c >= 0 {
			name = line[:c]
			vs = ls + c + 1
			if vs < le && raw[vs] == ' ' {
				vs++
			}
		}
		if string(name) == "data" {
			out = append(out, sseDataSpan{ls, vs, le})
		}
	}
	return out
}

// sseJoinData is the block's data buffer: the values joined by LF.
func sseJoinData(raw []byte, spans []sseDataSpan) []byte {
	var b []byte
	for i, s := range spans {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, raw[s.vs:s.le]...)
	}
	return b
}

// Garble returns a copy of an SSE block whose data is corrupted (serve's
// --garble, the proxy's --fault garble). JSON
// data gets a '#' in place of the ':' or ',' (outside strings) nearest its
// middle, so it is no longer valid JSON while most of it still reads; other
// data gets the byte nearest its middle changed. The block keeps its size
// and line structure, except when the data is empty: its first data line
// then becomes "data: #garbled".
func Garble(raw []byte) []byte {
	out := bytes.Clone(raw)
	spans := sseDataLines(out)
	if len(spans) == 0 {
		return out
	}
	total := len(spans) - 1
	for _, s := range spans {
		total += s.le - s.vs
	}
	if total == len(spans)-1 { // every value empty
		s := spans[0]
		g := append([]byte{}, out[:s.ls]...)
		g = append(g, "data: #garbled"...)
		return append(g, out[s.le:]...)
	}
	mid := total / 2
	if json.Valid(sseJoinData(out, spans)) {
		best, bestDist := -1, 0
		pos, inStr, esc := 0, false, false
		for i, s := range spans {
			if i > 0 {
				pos++ // the LF between lines
			}
			for p := s.vs; p < s.le; p, pos = p+1, pos+1 {
				c := out[p]
				switch {
				case esc:
					esc = false
				case inStr && c == '\\':
					esc = true
				case c == '"':
					inStr = !inStr
				case !inStr && (c == ':' || c == ','):
					if d := absInt(pos - mid); best < 0 || d < bestDist {
						best, bestDist = p, d
					}
				}
			}
		}
		if best >= 0 {
			orig := out[best]
			out[best] = '#'
			if !json.Valid(sseJoinData(out, spans)) {
				return out
			}
			out[best] = orig
		}
		// '#' cannot start a JSON value, and everything before the first
		// non-empty value is line feeds.
		for _, s := range spans {
			if s.le > s.vs {
				out[s.vs] = '#'
				return out
			}
		}
		return out
	}
	// Not JSON: change the byte nearest the middle, an ASCII one if there
	// is one (to keep UTF-8 valid).
	type cand struct{ p, d int }
	var ascii, anyb cand
	ascii.p, anyb.p = -1, -1
	pos := 0
	for i, s := range spans {
		if i > 0 {
			pos++
		}
		for p := s.vs; p < s.le; p, pos = p+1, pos+1 {
			c := out[p]
			if c == '#' {
				continue
			}
			d := absInt(pos - mid)
			if anyb.p < 0 || d < anyb.d {
				anyb = cand{p, d}
			}
			if c < 0x80 && (ascii.p < 0 || d < ascii.d) {
				ascii = cand{p, d}
			}
		}
	}
	switch {
	case ascii.p >= 0:
		out[ascii.p] = '#'
	case anyb.p >= 0:
		out[anyb.p] = '#'
	default: // all '#'
		for _, s := range spans {
			if s.le > s.vs {
				out[s.vs] = '!'
				break
			}
		}
	}
	return out
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
