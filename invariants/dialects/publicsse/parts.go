package publicsse

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// part is a reasoning summary part the stream opened: its key (as the
// moves carry it), the item it belongs to, whether a delta came for it and
// whether it is open.
type part struct {
	key, item   []byte
	delta, open bool
}

// maxParts bounds the parts remembered; past it the memory starts over.
const maxParts = 256

// notePart records a part's reasoning_summary.part.added (added) or
// .part.done.
func (p *mapper) notePart(f *decode.Frame, key decode.Raw, added bool) {
	for i := range p.parts {
		if bytes.Equal(p.parts[i].key, key) {
			pt := &p.parts[i]
			pt.open = added
			if added {
				pt.delta = false
				pt.item = append(pt.item[:0], f.Get("item_id")...)
			}
			return
		}
	}
	if !added {
		return
	}
	if len(p.parts) >= maxParts {
		p.parts = p.parts[:0]
	}
	p.parts = append(p.parts, part{key: append([]byte(nil), key...), item: append([]byte(nil), f.Get("item_id")...), open: true})
}

// partDelta notes that a part got text.
func (p *mapper) partDelta(key decode.Raw) {
	for i := range p.parts {
		if bytes.Equal(p.parts[i].key, key) {
			p.parts[i].delta = true
			return
		}
	}
}

// closeEmptyParts: at its item's output_item.done, a summary part that
// got no text is over. The projector omits reasoning_summary.part.done
// when the part's text is empty (raw_handlers/reasoning.py at 50548aa:
// "elif part_text:"), and the web client hides a part without text
// (components/ui/ai/reasoning-parts.tsx filters on part.text): nothing
// shows it open. A part that got text keeps its own part.done.
func (p *mapper) closeEmptyParts(m *invariants.Mapping, item decode.Raw) {
	for i := range p.parts {
		pt := &p.parts[i]
		if pt.open && !pt.delta && bytes.Equal(pt.item, item) {
			pt.open = false
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanReasoning, Key: decode.Raw(pt.key)})
		}
	}
}
