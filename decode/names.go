package decode

import (
	"fmt"
)

// Name sets: the members a reader picks from an object, named once.
//
// A mapper reads a handful of an object's members and skips the rest.
// Written out, that is a switch on each key as it comes, and again, name
// by name, for a key that holds an escape ("\u0069d" is id) — the names
// listed twice. A NameSet is the names compiled once (at package init),
// looked up as the frame index looks up its keys (wordSet: a key is
// compared with the names of its length only, a word or two at a time);
// an escaped key is decoded once and looked up the same way; Pick fills
// one slot per name in one pass over the members.

// NameSet is a compiled set of member names, each picking into a slot
// (Names).
type NameSet struct {
	words wordSet  // the names; a name's id is its position in names
	names []string // in the order given, aliases last
	slots []uint8  // slots[id] is name id's slot
	n     int      // slots
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
	ns.words = newWordSet(ns.names)
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
	ns.words = newWordSet(ns.names)
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

// Slot is the slot of a member's key as the iterators hand it out (its
// raw bytes between the quotes, and whether it holds an escape: then it
// is decoded, once, and looked up decoded); -1 when the key is not in the
// set.
func (ns *NameSet) Slot(key []byte, esc bool) int {
	if esc {
		key = decodeKey(key)
	}
	id := ns.words.find(key)
	if id < 0 {
		return -1
	}
	return int(ns.slots[id])
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
