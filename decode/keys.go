package decode

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Keys is a set of top-level keys a dialect reads from nearly every frame,
// declared by the dialect: decode knows no dialect's keys. A frame decoded
// with a Keys (Decoder.Keys, DecodeAt) notes, as the JSON scan meets each
// member, where the values of the set's keys lie in its data, and interns
// the string value of a key declared with Values as a small number: a
// lookup then reads a slot instead of comparing every member's key, and a
// dispatch on an interned value is a byte compare (frame_index.go). A
// frame decoded without the set, or with another one, answers the same
// lookups by scanning its members: the index changes the cost, never the
// answer.
//
// A Keys is immutable once made, and shared by every frame decoded with it.
type Keys struct {
	names []string
	slots wordSet // the names; a name's id is its slot
	// bySlot[s] is key s's name as words (n -1 past the last key): the
	// scan checks first whether a member's key is the key declared after
	// the last one it met (isSlot).
	bySlot [MaxKeys]slotWord
	// vocab[i] is the vocabulary key i's value is interned against (empty
	// without Values); tagged lists the keys that have one.
	vocab  []wordSet
	tagged []uint8
}

// Key is one declared key: its name as decoded, and, when Values is set,
// the strings its value is interned against (Frame.Tag).
type Key struct {
	Name   string
	Values []string
}

const (
	// MaxKeys is how many keys a set may declare: a frame keeps a slot
	// for each (nine bytes apiece, in every frame).
	MaxKeys = 16
	// maxKeyLen bounds a declared key's length, and maxValues a key's
	// vocabulary (a tag is one byte).
	maxKeyLen = maxWordLen
	maxValues = 255
)

// NewKeys makes a key set, the keys taking slots in the order given:
// the order frames usually carry them in, which the scan tries first
// (isSlot). It panics on a set it cannot index (too many keys or values; a key or a
// value declared twice, empty or longer than 64 bytes; a value that JSON
// writes escaped): a set is declared once, as a package variable, so the
// panic is at start-up.
func NewKeys(keys ...Key) *Keys {
	if len(keys) > MaxKeys {
		panic(fmt.Sprintf("decode.NewKeys: %d keys, at most %d", len(keys), MaxKeys))
	}
	ks := &Keys{names: make([]string, len(keys)), vocab: make([]wordSet, len(keys))}
	for i, k := range keys {
		checkWords("key", []string{k.Name}, ks.names[:i])
		ks.names[i] = k.Name
		if k.Values == nil {
			continue
		}
		if len(k.Values) > maxValues {
			panic(fmt.Sprintf("decode.NewKeys: key %q: %d values, at most %d", k.Name, len(k.Values), maxValues))
		}
		checkWords("value of "+k.Name, k.Values, nil)
		ks.vocab[i] = newWordSet(k.Values)
		ks.tagged = append(ks.tagged, uint8(i))
	}
	ks.slots = newWordSet(ks.names)
	for s := range ks.bySlot {
		ks.bySlot[s].n = -1
	}
	for _, w := range ks.slots.words {
		ks.bySlot[w.id] = slotWord{w.head, w.tail, len(w.s)}
	}
	return ks
}

type slotWord struct {
	head, tail uint64 // as word's
	n          int
}

// checkWords panics unless every string of ss is 1 to maxWordLen bytes,
// needs no JSON escape, and is in neither before nor the rest of ss.
func checkWords(what string, ss, before []string) {
	seen := map[string]bool{}
	for _, s := range before {
		seen[s] = true
	}
	for _, s := range ss {
		if s == "" || len(s) > maxWordLen || seen[s] {
			panic(fmt.Sprintf("decode.NewKeys: %s %q: empty, longer than %d bytes or declared twice", what, s, maxWordLen))
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
				panic(fmt.Sprintf("decode.NewKeys: %s %q: JSON writes it escaped", what, s))
			}
		}
		seen[s] = true
	}
}

// Len is the number of keys in the set.
func (ks *Keys) Len() int { return len(ks.names) }

// Name is key i's name.
func (ks *Keys) Name(i int) string { return ks.names[i] }

// slot returns the slot of a decoded key (-1: not in the set).
func (ks *Keys) slot(k []byte) int { return ks.slots.find(k) }

// isSlot reports whether a decoded key is the key of slot s%MaxKeys
// (false past the last key, and for a key it cannot compare by words).
// The scan asks it first of the key declared after the last one it met:
// frames carry their keys in much the same order, which a dialect
// declares them in, so most members are matched by two words here, before
// any lookup.
func (ks *Keys) isSlot(s int, k []byte) bool {
	e := &ks.bySlot[s&(MaxKeys-1)]
	switch n := len(k); {
	case n != e.n:
		return false
	case n >= 8:
		return n <= 16 && binary.LittleEndian.Uint64(k) == e.head && binary.LittleEndian.Uint64(k[n-8:]) == e.tail
	case cap(k) >= 8: // as in wordSet.find
		return binary.LittleEndian.Uint64(k[:8])&(1<<(8*n)-1) == e.head
	}
	return false
}

// slotString is slot for a key given as a string.
func (ks *Keys) slotString(k string) int { return ks.slots.findString(k) }

// intern returns 1 + the position of the string value r among key i's
// Values, escapes decoded (0: r is not a string, or none of them). The
// literal is looked up as it is first: a value needs no escape, so an
// unescaped literal equal to one is that value, and only a literal with a
// backslash is decoded to be looked up again.
func (ks *Keys) intern(i int, r Raw) uint8 {
	if len(r) < 2 || r[0] != '"' {
		return 0
	}
	v := &ks.vocab[i]
	in := r[1 : len(r)-1]
	if id := v.find(in); id >= 0 {
		return uint8(id + 1)
	}
	if bytes.IndexByte(in, '\\') < 0 {
		return 0
	}
	if id := v.findString(unquote(r)); id >= 0 {
		return uint8(id + 1)
	}
	return 0
}
