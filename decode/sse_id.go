package decode

import "unsafe"

// idArenaSize is the size of the blocks event ids are carved from.
const idArenaSize = 4 << 10

// idString returns the event id b as a string without an allocation of
// its own. A stream that sends an id on every event (MCP's Streamable
// HTTP with an event store, chunk-framed's counters) gave every event a
// fresh string: a sixth of the reader's time on MCP's 60-byte ids. The
// ids are copied into an append-only block instead, and each string is a
// view of its bytes there. Bytes once written are never written again —
// a full block is left to the strings that point into it (the GC keeps
// it while one does) and a new one begun — so the strings are as
// immutable as any. A long id (over an eighth of a block) gets a string
// of its own, so a block is never mostly waste.
func (f *Framer) idString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > idArenaSize/8 {
		return string(b)
	}
	if cap(f.idArena)-len(f.idArena) < len(b) {
		f.idArena = make([]byte, 0, idArenaSize)
	}
	at := len(f.idArena)
	f.idArena = append(f.idArena, b...)
	return unsafe.String(&f.idArena[at], len(b))
}
