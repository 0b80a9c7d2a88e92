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
	set     map[uint64]struct{} // the ring's hashes, once the ids stopped growing
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
		e.set = make(map[uint64]struct{}, len(e.ring))
		for _, h := range e.ring {
			e.set[h] = struct{}{}
		}
	}
	h := maphash.String(e.seed, id)
	if !e.growing {
		if _, dup := e.set[h]; dup {
			return true
		}
	}
	e.last = id
	// The latest maxEventIDs are kept (a ring): a long stream stays in
	// flat memory, and a repeat further back goes unseen.
	if len(e.ring) < maxEventIDs {
		e.ring = append(e.ring, h)
	} else {
		if !e.growing {
			delete(e.set, e.ring[e.pos])
		}
		e.ring[e.pos] = h
		e.pos = (e.pos + 1) % maxEventIDs
	}
	if !e.growing {
		e.set[h] = struct{}{}
	}
	return false
}
