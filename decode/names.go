package decode

import (
	"encoding/binary"
	"fmt"
)

// Name sets: the members a reader picks from an object, named once.
//
// A mapper reads a handful of an object's members and skips the rest.
// Written out, that is a switch on each key as it comes, and again, name
// by name, for a key that holds an escape ("\u0069d" is id) — the names
// listed twice. A NameSet is the names compiled once (at package init):
// a key is compared with the names of its length only, a word or two at
// a time and without a call (its middle words too when it is longer than
// sixteen bytes: nested objects have such keys, response_metadata,
// content_filter_results); an escaped key is decoded once and looked up
// the same way; Pick fills one slot per name in one pass over the
// members.

// NameSet is a compiled set of member names, each picking into a slot
// (Names).
type NameSet struct {
	// byLen[n] is 1 + the first entry of the names n bytes long (0: no
	// name is), the others of that length chained by next.
	byLen []uint8
	ents  []nameEnt
	mid   []uint64 // the middle words of the names longer than 16 bytes
	names []string
	slots []uint8 // slots[i] is names[i]'s slot
	n     int     // slots
}

// nameEnt is one name of a NameSet.
type nameEnt struct {
	w1, w2 uint64 // keyWords of the name
	mid    uint32 // where its middle words start in NameSet.mid
	slot   uint8
	next   uint8 // 1 + the next entry of the same length, 0: none
}

// Names compiles names: the name at position i picks into slot i (dst[i]
// of Pick). It panics on a name listed twice (a slot no member could
// reach), empty or longer than 64 bytes, as on more than 255 names: a set
// is declared once, as a package variable, so the panic is at start-up.
func Names(names ...string) *NameSet {
	ns := &NameSet{n: len(names)}
	for i, name := range names {
		ns.add(name, i)
	}
	ns.build()
	return ns
}

// Alias adds name as another name of slot's member (a protocol's other
// spelling of it: the last member of either name wins the slot). It
// returns ns, for a set built in one declaration.
func (ns *NameSet) Alias(name string, slot int) *NameSet {
	if slot < 0 || slot >= ns.n {
		panic(fmt.Sprintf("decode.Names: alias %q to slot %d of %d", name, slot, ns.n))
	}
	ns.add(name, slot)
	ns.build()
	return ns
}

// Len is the number of slots: the length dst must have at least.
func (ns *NameSet) Len() int { return ns.n }

func (ns *NameSet) add(name string, slot int) {
	if len(ns.names) == 255 || name == "" || len(name) > maxWordLen {
		panic(fmt.Sprintf("decode.Names: %q: empty, longer than %d bytes, or past 255 names", name, maxWordLen))
	}
	for _, nm := range ns.names {
		if nm == name {
			panic(fmt.Sprintf("decode.Names: %q listed twice", name))
		}
	}
	ns.names = append(ns.names, name)
	ns.slots = append(ns.slots, uint8(slot))
}

// build lays the names out by length, a name listed earlier (the set's
// commoner members, as a reader lists them) ahead of a later one of the
// same length.
func (ns *NameSet) build() {
	maxN := 0
	for _, name := range ns.names {
		maxN = max(maxN, len(name))
	}
	ns.byLen, ns.ents, ns.mid = make([]uint8, maxN+1), ns.ents[:0], ns.mid[:0]
	for i := len(ns.names) - 1; i >= 0; i-- {
		k := []byte(ns.names[i])
		w1, w2 := keyWords(k)
		ns.ents = append(ns.ents, nameEnt{w1: w1, w2: w2, mid: uint32(len(ns.mid)), slot: ns.slots[i], next: ns.byLen[len(k)]})
		ns.byLen[len(k)] = uint8(len(ns.ents))
		for j := 8; j < len(k)-8; j += 8 {
			ns.mid = append(ns.mid, midWord(k, j))
		}
	}
}

