package decode

// PayloadExcerpt returns the frame's data without its envelope members —
// what differs from frame to frame — as compact raw JSON text:
// `status {"data":{"event_id":"x","message":"y"}}`. Undecoded frames give
// their raw data. The result is NOT sanitized.
func (f *Frame) PayloadExcerpt(max int) string {
	if !f.Decoded() {
		return clipBytes(f.Data, max)
	}
	b := make([]byte, 0, 64)
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
		if len(b) > max {
			break
		}
	}
	b = append(b, '}')
	return clipBytes(b, max)
}

func clipBytes(b []byte, max int) string {
	if len(b) <= max {
		return string(b)
	}
	cut := max
	for cut > 0 && b[cut]&0xc0 == 0x80 {
		cut--
	}
	return string(b[:cut]) + "…"
}
