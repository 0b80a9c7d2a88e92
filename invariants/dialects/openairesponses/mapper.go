package openairesponses

import (
	"framescope/decode"
	"framescope/invariants"
)

// mapper keeps what the rules need across one stream. Its buffers are
// allocated once per stream (newMapper) and reused, so mapping a frame
// allocates nothing.
type mapper struct {
	// drifted: envelope-drift was raised (once a stream); idDrifted: an
	// item_id that is not its item's id was reported (once a stream).
	drifted, idDrifted bool
	frames             int  // decoded frames seen
	bad                bool // payload-malformed already raised on this frame
	resumed            bool // the stream resumes a response (starting_after)
	noSeq              bool // the stream is in the shape before sequence_number (legacy.go)

	// ended: a terminal event was mapped. errAt: frame of an error event
	// that no terminal followed yet (-1 none): it ends the turn as failed
	// unless response.failed confirms it (see lifecycle.go).
	ended bool
	errAt int

	// rid is response.created's response.id (JSON literal), for
	// envelope-drift; hasRID says it was seen.
	rid    []byte
	hasRID bool

	// nextIndex is the output_index the next output_item.added must carry
	// (-1: not known yet, in a resumed stream); firstAdded the first one
	// this stream added (-1 none): items below it began before a resume.
	nextIndex  int64
	firstAdded int64

	// lastSeq is the highest sequence_number so far (seqSeen: one was).
	lastSeq int64
	seqSeen bool

	slots []slot // tool calls of the open output items, by output_index
	kbuf  []byte // scratch for a part's composite key [output_index,index]

	// listed are the output_index of mcp_list_tools items whose
	// mcp_list_tools.completed / failed came; lbuf holds their keys when
	// the terminal settles them (lifecycle.go settleListed).
	listed []int64
	lbuf   []byte

	faults []fault // payload-malformed faults reported (fields.go)
}

// slot remembers the tool call an open output item carries: its key (the
// call_id of a client tool, the item id of a hosted one) and name, copied
// because later events name the item by output_index only (and some
// proxies rotate item ids from event to event).
type slot struct {
	oi     int64
	used   bool
	tool   bool // the item carries a tool call (key, name, hosted)
	hosted bool
	key    []byte
	name   []byte
	// id is the item's id at output_item.added (hasID: it had a string
	// one); nextPart / nextSummary the content_index / summary_index its
	// next part must carry.
	id                    []byte
	hasID                 bool
	nextPart, nextSummary int64
	// strayPart: an event of this item named a part or summary part that
	// is not open, and span-orphan said so; the item's later ones are the
	// same defect (Ollama streams a summary's text without ever adding
	// its part: one alarm, not one per delta).
	strayPart bool
	// ann counts the annotations of the item's first content parts (the
	// next annotation_index each may carry); parts past them go unchecked.
	ann [4]int64
}

func newMapper() invariants.Mapper {
	p := &mapper{errAt: -1, firstAdded: -1, rid: make([]byte, 0, 96), kbuf: make([]byte, 0, 48),
		listed: make([]int64, 0, 4), lbuf: make([]byte, 0, 64)}
	p.slots = make([]slot, 4)
	for i := range p.slots {
		p.slots[i].key = make([]byte, 0, 64)
		p.slots[i].name = make([]byte, 0, 64)
		p.slots[i].id = make([]byte, 0, 64)
	}
	return p
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	p.bad = false
	p.frames++
	typ := f.Get("type")
	if typ.Kind() == decode.KindString {
		// The engine compares the SSE event: name with it (EventField),
		// at the listed warn: see Severities.
		m.Type = typ
	}
	ev := lookup(typ)
	if p.frames == 1 {
		p.begin(f, m, ev)
	}
	if ev != nil && ev.legacy != "" {
		m.Legacy(ev.legacy)
	}
	if ev != nil && ev.vendor != "" {
		m.Unknown = true
		if m.Flavor() == "" {
			m.SetFlavor(ev.vendor)
		}
	}
	if !p.noSeq {
		p.sequence(f, m, ev)
	}
	if ev == nil {
		if typ.Kind() != decode.KindString {
			p.malformed(m, "frame", "type is "+invariants.KindName(typ)+", want a string")
		} else {
			m.Unknown = true
		}
		return
	}
	if p.errAt >= 0 && !p.ended && !p.afterError(f, m, ev) {
		return
	}
	switch ev.scope {
	case scopeResponse:
		p.lifecycle(f, m, ev)
		readUsage(f, m)
	case scopeError:
		p.errorEvent(f, m, ev)
	case scopeItemAdded:
		p.itemAdded(f, m, ev)
	case scopeItemDone:
		p.itemDone(f, m, ev)
	case scopeItem, scopePart, scopeSummary:
		p.itemEvent(f, m, ev)
	case scopeNone:
		if ev.delta {
			p.str(f, m, ev, "delta")
		}
	}
}