// keyWords packs a key into two words that, with its length, tell it
// from every other key of up to 16 bytes: its first and last bytes, read
// overlapping (a key of 8 to 16 bytes is its first 8 and its last 8).
func keyWords(k []byte) (w1, w2 uint64) {
	switch n := len(k); {
	case n >= 8:
		return binary.LittleEndian.Uint64(k), binary.LittleEndian.Uint64(k[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(k)), uint64(binary.LittleEndian.Uint32(k[n-4:]))
	case n > 0:
		return uint64(k[0]) | uint64(k[n>>1])<<8 | uint64(k[n-1])<<16, 0
	}
	return 0, 0
}

// midWord is the word at k[j:] of a key longer than 16 bytes: its middle
// (k[8:len(k)-8]) is read 8 bytes at a time, the last word overlapping
// the one before.
func midWord(k []byte, j int) uint64 { return binary.LittleEndian.Uint64(k[min(j, len(k)-16):]) }

// Slot is the slot of a member's key as the iterators hand it out (its
// raw bytes between the quotes, and whether it holds an escape: then it
// is decoded, once, and looked up decoded); -1 when the key is not in the
// set.
func (ns *NameSet) Slot(key []byte, esc bool) int {
	if esc {
		key = decodeKey(key)
	}
	n := len(key)
	if n >= len(ns.byLen) {
		return -1
	}
	e := ns.byLen[n]
	if e == 0 {
		return -1
	}
	w1, w2 := keyWords(key)
	for e != 0 {
		ent := &ns.ents[e-1]
		if ent.w1 == w1 && ent.w2 == w2 && (n <= 16 || ns.midEqual(key, ent.mid)) {
			return int(ent.slot)
		}
		e = ent.next
	}
	return -1
}

// midEqual reports whether the middle words of k, longer than 16 bytes,
// are those at mid[at:].
func (ns *NameSet) midEqual(k []byte, at uint32) bool {
	m := ns.mid[at:]
	for j := 8; j < len(k)-8; j += 8 {
		if len(m) == 0 || m[0] != midWord(k, j) {
			return false
		}
		m = m[1:]
	}
	return true
}

// Pick reads the object value that starts obj in one pass: dst[s] gets
// the value of the member of slot s (the last one when a key repeats, as
// Get; nil when absent). It returns where the object ended in obj (obj
// may run on past it, as a value NextOpen left open does; 0 when obj is
// not an object), read as Raw.Members reads it. dst shorter than Len
// panics.
func (ns *NameSet) Pick(obj Raw, dst []Raw) int {
	dst = dst[:ns.n]
	found := clearFirst(dst)
	it := obj.Members()
	for k, esc, v, ok := it.Next(); ok; k, esc, v, ok = it.Next() {
		if s := ns.Slot(k, esc); s >= 0 {
			dst[s] = v
			found |= 1 << s
		}
	}
	clearMissing(dst, found)
	return it.End()
}

// PickMembers is Pick over members the scanner listed (a frame's
// Members): dst[s] gets the last value of slot s's key, nil when absent.
func (ns *NameSet) PickMembers(ms []Member, dst []Raw) {
	dst = dst[:ns.n]
	found := clearFirst(dst)
	for i := range ms {
		if s := ns.Slot(ms[i].Key, ms[i].KeyEsc); s >= 0 {
			dst[s] = ms[i].Value
			found |= 1 << s
		}
	}
	clearMissing(dst, found)
}

// The slots a pick does not find are set to nil: for a few slots after
// the pass, by the bits of found (a store per slot not found); for more,
// by a clear before it (one runtime call, cheaper than a dozen stores).

func clearFirst(dst []Raw) (found uint64) {
	if len(dst) > fewSlots {
		clear(dst)
		return ^uint64(0)
	}
	return 0
}

const fewSlots = 6

func clearMissing(dst []Raw, found uint64) {
	if found == ^uint64(0) {
		return
	}
	for i := range dst {
		if found&(1<<i) == 0 {
			dst[i] = nil
		}
	}
}
