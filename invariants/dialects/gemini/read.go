package gemini

import "framescope/decode"

// A chunk's text lies five levels down (candidates[].content.parts[].text).
// Looking each level up with Get scans the level above it again, so a
// chunk's bytes were scanned once per level; readCandidate reads a
// candidate in one pass with a decode.Cursor, keeping the members the
// mapper needs, and candidate then maps them in the order it always did
// (index, then the parts, then finishReason, wherever they stand in the
// object: the API sends index last).

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

// readCandidate reads the candidate at the cursor into cf.
func readCandidate(c *decode.Cursor, cf *candFields) {
	mark := c.Mark()
	cf.index, cf.finish, cf.content, cf.parts, cf.nparts, cf.over = nil, nil, nil, nil, 0, false
	if !c.Object() {
		cf.raw = c.Value()
		return
	}
	for k, ok := c.Member(); ok; k, ok = c.Member() {
		switch string(k) {
		case "index":
			cf.index = c.Value()
		case "finishReason":
			cf.finish = c.Value()
		case "content":
			readContent(c, cf)
		}
	}
	cf.raw = c.Since(mark)
}

// readContent reads a candidate's content: its parts.
func readContent(c *decode.Cursor, cf *candFields) {
	mark := c.Mark()
	cf.parts, cf.nparts, cf.over = nil, 0, false
	if !c.Object() {
		cf.content = c.Value()
		return
	}
	for k, ok := c.Member(); ok; k, ok = c.Member() {
		if string(k) != "parts" {
			continue
		}
		cf.nparts, cf.over = 0, false
		pm := c.Mark()
		if !c.Array() {
			cf.parts = c.Value()
			continue
		}
		for c.Elem() {
			if cf.nparts == maxParts {
				cf.over = true // the rest is skipped unread
				continue
			}
			readPart(c, &cf.part[cf.nparts])
			cf.nparts++
		}
		cf.parts = c.Since(pm)
	}
	cf.content = c.Since(mark)
}

// readPart reads the part at the cursor into pf.
func readPart(c *decode.Cursor, pf *partFields) {
	mark := c.Mark()
	*pf = partFields{}
	if !c.Object() {
		pf.raw = c.Value()
		return
	}
	for k, ok := c.Member(); ok; k, ok = c.Member() {
		switch string(k) {
		case "text":
			pf.text = c.Value()
		case "thought":
			pf.thought = c.Value()
		case "functionCall":
			pf.call = c.Value()
		case "executableCode":
			pf.code = c.Value()
		case "codeExecutionResult":
			pf.result = c.Value()
		}
	}
	pf.raw = c.Since(mark)
}
