package pc3

import (
	"framescope/decode"
	"framescope/invariants"
)

// A turn's tool calls and placeholders are tracked by id to match each
// tool_completed and data_loaded to its open (FR-9's tool pairing, §5.5's
// data_loading/data_loaded). A turn that opens an id in every frame and
// closes none would grow that state by the frame (issue 24, item 3): as
// the engine of the other dialects does, a turn tracks at most
// invariants.MaxOpenIDs open at once. The open past the bound raises
// id-limit once per turn; later opens are counted, not tracked, and a
// close for an id the turn does not know is then no orphan. Finished ids
// are remembered (tool-duplicate) up to maxKnownIDs, then forgotten.

// maxKnownIDs bounds the ids a turn remembers per kind, finished ones
// included.
const maxKnownIDs = 16 << 10

// idBound counts a turn's open ids (tool calls and placeholders).
type idBound struct {
	openIDs   int
	idLimited bool // id-limit raised: later opens are not tracked
	untracked int
}

// admitID reports whether turn t may track one more open id; the first
// refusal raises id-limit.
func (c *Checker) admitID(f *decode.Frame, t *turnState, what string, id []byte) bool {
	if t.openIDs < invariants.MaxOpenIDs {
		t.openIDs++
		return true
	}
	t.untracked++
	if !t.idLimited {
		t.idLimited = true
		c.raise("id-limit", invariants.SevWarn, f.Index, "%s %q opens an id past the %d open at once framescope tracks in a turn; later ids are counted, not checked",
			what, decode.Clip(string(id), 60), invariants.MaxOpenIDs)
	}
	return false
}

// forgetFinishedTools drops the finished tool calls once the turn knows
// maxKnownIDs of them.
func (t *turnState) forgetFinishedTools() {
	if len(t.toolList) < maxKnownIDs {
		return
	}
	kept := t.toolList[:0]
	clear(t.tools)
	for _, ts := range t.toolList {
		if !ts.done {
			t.tools[ts.id] = int32(len(kept))
			kept = append(kept, ts)
		}
	}
	clear(t.toolList[len(kept):])
	t.toolList = kept
}

// forgetLoadedComps drops the filled placeholders likewise.
func (t *turnState) forgetLoadedComps() {
	if len(t.compList) < maxKnownIDs {
		return
	}
	kept := t.compList[:0]
	clear(t.comps)
	for _, cs := range t.compList {
		if !cs.loaded {
			t.comps[cs.id] = int32(len(kept))
			kept = append(kept, cs)
		}
	}
	clear(t.compList[len(kept):])
	t.compList = kept
}
