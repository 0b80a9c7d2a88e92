package decode

// PayloadExcerpt returns the frame's data without its envelope members —
// what differs from frame to frame — as compact raw JSON text:
// `status {"data":{"event_id":"x","message":"y"}}`. Undecoded frames give
// their raw data. The result is NOT sanitized.
func (f *Frame) PayloadExcerpt(max int) string {
	return string(f.AppendPayloadExcerpt(nil, max))
}

// AppendPayloadExcerpt appends PayloadExcerpt(max) to dst: a report making
// an excerpt for each listed alarm reuses one buffer.
func (f *Frame) AppendPayloadExcerpt(dst []byte, max int) []byte {
	if !f.Decoded() {
		return appendClipped(dst, f.Data, max)
	}
	start := len(dst)
	b := dst
	if et, ok := f.EventType.Str(); ok {
		b = append(b, et...)
		b = append(b, ' ')
	}
	b = append(b, '{')
	n := 0
	for i := range f.Members {
		m := &f.Members[i]
		switch string(m.Key) {
		case "event_type", "version", "timestamp", "response_id":
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
