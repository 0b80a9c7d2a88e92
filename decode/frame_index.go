package decode

// The frame index: decodeMembers resolves, once per frame, where the keys
// of the frame's key set (keys.go) sit among the top-level members, and
// interns the values the set asks for. Value and Tag then read a slot
// instead of comparing every member's key once per lookup.

// frameIndex is the per-frame index of the frame's key set (Frame.keys):
// a frame with a set answers its lookups from the index; one without (nil
// keys: decoded without a set, built by hand) scans its members. An index
// is complete whenever the frame's keys are set and anyone can ask: the
// scan fills it before the frame is handed out, and a frame whose scan
// found no members (not JSON, an error, `{}`) has none to find.
type frameIndex struct {
	// slot[k] is where the value of the last member with key k of the
	// set lies in Data (end 0: absent). Offsets, not members: reading a
	// slot touches the frame and its data, never the Members array (a
	// cache miss per frame on the checking core).
	slot [MaxKeys]valSpan
	// tag[k] is the interned value of key k of the set (Keys.intern; 0
	// for a key declared without Values).
	tag [MaxKeys]uint8
	// escKeys: a member key has escapes, so the index is built after the
	// scan from the decoded keys (indexMembers).
	escKeys bool
	// next is the slot after the one the scan noted last (Keys.isSlot).
	next uint8
}

// valSpan is a value's position in the frame's Data.
type valSpan struct{ off, end uint32 }

// indexMembers builds the index from the decoded members, in one pass:
// the last member of a key wins.
func (f *Frame) indexMembers() {
	f.idx = frameIndex{}
	if len(f.Data) >= 1<<32-1 { // offsets are 32-bit: the frame is scanned instead
		f.keys = nil
		return
	}
	for i := range f.Members {
		m := &f.Members[i]
		k := m.Key
		if m.KeyEsc {
			k = []byte(unquote(append(append([]byte{'"'}, k...), '"')))
		}
		if s := f.keys.slot(k); s >= 0 {
			off := cap(f.Data) - cap(m.Value) // Value is a subslice of Data
			f.idx.slot[s] = valSpan{uint32(off), uint32(off + len(m.Value))}
		}
	}
	f.internTags()
}

// note records a member while the scanner has it at hand: data[off:end]
// is the value of member index m. A key with escapes is left to
// finishIndex.
func (f *Frame) note(k []byte, esc bool, off, end, m int) {
	if esc {
		f.idx.escKeys = true
		return
	}
	ks := f.keys
	s := int(f.idx.next) & (MaxKeys - 1)
	if !ks.isSlot(s, k) { // the key declared after the last one met, or any
		if s = ks.slot(k); s < 0 {
			return
		}
	}
	f.idx.slot[s&(MaxKeys-1)] = valSpan{uint32(off), uint32(end)}
	f.idx.next = uint8(s + 1)
}

// finishIndex completes the index the scan noted (or builds it again
// from the decoded keys when one had escapes).
func (f *Frame) finishIndex() {
	if f.idx.escKeys || len(f.Data) >= 1<<32-1 {
		f.indexMembers()
		return
	}
	f.internTags()
}

// internTags interns the values of the set's keys declared with Values.
func (f *Frame) internTags() {
	ks := f.keys
	for _, i := range ks.tagged {
		if sp := f.idx.slot[i]; sp.end != 0 {
			// Not capped at the value, as slotValue caps it: a short
			// literal is then matched by words (wordSet.find).
			f.idx.tag[i] = ks.intern(int(i), Raw(f.Data[sp.off:sp.end]))
		}
	}
}

// slotValue is the value in slot s of an indexed frame (nil when absent).
func (f *Frame) slotValue(s int) Raw {
	if sp := f.idx.slot[s]; sp.end != 0 {
		return Raw(f.Data[sp.off:sp.end:sp.end])
	}
	return nil
}

// Value returns the value of key i of ks (the last member with that key),
// or nil: a slot when f was decoded with ks, the members scanned
// otherwise.
func (f *Frame) Value(ks *Keys, i int) Raw {
	if f.keys == ks {
		return f.slotValue(i)
	}
	return f.scanGet(ks.names[i])
}

// Values sets dst[i] to Value(ks, i) for each i < len(dst) (at most
// ks.Len()): a dialect reading the first keys of its set on every frame
// (its envelope) makes one call, not one per key.
func (f *Frame) Values(ks *Keys, dst []Raw) {
	if f.keys != ks {
		for i := range dst {
			dst[i] = f.scanGet(ks.names[i])
		}
		return
	}
	for i := range dst {
		dst[i] = f.slotValue(i & (MaxKeys - 1))
	}
}

// Tag returns 1 + the position of the string value of key i of ks among
// the key's Values, escapes decoded: 0 when absent, not a string, none of
// them, or the key was declared without Values. A frame decoded with ks
// has it at hand (small enough to inline: a dispatch on it is a load and a
// compare); any other interns it on each call.
func (f *Frame) Tag(ks *Keys, i int) uint8 {
	if f.keys == ks {
		return f.idx.tag[i]
	}
	return f.scanTag(ks, i)
}

func (f *Frame) scanTag(ks *Keys, i int) uint8 { return ks.intern(i, f.scanGet(ks.names[i])) }

// scanGet looks key up member by member (the last one wins).
func (f *Frame) scanGet(key string) Raw {
	var v Raw
	for i := range f.Members {
		m := &f.Members[i]
		if keyEquals(m.Key, m.KeyEsc, key) {
			v = m.Value
		}
	}
	return v
}
