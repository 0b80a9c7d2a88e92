package store

import (
	"sort"
	"strings"

	"framescope/invariants"
)

// What a client of the stream shows, as of a frame, read from the moves
// (docs/dialects.md "Client view for every dialect"): the Client pane of a
// dialect without a reference machine, the Status pane's bubbles. A
// client keeps apart what the stream keeps apart: openai-chat renders one
// bubble per choice (n > 1), Anthropic one per content block, AG-UI and
// the AI SDK one per message or part, chunk-framed one slot per stream —
// and a stream whose modality is not text (a product carousel, an image)
// is a component, not text. The text move's span and key say which
// bubble a delta grows (invariants.Move), so no dialect needs code here.

// bubble is one text bubble of a turn: the pieces of the text spill its
// deltas wrote, in order.
type bubble struct {
	span invariants.SpanKind
	key  string // rawKey: '#'-prefixed for a number
	name string // the span's name when it opened (block type, role, modality)
	// reasoning: the bubble holds thinking/reasoning deltas (in the
	// reason spill), shown apart from the answer as a client does.
	reasoning bool
	pieces    []piece
}

// piece is one delta: 16 bytes, one per text move of the stream (a
// million-delta answer keeps 16 MB of them).
type piece struct {
	start int64
	frame int32
	n     uint32
}

func (p piece) end() int64 { return p.start + int64(p.n) }

// addPiece adds a text or reasoning delta to its bubble in turn t.
func (s *Store) addPiece(t *TurnRec, frame int, fc *moveFact) {
	reasoning := fc.kind == invariants.MoveReasoning
	if i := t.lastBubble - 1; i >= 0 {
		// Deltas mostly grow the bubble the last one grew: no key to build.
		if b := &t.bubbles[i]; b.span == fc.span && b.key == fc.key && b.reasoning == reasoning {
			b.pieces = append(b.pieces, piece{start: fc.start, frame: int32(frame), n: uint32(fc.end - fc.start)})
			return
		}
	}
	k := fc.span.String() + "\x00" + fc.key
	bk := k
	if reasoning {
		bk = "reasoning\x00" + k // never the answer's bubble, whatever the keys
	}
	i, ok := t.bubbleOf[bk]
	if !ok {
		if t.bubbleOf == nil {
			t.bubbleOf = map[string]int{}
		}
		b := bubble{span: fc.span, key: fc.key, reasoning: reasoning}
		if j, ok := t.comps[k]; ok {
			b.name = s.Comps[j].name
		}
		i = len(t.bubbles)
		t.bubbleOf[bk] = i
		t.bubbles = append(t.bubbles, b)
	}
	b := &t.bubbles[i]
	b.pieces = append(b.pieces, piece{start: fc.start, frame: int32(frame), n: uint32(fc.end - fc.start)})
	t.lastBubble = i + 1
}

// Bubble is one bubble as of a frame.
type Bubble struct {
	// Label says which: "choice 1", "block 0 · text", "message m1 ·
	// assistant", "stream msg-7 · product_carousel"; "" for the turn's
	// only text when the dialect names no bubble.
	Label string
	// Component: a stream whose modality is not text (chunk-framed
	// product_carousel, image, action): a client renders it in its slot.
	Component bool
	// Reasoning: thinking or reasoning deltas, which a client shows
	// apart from the answer (a collapsible "Thinking" block).
	Reasoning bool
	// Text is the bubble's text (raw: sanitize to display), its tail when
	// longer than asked; Total its length, Deltas the deltas so far, Last
	// the last delta (a component's latest chunk).
	Text, Last    string
	Total, Deltas int
}

// ToolView is one tool indicator.
type ToolView struct {
	Name, ID string // raw
	State    string // ToolRunning, ToolReady, ToolDone, ToolOrphan
}

// ClientView is what a client of the stream shows in turn Turn as of
// frame Frame.
type ClientView struct {
	Turn, Frame int
	// Outcome: "streaming", the terminal's outcome, or how the turn ended.
	Outcome string
	// Ended: the turn's terminal is at or before Frame; TerminalEvent and
	// CarrierFrame then say which and where (the frame that carried it).
	Ended         bool
	TerminalEvent string
	CarrierFrame  int
	// Progress is the progress line (raw; "" when none or the turn ended).
	Progress string
	Tools    []ToolView
	// Open are the spans still open (what shows a cursor or placeholder).
	Open    []string
	Bubbles []Bubble
}

