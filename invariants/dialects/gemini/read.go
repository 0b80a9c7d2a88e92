package gemini

import "framescope/decode"

// A chunk's text lies five levels down (candidates[].content.parts[].text).
// Looking each level up with Get scans the level above it again, so a
// chunk's bytes were scanned once per level; readCandidate reads a
// candidate in one pass with decode's iterators (Raw.Members, Elements),
// entering content and its parts in place (NextOpen, Resume) and skipping
// the rest, keeping the members the mapper needs; candidate then maps
// them in the order it always did (index, then the parts, then
// finishReason, wherever they stand in the object: the API sends index
// last).
//
// Each reader takes a value as NextOpen hands it — a scalar whole, an
// object or array from its start to the end of the data — and returns the
// value's length, for the iterator that handed it to Resume after it.

// maxParts is how many parts of one candidate readCandidate keeps; a
// candidate with more is read again part by part (a chunk carries one or
// two: the kept parts must not grow with a hostile frame).
const maxParts = 8

// candFields is one candidate as readCandidate found it. Every value is a
// view of the frame's data, valid while the frame is.
type candFields struct {
	raw            decode.Raw // the whole candidate
	index, finish  decode.Raw
	content, parts decode.Raw // the last of each key, as Get reads it
	part           [maxParts]partFields
	nparts         int
	over           bool // more than maxParts parts: part holds none of them
}

// partFields is one Part's members the mapper reads.
type partFields struct {
	raw                               decode.Raw
	text, thought, call, code, result decode.Raw
}

// whole returns the value that starts v, and its length, when the reader
// does not look inside it.
func whole(v decode.Raw) (decode.Raw, int) {
	n := decode.ValueEnd(v, 0)
	return v[:n], n
}

// candNames are the members of a candidate readCandidate reads.
var candNames = decode.Names("content", "index", "finishReason")

const (
	candContent = iota
	candIndex
	candFinish
)

// readCandidate reads the candidate that starts v into cf.
func readCandidate(v decode.Raw, cf *candFields) int {
	cf.index, cf.finish, cf.content, cf.parts, cf.nparts, cf.over = nil, nil, nil, nil, 0, false
	if v.Kind() != decode.KindObject {
		var n int
		cf.raw, n = whole(v)
		return n
	}
	it := v.Members()
	for k, esc, mv, open, ok := it.NextOpen(); ok; k, esc, mv, open, ok = it.NextOpen() {
		slot := candNames.Slot(k, esc)
		if slot == candContent {
			if n := readContent(mv, cf); open {
				it.Resume(n)
			}
			continue
		}
		if open {
			var n int
			mv, n = whole(mv)
			it.Resume(n)
		}
		switch slot {
		case candIndex:
			cf.index = mv
		case candFinish:
			cf.finish = mv
		}
	}
	n := it.End()
	cf.raw = v[:n]
	return n
}

// readContent reads a candidate's content that starts v: its parts.
func readContent(v decode.Raw, cf *candFields) int {
	cf.parts, cf.nparts, cf.over = nil, 0, false
	if v.Kind() != decode.KindObject {
		var n int
		cf.content, n = whole(v)
		return n
	}
	it := v.Members()
	for k, esc, mv, open, ok := it.NextOpen(); ok; k, esc, mv, open, ok = it.NextOpen() {
		var n int
		if decode.KeyIs(k, esc, "parts") {
			n = readParts(mv, cf)
		} else if open {
			n = decode.ValueEnd(mv, 0)
		}
		if open {
			it.Resume(n)
		}
	}
	n := it.End()
	cf.content = v[:n]
	return n
}

// readParts reads the parts array that starts v (the last parts member
// wins, as with Get).
func readParts(v decode.Raw, cf *candFields) int {
	cf.nparts, cf.over = 0, false
	if v.Kind() != decode.KindArray {
		var n int
		cf.parts, n = whole(v)
		return n
	}
	it := v.Elements()
	for pv, open, ok := it.NextOpen(); ok; pv, open, ok = it.NextOpen() {
		var n int
		if cf.nparts == maxParts {
			cf.over = true // the rest is skipped unread
			if open {
				n = decode.ValueEnd(pv, 0)
			}
		} else {
			n = readPart(pv, &cf.part[cf.nparts])
			cf.nparts++
		}
		if open {
			it.Resume(n)
		}
	}
	n := it.End()
	cf.parts = v[:n]
	return n
}

// readPart reads the part that starts v into pf.
func readPart(v decode.Raw, pf *partFields) int {
	*pf = partFields{}
	if v.Kind() != decode.KindObject {
		var n int
		pf.raw, n = whole(v)
		return n
	}
	var f [5]decode.Raw
	n := partNames.Pick(v, f[:])
	pf.text, pf.thought, pf.call, pf.code, pf.result = f[0], f[1], f[2], f[3], f[4]
	pf.raw = v[:n]
	return n
}

// partNames are partFields' members, in its order.
var partNames = decode.Names("text", "thought", "functionCall", "executableCode", "codeExecutionResult")
