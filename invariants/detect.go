package invariants

import "framescope/decode"

// SniffFrames is how many decodable frames detection reads before it
// settles on the best ambiguous candidate (or sse).
const SniffFrames = 8

// Detector picks a stream's dialect from its first frames (DIALECTS.md
// "Recognising a dialect"): the first frame that carries one dialect's
// signature decides; frames that several dialects could send (a
// {"type":"ping"}) only narrow the field, and undecodable frames and [DONE]
// say nothing. Never from a file name.
type Detector struct {
	cands  []Dialect
	maybe  []int // per candidate: frames it judged Maybe
	ruled  []bool
	seen   int
	chosen Dialect
}

// NewDetector returns a detector over the candidates, in priority order
// (the first wins a tie).
func NewDetector(cands []Dialect) *Detector {
	return &Detector{cands: cands, maybe: make([]int, len(cands)), ruled: make([]bool, len(cands))}
}

// Feed judges one frame; it returns the dialect once decided.
func (d *Detector) Feed(f *decode.Frame) (Dialect, bool) {
	if d.chosen != nil {
		return d.chosen, true
	}
	if !f.Decoded() {
		// Plain text before any JSON says sse at once (a live ticker must
		// not wait); a broken JSON object or [DONE] says nothing yet.
		if d.seen == 0 && !f.Done && f.Problem == decode.ProblemNotJSON && !looksLikeObject(f.Data) {
			d.chosen = SSE
			return SSE, true
		}
		return nil, false
	}
	d.seen++
	for i, c := range d.cands {
		switch c.Sniff(f) {
		case Yes:
			d.chosen = c
			return c, true
		case Maybe:
			d.maybe[i]++
		case No:
			d.ruled[i] = true
		}
	}
	if d.seen >= SniffFrames {
		return d.Finish(), true
	}
	return nil, false
}

// Finish decides with what was seen: the candidate that could have sent
// every frame and was judged Maybe most, else sse.
func (d *Detector) Finish() Dialect {
	if d.chosen != nil {
		return d.chosen
	}
	best, bestN := -1, 0
	for i := range d.cands {
		if !d.ruled[i] && d.maybe[i] > bestN {
			best, bestN = i, d.maybe[i]
		}
	}
	if best >= 0 {
		d.chosen = d.cands[best]
	} else {
		d.chosen = SSE
	}
	return d.chosen
}

// looksLikeObject: the data starts like a JSON object (whitespace, then {).
func looksLikeObject(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}
