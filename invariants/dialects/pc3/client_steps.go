package pc3

import (
	"bytes"
	"sync"

	"framescope/decode"
)

// unkeyedSteps() holds, per machine, region and region row, a one-step
// Regions list for a frame that steps that row with no key: most frames
// (text, progress) step exactly one unkeyed region, and sharing the list
// saves the allocation Step made for it on every frame. The lists are
// read-only: a second region appends to a fresh copy (capacity 1).
var unkeyedSteps = sync.OnceValue(func() map[*Machine][][][]RegionStep {
	out := map[*Machine][][][]RegionStep{}
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		regs := make([][][]RegionStep, len(m.Regions))
		for i := range m.Regions {
			reg := &m.Regions[i]
			regs[i] = make([][]RegionStep, len(reg.Transitions))
			for j := range reg.Transitions {
				regs[i][j] = []RegionStep{{Region: reg.Name, Transition: &reg.Transitions[j]}}[:1:1]
			}
		}
		out[m] = regs
	}
	return out
})

// unkeyedStep is the shared one-step list of region i's row j of m (rt),
// or a new one for a machine built elsewhere.
func unkeyedStep(m *Machine, i, j int, rt *Transition) []RegionStep {
	if regs, ok := unkeyedSteps()[m]; ok {
		return regs[i][j]
	}
	return []RegionStep{{Region: m.Regions[i].Name, Transition: rt}}
}

// unkeyedPairs() holds, per machine, the two-step lists of every pair of
// unkeyed regions' rows (a text frame steps the progress and the content
// regions), shared read-only like unkeyedSteps(): pairs[i0][j0][i][j].
var unkeyedPairs = sync.OnceValue(func() map[*Machine][][][][]RegionStep {
	out := map[*Machine][][][][]RegionStep{}
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		pairs := make([][][][]RegionStep, len(m.Regions))
		for i0 := range m.Regions {
			r0 := &m.Regions[i0]
			if r0.Key != "" {
				continue
			}
			pairs[i0] = make([][][]RegionStep, len(r0.Transitions))
			for j0 := range r0.Transitions {
				pairs[i0][j0] = make([][]RegionStep, len(m.Regions))
				for i := i0 + 1; i < len(m.Regions); i++ {
					r1 := &m.Regions[i]
					if r1.Key != "" {
						continue
					}
					l := make([]RegionStep, 2*len(r1.Transitions))
					for j := range r1.Transitions {
						l[2*j] = RegionStep{Region: r0.Name, Transition: &r0.Transitions[j0]}
						l[2*j+1] = RegionStep{Region: r1.Name, Transition: &r1.Transitions[j]}
					}
					pairs[i0][j0][i] = l
				}
			}
		}
		out[m] = pairs
	}
	return out
})

// unkeyedPair is the shared two-step list of region i0's row j0 and region
// i's row j (rt) of m, or a new one where none is shared.
func unkeyedPair(m *Machine, i0, j0, i, j int, rt *Transition) []RegionStep {
	if p, ok := unkeyedPairs()[m]; ok && p[i0] != nil && p[i0][j0][i] != nil {
		return p[i0][j0][i][2*j : 2*j+2 : 2*j+2]
	}
	return []RegionStep{
		{Region: m.Regions[i0].Name, Transition: &m.Regions[i0].Transitions[j0]},
		{Region: m.Regions[i].Name, Transition: rt},
	}
}

// appendChunk appends a text chunk's decoded value to the bubble's text:
// a chunk without escapes is its bytes between the quotes (most are), so
// only the others are unquoted byte by byte.
func appendChunk(dst []byte, chunk decode.Raw) []byte {
	if chunk.Kind() == decode.KindString && bytes.IndexByte(chunk, '\\') < 0 {
		return append(dst, chunk[1:len(chunk)-1]...)
	}
	dst, _ = chunk.AppendStr(dst)
	return dst
}
