package mcp

import "hash/maphash"

// eventIDs remembers a stream's latest maxEventIDs SSE event ids, to tell
// a repeat (Transports §Resumability: an id identifies one event of the
// stream). A long tool's stream carries an id on every event, so this is
// on the hot path:
//
//   - while the ids only grow (longer, or as long and greater: a counter),
//     a greater one is fresh without a lookup;
//   - once one does not (the TypeScript SDK's example store makes
//     streamId_milliseconds_random ids: two events of one millisecond
//     compare by their random part; the Python SDK's makes UUIDs), the
//     latest ids are looked up by a 64-bit hash of each, kept in a ring
//     and a set: no string is kept or copied per event. Two different ids
//     share a hash with odds of 2^-64 a pair, so a false repeat is
//     out of reach (4096 ids remembered: 2^-52 per event).
type eventIDs struct {
	started bool
	growing bool
	last    string // the greatest id while they grow (the frame's own string)
	seed    maphash.Seed
	ring    []uint64 // hashes of the latest ids, oldest at pos once full
	pos     int
	set     *hashSet // the ring's hashes, once the ids stopped growing
}

// repeat records id and reports whether it repeats one of the latest
// maxEventIDs (then it is not recorded again).
func (e *eventIDs) repeat(id string) bool {
	if !e.started {
		e.started, e.growing = true, true
		e.seed = maphash.MakeSeed()
		e.ring = make([]uint64, 0, 64)
	} else if e.growing && (len(id) < len(e.last) || len(id) == len(e.last) && id <= e.last) {
		// The ids stopped growing: index the ones remembered.
		e.growing = false
		e.set = new(hashSet)
		for _, h := range e.ring {
			e.set.add(h)
		}
	}
	h := maphash.String(e.seed, id) | 1 // never 0: hashSet's empty slot
	if !e.growing && e.set.has(h) {
		return true
	}
	e.last = id
	// The latest maxEventIDs are kept (a ring): a long stream stays in
	// flat memory, and a repeat further back goes unseen.
	if len(e.ring) < maxEventIDs {
		e.ring = append(e.ring, h)
	} else {
		if !e.growing {
			e.set.remove(e.ring[e.pos])
		}
		e.ring[e.pos] = h
		e.pos = (e.pos + 1) % maxEventIDs
	}
	if !e.growing {
		e.set.add(h)
	}
	return false
}

// hashSet holds up to maxEventIDs hashes (none 0) in twice as many slots,
// by linear probing; a removal shifts back the run after it (Knuth 6.4,
// algorithm R), so no tombstones build up over a long stream. A Go map
// cost a third of the mapper's time on a stream of ids that do not grow.
type hashSet struct {
	slot [2 * maxEventIDs]uint64
}

const hashMask = 2*maxEventIDs - 1

func (s *hashSet) has(h uint64) bool {
	for i := h & hashMask; s.slot[i] != 0; i = (i + 1) & hashMask {
		if s.slot[i] == h {
			return true
		}
	}
	return false
}

// add puts h in the set (it is not there; at most maxEventIDs are).
func (s *hashSet) add(h uint64) {
	i := h & hashMask
	for s.slot[i] != 0 {
		i = (i + 1) & hashMask
	}
	s.slot[i] = h
}

// remove takes h out of the set (a no-op when it is not there).
func (s *hashSet) remove(h uint64) {
	i := h & hashMask
	for s.slot[i] != h {
		if s.slot[i] == 0 {
			return
		}
		i = (i + 1) & hashMask
	}
	// Move back each later entry of the run whose home slot is not
	// between the hole and it (cyclically), so every entry stays
	// reachable from its home without a gap.
	for j := (i + 1) & hashMask; s.slot[j] != 0; j = (j + 1) & hashMask {
		home := s.slot[j] & hashMask
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			s.slot[i] = s.slot[j]
			i = j
		}
	}
	s.slot[i] = 0
}
