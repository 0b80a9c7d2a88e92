package openairesponses

import (
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// malformed raises payload-malformed once per frame (the first fault).
func (p *mapper) malformed(m *invariants.Mapping, event, what string) {
	if p.bad {
		return
	}
	p.bad = true
	m.Malformed(event, what)
}

// index reads a required integer index field (output_index, content_index,
// summary_index): its JSON value and number.
func (p *mapper) index(f *decode.Frame, m *invariants.Mapping, ev *event, field string) (decode.Raw, int64, bool) {
	raw := f.Get(field)
	n, ok := invariants.Int(raw)
	if !ok || n < 0 {
		p.malformed(m, ev.name, field+" is "+kindOrValue(raw)+", want an integer ≥ 0")
		return nil, 0, false
	}
	return raw, n, true
}

// str checks a required string field.
func (p *mapper) str(f *decode.Frame, m *invariants.Mapping, ev *event, field string) bool {
	if v := f.Get(field); v.Kind() != decode.KindString {
		p.malformed(m, ev.name, field+" is "+invariants.KindName(v)+", want a string")
		return false
	}
	return true
}

// partKey is a part's span key, the JSON array [output_index,index],
// written into the mapper's scratch buffer (valid until the next frame,
// as moves are).
func (p *mapper) partKey(oi, idx int64) decode.Raw {
	b := append(p.kbuf[:0], '[')
	b = strconv.AppendInt(b, oi, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, idx, 10)
	b = append(b, ']')
	p.kbuf = b
	return decode.Raw(b)
}

// kindOrValue names a value for a message: its type, or the number itself
// when it is one (a fraction, a negative index).
func kindOrValue(r decode.Raw) string {
	if r.Kind() == decode.KindNumber {
		return decode.Clip(string(r), 24)
	}
	return invariants.KindName(r)
}

// clipRaw renders a JSON value for a message.
func clipRaw(r []byte) string {
	if s, ok := decode.Raw(r).Str(); ok {
		return strconv.Quote(decode.Clip(s, 60))
	}
	if len(r) == 0 {
		return "(none)"
	}
	return decode.Clip(string(r), 60)
}
