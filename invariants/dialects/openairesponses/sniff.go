package openairesponses

import (
	"framescope/decode"
	"framescope/invariants"
)

// sniff: a `type` in the response.* family with a numeric sequence_number is
// the dialect's signature, and so is an `error` event with one (no other
// dialect numbers its error frames that way: Anthropic's error has
// error.type only, typed-lines' error.code, the AI SDK's errorText).
// A response.* frame without sequence_number could be a lax
// re-implementation and stays in the running (Maybe), unless it carries the
// Realtime API's event_id (Realtime also names its events response.*).
func sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	typ := f.Get("type")
	if typ.Kind() != decode.KindString || f.Get("event_type") != nil || f.Get("event_id") != nil {
		return invariants.No
	}
	numbered := f.Get("sequence_number").Kind() == decode.KindNumber
	switch {
	case hasResponsePrefix(typ):
		if numbered {
			return invariants.Yes
		}
		return invariants.Maybe
	case typ.StrEq("error") && numbered:
		return invariants.Yes
	}
	return invariants.No
}

// hasResponsePrefix: the JSON string starts with "response." (no escapes
// in the prefix, as every server writes it).
func hasResponsePrefix(typ decode.Raw) bool {
	const p = `"response.`
	return len(typ) > len(p)+1 && string(typ[:len(p)]) == p
}
