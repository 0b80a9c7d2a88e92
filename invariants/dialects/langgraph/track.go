package langgraph

// maxTracked bounds the ids a run's mapper remembers (message ids, tool
// call ids, partial text lengths, tool call chunk indexes): a run that
// names a new id on every frame must not grow memory without limit.
const maxTracked = 4096

// tracker is what the mapper remembers by id, under one bound. Keys are
// prefixed by what they name: "m" a message seen, "s" a message streamed
// (its text already shown), "o" a tool call opened, "c" one closed, "i"
// a tool call chunk's message and index, "p" a message/partial text
// length.
type tracker struct {
	ids  map[string]string
	full bool // the bound was hit (ids-bounded raised)
}

// get returns what is remembered under kind+id.
func (t *tracker) get(kind byte, id []byte) (string, bool) {
	if t.ids == nil {
		return "", false
	}
	var buf [128]byte
	k := append(append(buf[:0], kind), id...)
	v, ok := t.ids[string(k)] // no allocation: a map lookup by a converted slice
	return v, ok
}

func (t *tracker) has(kind byte, id []byte) bool {
	_, ok := t.get(kind, id)
	return ok
}

// put remembers v under kind+id; it reports false (and remembers nothing)
// once the bound is hit, and whether this call hit it (first).
func (t *tracker) put(kind byte, id []byte, v string) (ok, first bool) {
	if t.ids == nil {
		t.ids = make(map[string]string)
	}
	var buf [128]byte
	k := append(append(buf[:0], kind), id...)
	if old, there := t.ids[string(k)]; there {
		if old != v {
			t.ids[string(k)] = v
		}
		return true, false
	}
	if len(t.ids) >= maxTracked {
		// Checked before the key is made: past the bound a flood of new
		// ids allocates nothing here.
		first = !t.full
		t.full = true
		return false, first
	}
	t.ids[string(k)] = v
	return true, false
}
