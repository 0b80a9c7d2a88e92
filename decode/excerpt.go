package decode

// Excerpt says how a frame is shortened to what differs from frame to
// frame (a dialect's envelope repeats in every frame): the string value
// of the member Lead names goes first, and the members Omit names are
// left out. The excerpt's reader supplies it; decode knows no dialect's
// keys.
type Excerpt struct {
	Lead string
	// Omit lists keys as they are written in the frame (an escaped
	// spelling of one is kept).
	Omit []string
}

// PayloadExcerpt returns the frame's data shortened as x says, as compact
// raw JSON text, the lead's value first: `status {"data":{"event_id":"x"}}`.
// Undecoded frames give their raw data. The result is NOT sanitized.
func (f *Frame) PayloadExcerpt(max int, x *Excerpt) string {
	return string(f.AppendPayloadExcerpt(nil, max, x))
}

// AppendPayloadExcerpt appends PayloadExcerpt(max, x) to dst: a report
// making an excerpt for each listed alarm reuses one buffer.
func (f *Frame) AppendPayloadExcerpt(dst []byte, max int, x *Excerpt) []byte {
	if !f.Decoded() {
		return appendClipped(dst, f.Data, max)
	}
	start := len(dst)
	b := dst
	if lead, ok := f.Get(x.Lead).Str(); ok && x.Lead != "" {
		b = append(b, lead...)
		b = append(b, ' ')
	}
	b = append(b, '{')
	n := 0
	for i := range f.Members {
		m := &f.Members[i]
		if x.omits(m.Key) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '"')
		b = append(b, m.Key...)
		b = append(b, '"', ':')
		b = append(b, m.Value...)
		if len(b)-start > max {
			break
		}
	}
	b = append(b, '}')
	if len(b)-start <= max {
		return b
	}
	return appendClipped(b[:start], b[start:], max) // in place: the cut is a prefix
}

// appendClipped appends b cut to max bytes at a rune boundary, with "…"
// when cut.
func appendClipped(dst, b []byte, max int) []byte {
	if len(b) <= max {
		return append(dst, b...)
	}
	cut := max
	for cut > 0 && b[cut]&0xc0 == 0x80 {
		cut--
	}
	return append(append(dst, b[:cut]...), "…"...)
}

func (x *Excerpt) omits(k []byte) bool {
	for _, o := range x.Omit {
		if o == string(k) {
			return true
		}
	}
	return false
}
