package a2a

import (
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// ADK's A2A converter marks a DataPart that carries a function call or
// its response in the part's metadata (google/adk-python
// a2a/converters/part_converter.py: A2A_DATA_PART_METADATA_TYPE_KEY
// "type" under the "adk_" prefix; adk-java writes it unprefixed).
const adkTypeKey, adkTypeKeyJava = "adk_type", "type"

// adkThoughtKey marks a text part that is a model thought (ADK's part
// converter writes metadata {"adk_thought": true}).
const adkThoughtKey = "adk_thought"

// partNames are the members of a part the mapper reads.
var partNames = decode.Names("text", "data", "metadata")

// parts maps a Message's or Artifact's parts (§4.1.6; v0.3 §6.5): text
// parts are text (in the artifact's span when key is set); a DataPart ADK
// marks as a function call opens a tool call, its function_response
// closes it; file and other data parts move nothing.
func (p *mapper) parts(m *invariants.Mapping, parts, key decode.Raw) {
	switch parts.Kind() {
	case decode.KindArray:
	case decode.KindNone:
		return
	default:
		m.Malformed("parts", "parts is "+invariants.KindName(parts)+", want an array")
		return
	}
	it := parts.Elements()
	for part, open, ok := it.NextOpen(); ok; part, open, ok = it.NextOpen() {
		if part.Kind() != decode.KindObject {
			if open { // an array: skipped
				end := decode.ValueEnd(part, 0)
				it.Resume(end)
				part = part[:max(end, 0)]
			}
			m.Malformed("parts", "a part is "+invariants.KindName(part)+", want an object")
			continue
		}
		// One pass over the part's members, as the pass over the parts
		// reaches it (a text chunk's part is the stream's hot path).
		var pv [3]decode.Raw
		it.Resume(partNames.Pick(part, pv[:]))
		t, d, md := pv[0], pv[1], pv[2]
		if t != nil {
			if t.Kind() != decode.KindString {
				m.Malformed("parts", "a part's text is "+invariants.KindName(t)+", want a string")
				continue
			}
			mv := invariants.Move{Kind: invariants.MoveText, Text: t}
			if key != nil {
				mv.Span, mv.Key = invariants.SpanItem, key
			} else if th, _ := md.Get(adkThoughtKey).Bool(); th {
				// ADK marks a model thought's text part (part
				// converter: metadata adk_thought true).
				mv.Kind = invariants.MoveReasoning
			}
			m.Add(mv)
			continue
		}
		if d.Kind() == decode.KindObject {
			typ := md.Get(adkTypeKey)
			if typ == nil {
				typ = md.Get(adkTypeKeyJava)
			}
			p.adkData(m, d, typ)
		}
	}
}

// adkData maps ADK's function_call and function_response data parts.
func (p *mapper) adkData(m *invariants.Mapping, d, typ decode.Raw) {
	switch {
	case typ.StrEq("function_call"):
		name := d.Get("name")
		if !name.IsNonEmptyStr() {
			m.Raise("tool-malformed", invariants.SevError, "a function_call data part without a name (%s): the caller cannot dispatch it", invariants.KindName(name))
			return
		}
		key := d.Get("id")
		if !key.IsNonEmptyStr() {
			p.calls++
			key = invariants.Lit("call " + strconv.Itoa(p.calls))
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: key, Name: name})
		if args := d.Get("args"); args != nil {
			m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: key, Text: args})
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
		if p.tools.find(key) < 0 {
			p.tools.add(key)
		}
	case typ.StrEq("function_response"):
		key := d.Get("id")
		if !key.IsNonEmptyStr() {
			if p.calls == 0 {
				return
			}
			key = invariants.Lit("call " + strconv.Itoa(p.calls))
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key, Name: strOrNil(d.Get("name")), Outcome: invariants.TurnCompleted})
		p.tools.remove(key)
	}
}
