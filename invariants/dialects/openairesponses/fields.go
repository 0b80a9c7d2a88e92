package openairesponses

import (
	"strconv"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// malformed raises payload-malformed once per frame (the first fault),
// and once per stream for one fault of one event type: a server that
// leaves a field out leaves it out of every such event (llama.cpp's
// output_text.delta carries no output_index), one defect and one alarm.
// The first frame that shows a fault is the one reported.
func (p *mapper) malformed(m *invariants.Mapping, event, what string) {
	if p.bad {
		return
	}
	p.bad = true
	field := what
	if i := strings.IndexByte(what, ' '); i > 0 {
		field = what[:i]
	}
	for _, f := range p.faults {
		if f.event == event && f.field == field {
			return
		}
	}
	if len(p.faults) < maxFaults {
		p.faults = append(p.faults, fault{event, field})
	}
	m.Malformed(event, what)
}

// fault is a payload-malformed already reported: the event type and the
// field at fault. maxFaults bounds the list (past it, faults are reported
// every time again).
type fault struct{ event, field string }

const maxFaults = 64

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
