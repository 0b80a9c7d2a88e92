package decode

// The validating scanner's reading of a value, the oracle the tests hold
// Raw's readers (which trust the bytes) to: members as ScanObject lists
// them, elements as skipValue finds them, a member as the last of its key.

// validMembers lists the members of the object value r (none when r is
// not exactly one valid object).
func validMembers(r Raw) []Member {
	ms, isObj, err := ScanObject(r, nil)
	if err != nil || !isObj {
		return nil
	}
	return ms
}

// validKey is a listed member's key decoded.
func validKey(m Member) string {
	if !m.KeyEsc {
		return string(m.Key)
	}
	return unquote(append(append([]byte{'"'}, m.Key...), '"'))
}

// validGet is the value of the last member of r whose key is key.
func validGet(r Raw, key string) Raw {
	var v Raw
	for _, m := range validMembers(r) {
		if validKey(m) == key {
			v = m.Value
		}
	}
	return v
}

// validElements lists the elements of the array value r, validating each
// (the walk stops at the first error).
func validElements(r Raw) []Raw {
	if r.Kind() != KindArray {
		return nil
	}
	var els []Raw
	i := skipWS(r, 1)
	if i < len(r) && r[i] == ']' {
		return nil
	}
	for i < len(r) {
		i = skipWS(r, i)
		end, err := skipValue(r, i)
		if err != nil {
			return els
		}
		els = append(els, r[i:end])
		i = skipWS(r, end)
		if i >= len(r) || r[i] != ',' {
			return els
		}
		i++
	}
	return els
}