// ClientViewAsOf returns the view of turn t as of frame n; each bubble's
// text is at most tail bytes (its end; tail <= 0: all). The bubbles are
// kept where a pane shows them (Feeder.bubbles): not for a dialect with a
// reference machine that words its turn's text (PC3).
func (s *Store) ClientViewAsOf(t, n, tail int) ClientView {
	v := ClientView{Turn: t, Frame: n, CarrierFrame: -1}
	if t < 0 || t >= len(s.Turns) {
		v.Turn = -1
		v.Outcome, _ = s.OutcomeAsOf(-1, n)
		return v
	}
	tr := &s.Turns[t]
	v.Outcome, v.Ended = s.OutcomeAsOf(t, n)
	if v.Ended {
		v.TerminalEvent, v.CarrierFrame = tr.TerminalEvent, tr.CarrierFrame
	}
	if lo, hi := s.StatusesAsOf(t, n); hi > lo && !v.Ended {
		sr := &s.Statuses[hi-1]
		v.Progress = sr.Message
		if strings.HasPrefix(sr.EventID, "error") {
			v.Progress = sr.EventID + ": " + sr.Message
		}
	}
	lo, hi := s.ToolsAsOf(t, n)
	for i := lo; i < hi; i++ {
		sp := &s.Tools[i]
		v.Tools = append(v.Tools, ToolView{Name: sp.Name, ID: sp.ID, State: sp.StateAt(n)})
	}
	lo, hi = s.CompsAsOf(t, n)
	for i := lo; i < hi; i++ {
		if sp := &s.Comps[i]; sp.Loading >= 0 && !sp.LoadedAt(n) {
			v.Open = append(v.Open, strings.TrimSpace(sp.Type+" "+sp.ID))
		}
	}
	// A bubble is labelled among its kind: a lone answer beside a
	// reasoning bubble still needs no name.
	var kinds [2]int
	for i := range tr.bubbles {
		kinds[b2i(tr.bubbles[i].reasoning)]++
	}
	for i := range tr.bubbles {
		if b, ok := s.bubbleAsOf(&tr.bubbles[i], kinds[b2i(tr.bubbles[i].reasoning)], n, tail); ok {
			v.Bubbles = append(v.Bubbles, b)
		}
	}
	return v
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// OutcomeAsOf is turn t's state as of frame n ("streaming", its
// outcome, or how it ended); ended: its terminal is at or before n.
func (s *Store) OutcomeAsOf(t, n int) (outcome string, ended bool) {
	if t < 0 || t >= len(s.Turns) {
		if s.Conn == ConnEnded {
			return "ended before any turn", false
		}
		return "waiting for the first frame", false
	}
	tr := &s.Turns[t]
	streamEnded := s.Conn == ConnEnded && n >= tr.LastFrame
	switch {
	case tr.TerminalFrame >= 0 && tr.TerminalFrame <= n:
		return tr.Outcome, true
	case streamEnded && tr.Outcome != "":
		return tr.Outcome, false // settled at the end of the stream (no terminal event)
	case streamEnded && t == len(s.Turns)-1:
		return "ended without a terminal", false
	}
	return "streaming", false
}

// bubbleAsOf reads bubble b as of frame n (ok: it had a delta by then).
func (s *Store) bubbleAsOf(b *bubble, of, n, tail int) (Bubble, bool) {
	k := sort.Search(len(b.pieces), func(i int) bool { return int(b.pieces[i].frame) > n })
	if k == 0 {
		return Bubble{}, false
	}
	out := Bubble{Label: b.label(of), Deltas: k, Reasoning: b.reasoning,
		Component: !b.reasoning && b.span == invariants.SpanStream && b.name != "" && b.name != "text"}
	src := s.text
	if b.reasoning {
		src = s.reason
	}
	// The text is the last pieces, back until tail bytes. Pieces of
	// bubbles that stream side by side interleave in the spill: when the
	// ones needed lie within a few tails of each other they are read in
	// one go and cut apart (one read, not one per delta).
	first, got := k, 0
	for first > 0 && (tail <= 0 || got < tail) {
		first--
		got += int(b.pieces[first].n)
	}
	lo, hi := b.pieces[first].start, b.pieces[k-1].end()
	var win []byte
	if hi-lo <= int64(8*max(got, 4096)) {
		win = readSpill(src, lo, hi)
	}
	parts := make([][]byte, 0, k-first)
	for _, p := range b.pieces[first:k] {
		if int64(len(win)) == hi-lo {
			parts = append(parts, win[p.start-lo:p.end()-lo])
		} else {
			parts = append(parts, readSpill(src, p.start, p.end()))
		}
	}
	out.Last = string(parts[len(parts)-1])
	for _, p := range b.pieces[:k] {
		out.Total += int(p.n)
	}
	var sb strings.Builder
	sb.Grow(got)
	for _, p := range parts {
		sb.Write(p)
	}
	txt := sb.String()
	if tail > 0 && len(txt) > tail {
		txt = txt[len(txt)-tail:]
		for len(txt) > 0 && txt[0]&0xc0 == 0x80 {
			txt = txt[1:] // start at a rune boundary
		}
	}
	out.Text = txt
	return out, true
}

// readSpill reads [from, to) of a text or reasoning spill ("" when the
// spill failed).
func readSpill(sp *spill, from, to int64) []byte {
	b := make([]byte, to-from)
	if sp == nil {
		return b[:0]
	}
	if n, _ := sp.ReadAt(b, from); n < len(b) {
		return b[:0]
	}
	return b
}

// label names the bubble for the Client pane; of is how many bubbles the
// turn has (a lone bubble the dialect names nothing needs no label).
func (b *bubble) label(of int) string {
	key := b.key
	if strings.HasPrefix(key, "#") {
		key = key[1:]
	}
	if b.span == invariants.SpanNone && of == 1 {
		if b.reasoning {
			return "reasoning"
		}
		return "" // the turn's only text, in a dialect that names no span
	}
	var l string
	switch {
	case b.span == invariants.SpanNone && b.key == "" && b.reasoning:
		return "reasoning"
	case b.span == invariants.SpanNone && b.key == "":
		l = "text"
	case b.span == invariants.SpanNone && strings.HasPrefix(b.key, "#"):
		l = "choice " + key // openai-chat: the choice index
	case b.span == invariants.SpanNone:
		l = key
	default:
		l = b.span.String() + " " + key
	}
	if b.name != "" {
		l += " · " + b.name
	}
	if b.reasoning && !strings.Contains(b.name, "thinking") && !strings.Contains(b.name, "reasoning") {
		l += " · reasoning"
	}
	return l
}
