package invariants

import (
	"slices"

	"framescope/decode"
)

// SniffFrames is how many decodable frames detection reads before it
// settles on the best ambiguous candidate (or sse).
const SniffFrames = 8

// Detector picks a stream's dialect from its first frames (docs/dialects.md
// "Recognising a dialect"): the first frame that carries one dialect's
// signature decides; frames that several dialects could send (a
// {"type":"ping"}) only narrow the field, and undecodable frames and [DONE]
// say nothing. Never from a file name.
type Detector struct {
	cands   []Dialect
	foreign []Keys // per candidate: ForeignKeys over the candidates (shared)
	maybe   []int  // per candidate: frames it judged Maybe
	ruled   []bool
	seen    int
	chosen  Dialect
}

// NewDetector returns a detector over the candidates, in priority order
// (the first wins a tie).
func NewDetector(cands []Dialect) *Detector {
	return NewDetectorSet(cands).New()
}

// DetectorSet is what detection over fixed candidates works out once:
// each candidate's foreign keys. A proxy starts a detector per stream;
// computing the keys for each cost ~25 KB and a walk over every
// dialect's envelope, the same every time.
type DetectorSet struct {
	cands   []Dialect
	foreign []Keys
}

// NewDetectorSet works out the candidates' foreign keys.
func NewDetectorSet(cands []Dialect) *DetectorSet {
	s := &DetectorSet{cands: cands, foreign: make([]Keys, len(cands))}
	for i, c := range cands {
		s.foreign[i] = ForeignKeys(c, cands)
	}
	return s
}

// New returns a fresh detector over the set (the keys are shared, read
// only).
func (s *DetectorSet) New() *Detector {
	return &Detector{cands: s.cands, foreign: s.foreign, maybe: make([]int, len(s.cands)), ruled: make([]bool, len(s.cands))}
}

// Feed judges one frame; it returns the dialect once decided.
func (d *Detector) Feed(f *decode.Frame) (Dialect, bool) {
	if d.chosen != nil {
		return d.chosen, true
	}
	if !f.Decoded() {
		// A dialect may open with a frame that is not a JSON object of its
		// own (MCP's legacy endpoint event or a JSON-RPC batch claims the
		// stream; its priming event, an id with empty data, waits).
		wait := false
		if !f.Done {
			for _, c := range d.cands {
				if ts, ok := c.(TextSniffer); ok {
					switch ts.SniffText(f) {
					case Yes:
						d.chosen = c
						return c, true
					case Maybe:
						wait = true
					}
				}
			}
		}
		// Plain text before any JSON says sse at once (a live ticker must
		// not wait); a broken JSON object or [DONE] says nothing yet.
		if !wait && d.seen == 0 && !f.Done && f.Problem == decode.ProblemNotJSON && !looksLikeObject(f.Data) {
			d.chosen = SSE
			return SSE, true
		}
		return nil, false
	}
	d.seen++
	for i, c := range d.cands {
		switch c.Sniff(f, d.foreign[i]) {
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

// TextSniffer is a Dialect whose stream may open with a frame that is not
// JSON (MCP's legacy transport: event: endpoint, data: a URL): SniffText
// judges such a first frame: Yes claims the stream, Maybe waits for the
// next frame to decide.
type TextSniffer interface {
	SniffText(f *decode.Frame) Verdict
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

// Keys is a set of top-level JSON member names.
type Keys struct{ names []string }

// KeysOf makes a set of member names.
func KeysOf(names ...string) Keys { return Keys{names: names} }

// In reports whether the frame carries one of the members.
func (k Keys) In(f *decode.Frame) bool {
	for _, n := range k.names {
		if f.Get(n) != nil {
			return true
		}
	}
	return false
}

// Names lists the set's members.
func (k Keys) Names() []string { return k.names }

// ForeignKeys is what d reads as another dialect's envelope: the keys the
// other dialects declare (EnvelopeKeys) that d does not declare itself. A
// key several dialects share (type) is foreign only to those that declare
// none of it.
func ForeignKeys(d Dialect, all []Dialect) Keys {
	own := d.EnvelopeKeys()
	var out []string
	for _, o := range all {
		if o == d {
			continue
		}
		for _, k := range o.EnvelopeKeys() {
			if !slices.Contains(own, k) && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return Keys{names: out}
}