// begin reads the stream's first frame: response.created opens the
// response. A stream resumed with starting_after begins past it, with a
// sequence_number above 0: that first frame opens the turn itself, and the
// items it names may have been added before the resume point. An error
// event as first frame is a response that failed before it was created: it
// opens the turn too (there is nothing else to open it).
//
// A first frame of the vocabulary without any sequence_number is the
// shape before sequence_number existed (legacy.go): the stream is read
// without one.
func (p *mapper) begin(f *decode.Frame, m *invariants.Mapping, ev *event) {
	p.nextIndex = 0
	if ev != nil && f.Get("sequence_number") == nil {
		p.noSeq = true
		m.Legacy(shapeNoSeq)
	}
	if ev != nil && ev.act == actStart {
		return
	}
	if n, ok := invariants.Int(f.Get("sequence_number")); ok && n > 0 {
		p.resumed = true
		p.nextIndex = -1
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart})
		return
	}
	if ev != nil && ev.act == actError {
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart})
	}
}

// sequence maps sequence_number: it starts at 0 and grows by one from
// event to event over the whole stream (a resumed stream starts anywhere).
// A frame without a valid one is payload-malformed and is counted as the
// next number, so that the fault is reported once, not again as a gap.
func (p *mapper) sequence(f *decode.Frame, m *invariants.Mapping, ev *event) {
	raw := f.Get("sequence_number")
	n, ok := invariants.Int(raw)
	if (!ok || n < 0) && ev == nil {
		// An event outside the vocabulary without a number (a server's own
		// extra event): the SDKs pass it by, and it takes no place in the
		// count (counting it would make the next event a repeat).
		return
	}
	if !ok || n < 0 {
		if ev != nil {
			p.malformed(m, ev.name, "sequence_number is "+kindOrValue(raw)+", want an integer ≥ 0")
		}
		if !p.seqSeen && p.resumed {
			return
		}
		n = 0
		if p.seqSeen {
			n = p.lastSeq + 1
		}
	}
	from := int64(0)
	if p.resumed {
		from = -1
	}
	gap := invariants.SevError
	if !p.seqSeen && n > 0 && ev != nil && ev.name == "response.created" {
		// A fresh stream counted from another base (LiteLLM's bridge
		// starts at 1): response.created is the first event by
		// definition, so nothing was lost, and no SDK reads the number.
		gap = invariants.SevWarn
	}
	if !p.seqSeen || n > p.lastSeq {
		p.lastSeq, p.seqSeen = n, true
	}
	m.Add(invariants.Move{Kind: invariants.MoveSeq, Key: litSeq, Seq: n, SeqFrom: from, SeqGap: string(gap)})
}

// EndStream settles an error event that no terminal followed: it was the
// response's terminal (failed).
func (p *mapper) EndStream(m *invariants.Mapping) {
	if p.errAt >= 0 && !p.ended {
		p.ended = true
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError})
	}
}
