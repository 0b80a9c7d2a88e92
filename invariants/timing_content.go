package invariants

import "framescope/decode"

// FrameContent is how a checker counted one frame for its turn's timing
// (docs/timing.md): whether it carries content a user waits for (text,
// reasoning, a tool call) and its characters, or whether it ends a tool's
// wait (Timing.Resume). The checker decides it once; the pipeline hands
// it on with the frame (ContentCounter), and the inspector times its rows
// by it.
type FrameContent struct {
	Content bool
	Chars   int
	Resume  bool
}

// countContent is how the Engine counts a frame from its moves: only a
// decoded frame carries content, and one without content may end a wait.
func countContent(moves []Move, f *decode.Frame) FrameContent {
	var fc FrameContent
	if f.Decoded() {
		fc.Content, fc.Chars = contentOf(moves, f.ASCII)
		fc.Resume = !fc.Content && ResumesContent(moves)
	}
	return fc
}

// FrameContent is how the turn's timing counted f, the frame last
// observed (ContentCounter); a frame it did not take (no open turn, past
// the turn's end, no arrival time) is counted as it would have been.
func (e *Engine) FrameContent(f *decode.Frame) FrameContent {
	if e.countedAt == f.Index+1 {
		return e.counted
	}
	return countContent(e.m.Moves, f)
}
