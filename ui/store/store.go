// Package store is the data side of framescope's terminal inspector: the
// Store, an append-only log of what the pipeline of package
// sessions/pipeline produced (rows packed a few bytes each, their bytes in
// the capture file or a spill, alarms listed or counted in groups, turns
// and their tools, spans, statuses and text, each turn's timing as the
// checker counted it, the reference client machines' checkpoints), and
// the Feeder that runs a Source and sends what it produced in batches. It
// connects to nothing and serves nothing: the sources (a capture, a live
// connection, a demo) are package ui/source's. It knows nothing of the
// screen: package ui draws the panes from it.
//
// Files by concern: store*.go (the Store, its as-of queries, the indexes
// every dialect's moves fill, what the panes ask of the dialect),
// rows_*.go (the rows: their packed form, sets and lists of rows, the
// timeline's filter, reading their bytes back), spill*.go, alarms.go,
// timing.go, feed*.go (the feeder, its batches, what a source hands it,
// moves), client_*.go (the machines' goroutine and index),
// summary_moves.go (a frame's one-line description), response.go (the
// HTTP exchange).
package store

import (
	"sort"
	"sync"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions/pipeline"
)

// RowKind says what a timeline row stands for.
type RowKind uint8

const (
	RowFrame     RowKind = iota // a dispatched SSE event
	RowComment                  // an SSE comment line (": keepalive")
	RowBlock                    // a block without data: not dispatched
	RowTruncated                // the stream ended inside an event
	RowNote                     // a remark about the capture (not an alarm)
)

// Row is one line of the timeline: a frame or another SSE item. Rows are
// immutable once appended, except Alarms/MaxSev (an alarm raised later may
// point at an older frame). A row keeps a few facts and where its block
// lies in the stream, not the block's bytes: those are read back on demand
// (Store.RowRaw, RowData, RowFrame), for the visible or selected rows only,
// so a million-frame session fits the memory budget. The store keeps rows
// packed (rowRec); a Row is the readable copy Store.Row builds.
type Row struct {
	// Summary is the sanitized description of a non-frame row (frames:
	// Store.Summary derives it from Data).
	Summary string
	// Type is the sanitized event type: the JSON event_type of a decoded
	// frame, else the SSE event: field ("" when absent).
	Type string
	// Alarms are indexes into Store.Alarms, or -(g+1) for an alarm counted
	// in group g (Store.AlarmOf reads either); MaxSev the most severe.
	Alarms []int32
	MaxSev invariants.Severity

	Offset int64 // byte offset of the block in the stream
	Size   int64 // bytes on the wire
	// At is the row's time on the turn's axis: the arrival time when the
	// source is timed, else the envelope timestamp relative to the first
	// timestamp of the stream. HasAt is false when neither is known.
	At time.Duration
	// Frame is the frame index (RowFrame), or the index of the last frame
	// before this row (-1 when there is none).
	Frame int
	// Turn is the turn the row belongs to (-1 before the first frame).
	Turn int

	Kind     RowKind
	Terminal invariants.Terminality
	Problem  decode.Problem
	// HasRaw: the block's bytes can be read back at Offset (not for
	// oversized events, comments and notes).
	HasRaw      bool
	HasAt       bool
	Done        bool
	Decoded     bool
	InvalidUTF8 bool
	Oversized   bool
	// FromClient: the frame is the client's (a two-way transport's:
	// pipeline.Item.From).
	FromClient bool
}

// AlarmRec is an alarm and the row it belongs to (-1: the stream).
type AlarmRec struct {
	invariants.Alarm
	Row int
}

// TurnRec is one turn as the checker segmented it (pipeline.Item.Turn).
type TurnRec struct {
	Index         int
	RID           string // raw
	HasRID        bool
	FirstRow      int
	FirstFrame    int
	LastFrame     int
	Frames        int
	Terminal      invariants.Terminality
	TerminalFrame int // -1 until the terminal arrives
	// CarrierFrame is the frame that carried the terminal: TerminalFrame,
	// or an earlier frame when the dialect settles the turn later
	// (openai-chat's finish_reason chunk, settled at [DONE]).
	CarrierFrame int
	Done         bool
	// StartAt / EndAt bound the turn's time axis (HasTime: some row of the
	// turn has a time).
	StartAt, EndAt time.Duration
	HasTime        bool

	// Ranges of the per-turn indexes: [lo, hi) where hi is the next turn's
	// lo (or the slice's length for the last turn).
	toolLo, compLo, statusLo, textLo int

	closed    bool
	textStart int64 // where the turn's text starts in the text spill
	tools     map[string]int
	comps     map[string]int
	// bubbles are the turn's text bubbles (client_view.go), in the order
	// they began; bubbleOf finds one by span and key.
	bubbles    []bubble
	bubbleOf   map[string]int
	lastBubble int // 1 + the bubble the last delta grew (0: none)
	// Outcome and TerminalEvent: the terminal's detail on the common turn
	// model (its outcome, the dialect's terminal event).
	Outcome, TerminalEvent string
}

// ToolSpan is one tool call: from its tool_call frame to its
// tool_completed frame (-1 while open). An orphan tool_completed (no
// earlier tool_call) is a span with Orphan set and Start == End.
type ToolSpan struct {
	ID, Name, Type string // raw
	Turn           int
	Start, End     int // frame indexes
	StartAt, EndAt time.Duration
	HasStart       bool
	HasEnd         bool // EndAt is meaningful
	Orphan         bool
	// Ready is the frame where the call's input was complete and the call
	// was handed to the client to run (a tool-ready move: openai-chat's
	// finish_reason "tool_calls", Anthropic's content_block_stop of a
	// tool_use block…); HasReady says there was one. A ready call the
	// stream never answers is finished as far as the stream goes.
	Ready     int
	ReadyTime time.Duration
	HasReady  bool
}

// OpenAt reports whether the call is still open as of frame n: not yet
// answered and not yet handed to the client.
func (t *ToolSpan) OpenAt(n int) bool {
	return !t.Orphan && (t.End < 0 || t.End > n) && !t.ReadyAt(n)
}

// ReadyAt reports whether, as of frame n, the call was handed to the
// client and not answered in the stream.
func (t *ToolSpan) ReadyAt(n int) bool {
	return t.HasReady && t.Ready <= n && (t.End < 0 || t.End > n)
}

// Tool states as the panes name them.
const (
	ToolOrphan  = "orphan"  // an answer to no call
	ToolRunning = "running" // open: its input or its answer still streams
	ToolReady   = "ready"   // handed to the client: its input is complete, the client runs it
	ToolDone    = "done"    // answered in the stream
)

// StateAt is the call's state as of frame n.
func (t *ToolSpan) StateAt(n int) string {
	switch {
	case t.Orphan:
		return ToolOrphan
	case t.ReadyAt(n):
		return ToolReady
	case t.OpenAt(n):
		return ToolRunning
	}
	return ToolDone
}

// CompKind says whether a CompSpan is a data placeholder or a component frame.
type CompKind uint8

const (
	CompPlaceholder CompKind = iota // data_loading → data_loaded
	CompComponent                   // a component frame (render_* tool path)
	CompMoveSpan                    // a span of the common turn model (message, block, item, step, stream…)
)

// CompSpan is one placeholder (data_loading → data_loaded, sharing data.id)
// or one component frame. Loading is -1 for a data_loaded nobody announced;
// Loaded is -1 while the placeholder waits.
type CompSpan struct {
	Kind            CompKind
	ID, Type        string // raw; for components: the tool call id and name
	Turn            int
	Loading, Loaded int
	Items           int // data_loaded items (-1 when not an array)
	first           int // the frame that created the span (its sort key)
	name            string
}

// LoadedAt reports whether the placeholder is filled as of frame n.
func (c *CompSpan) LoadedAt(n int) bool { return c.Loaded >= 0 && c.Loaded <= n }

// StatusRec is one status frame.
type StatusRec struct {
	Frame            int
	Turn             int
	EventID, Message string // raw
}

// textRec marks the end of a text frame's chunk in the text spill (every
// turn's text, one after the other).
type textRec struct {
	Frame int
	End   int64
}

// Conn is the state of the source.
type Conn uint8

const (
	ConnConnecting Conn = iota
	ConnOpen
	ConnEnded
)

// Store is the append-only session log. It is owned by the bubbletea
// goroutine: batches are applied in Update, panes read it in View. Every
// as-of query is a binary search, never a rescan from frame 0.
type Store struct {
	chunks    []*rowChunk // rows in fixed-size chunks, frozen when full (rows_pack.go)
	thawed    int         // 1 + the block thawBuf holds (0: none; rows_pack.go)
	thawBuf   []rowRec
	n         int
	frameRows rowSet // the rows of frames: frame n is row frameRows.At(n)
	rowTables
	typeIdx   map[string]uint32
	timing    timingState       // the Timing view's data (timing.go)
	rowAlarms map[int32][]int32 // the alarms of rows that have some
	client    clientIndex       // the reference client machines' checkpoints (client_index.go)

	// Alarms are the listed alarms (the first report.MaxListed of one
	// rule in one turn); the rest are counted in groups (alarms.go).
	Alarms    []AlarmRec
	alarms    alarmIndex
	alarmRows rowSet // rows with alarms, ascending
	Counts    invariants.Counts

	Turns    []TurnRec
	Tools    []ToolSpan
	Comps    []CompSpan
	Statuses []StatusRec
	texts    []textRec

	Notes []string
	Bytes int64 // stream bytes seen (sum of block sizes)
	// Dialect is the stream's dialect ("" until known); every dialect is
	// indexed from its moves (store_moves.go). What the panes ask of it
	// (store_dialect.go) is the default dialect's until it is known.
	Dialect string
	dialect dialectView
	// Flavor is the dialect's provider flavor ("" when none is known).
	Flavor string

	// The source: connection state, HTTP status, how it ended.
	Conn       Conn
	HTTPStatus int
	Response   *HTTPResponse // the HTTP exchange (live, HAR, JSONL captures)
	End        *invariants.End
	// Frames counts dispatched events.
	Frames int
	// FirstArrival is the arrival of frame 0 (the TTFE) when timed.
	FirstArrival    time.Duration
	HasFirstArrival bool

	lastAt    time.Duration // the last row's At (for gap computation)
	hasLastAt bool

	// src holds the rows' bytes (see ByteSource); nil until the feeder
	// says where they are. text holds the text frames' chunks (unescaped),
	// written by the feeder: at a million frames they are ~80 MB, read
	// back for the as-of text (TextAsOf) a window at a time.
	src     ByteSource
	text    *spill
	textEnd int64
	// reason holds the reasoning deltas (thinking, reasoning summaries),
	// apart from the text so that TextAsOf stays the answer alone.
	reason *spill
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{} }

const chunkRows = 4096

// Len is the number of rows.
func (s *Store) Len() int { return s.n }

// Row returns a copy of row i (0 <= i < Len), built from its packed form:
// read it now, do not keep it (a later alarm does not update the copy).
func (s *Store) Row(i int) *Row {
	rc := s.get(i)
	r := new(Row)
	s.unpack(rc, r)
	if rc.sev&sevAlarmed != 0 {
		r.Alarms = s.rowAlarmsOf(int32(i), rc)
		r.MaxSev = sevNames[rc.sev&sevMask]
	}
	return r
}

func (s *Store) push(rc rowRec) {
	if s.n%chunkRows == 0 {
		if k := len(s.chunks) - 1; k >= 0 {
			// A new chunk object: snapshots keep reading the old one.
			s.chunks[k] = freeze(s.chunks[k].recs)
			if s.thawed == k+1 {
				s.thawed = 0
			}
		}
		s.chunks = append(s.chunks, &rowChunk{recs: make([]rowRec, 0, chunkRows)})
	}
	c := s.chunks[len(s.chunks)-1]
	c.recs = append(c.recs, rc)
	s.n++
}

// Snapshot returns a reader of rows [0, Len) that stays valid (and safe to
// read off the bubbletea goroutine) while rows are appended, and the source
// of their bytes. Its rows have the immutable fields only: no Alarms, no
// MaxSev.
func (s *Store) Snapshot() (n int, row func(i int) *Row, src ByteSource) {
	chunks := make([]rowChunk, len(s.chunks))
	for i, c := range s.chunks {
		chunks[i] = rowChunk{recs: c.recs, enc: c.enc, marks: c.marks, n: c.n} // not sev: it changes
	}
	tables := s.rowTables
	var mu sync.Mutex
	var buf []rowRec
	cached := -1
	return s.n, func(i int) *Row {
		r := new(Row)
		k := i / chunkRows
		if c := &chunks[k]; c.recs != nil {
			tables.unpack(&c.recs[i%chunkRows], r)
			return r
		}
		mu.Lock()
		defer mu.Unlock()
		j := i % chunkRows
		if key := i / packBlock; cached != key {
			if buf == nil {
				buf = make([]rowRec, packBlock)
			}
			chunks[k].thawBlock(j/packBlock, buf)
			cached = key
		}
		tables.unpack(&buf[j%packBlock], r)
		return r
	}, s.src
}

// LastAt is the time of the last row that has one (ok false when none
// has).
func (s *Store) LastAt() (at time.Duration, ok bool) { return s.lastAt, s.hasLastAt }

// Types are the event types of the frames so far, in the order they
// first came (read only).
func (s *Store) Types() []string { return s.types }

// FrameAt is frame n's time on the turn's axis (ok false when unknown).
func (s *Store) FrameAt(n int) (time.Duration, bool) {
	row := s.RowOfFrame(n)
	if row < 0 {
		return 0, false
	}
	r := s.Row(row)
	return r.At, r.HasAt
}

// RowOfFrame returns the row of frame n, or -1.
func (s *Store) RowOfFrame(n int) int {
	if n < 0 || n >= s.frameRows.Len() {
		return -1
	}
	return s.frameRows.At(n)
}

// Ingest is one row as the feeder built it, with the payload facts the
// indexes need (not kept on the row).
type Ingest struct {
	Row
	ext rowExt
}

type rowExt struct {
	rid        string // the turn's id so far (raw)
	arrival    time.Duration
	hasArrival bool
	textEnd    int64 // text frames: the chunk's end in the text spill
	hasChunk   bool
	// content: the frame carries content a user waits for (text,
	// reasoning, a tool call), chars its characters; resume: it ends a
	// tool's wait (Timing.Resume). The checker's count (timing.go: count).
	content bool
	resume  bool
	chars   int32
	// The checker's turn for the frame and the moves the indexes need
	// (feed_moves.go): the first in fact0 (most frames make one move: no
	// allocation), the others in facts.
	turn   int
	nfacts int
	fact0  moveFact
	facts  []moveFact
}

// add appends a move's fact.
func (x *rowExt) add(fc moveFact) {
	if x.nfacts == 0 {
		x.fact0 = fc
	} else {
		x.facts = append(x.facts, fc)
	}
	x.nfacts++
}

// fact is the i-th fact (i < nfacts).
func (x *rowExt) fact(i int) *moveFact {
	if i == 0 {
		return &x.fact0
	}
	return &x.facts[i-1]
}

// Apply appends a batch. Rows first (so alarms can point at them), then
// alarms, then the source state.
func (s *Store) Apply(b *Batch) {
	if b.Src != nil {
		s.src = b.Src
	}
	if b.Text != nil {
		s.text = b.Text
	}
	if b.Reason != nil {
		s.reason = b.Reason
	}
	for i := range b.Rows {
		s.appendRow(&b.Rows[i])
	}
	if b.Client != nil {
		s.client.add(b.Client)
	}
	if b.Flavor != "" {
		s.Flavor = b.Flavor
	}
	if b.Dialect != "" {
		s.Dialect = b.Dialect
		d := b.dialect
		if d == nil {
			d, _ = dialects.Lookup(b.Dialect)
		}
		s.dialect = viewOf(d)
	}
	for _, a := range b.Alarms {
		s.addAlarm(a)
	}
	s.Notes = append(s.Notes, b.Notes...)
	if b.Conn != nil {
		s.Conn = b.Conn.State
		if b.Conn.Response != nil {
			s.Response = b.Conn.Response
		}
		if b.Conn.HTTPStatus != 0 {
			s.HTTPStatus = b.Conn.HTTPStatus
		}
	}
	if b.End != nil {
		s.Conn = ConnEnded
		e := *b.End
		s.End = &e
		s.settleTurns(b.EndTurns)
		s.takeUsage(b.EndTurns)
	}
}

func (s *Store) appendRow(in *Ingest) {
	r := in.Row
	idx := s.n
	s.Bytes += r.Size
	r.Turn = len(s.Turns) - 1
	if r.Kind == RowFrame {
		r.Frame = s.Frames
		s.Frames++
		s.frameRows.add(idx)
		if r.Frame == 0 && in.ext.hasArrival {
			s.FirstArrival, s.HasFirstArrival = in.ext.arrival, true
		}
		r.Turn = s.segmentMoves(&r, &in.ext, idx)
		rc := pack(&r)
		rc.typ = s.internType(r.Type)
		s.push(rc)
		s.indexMoves(&r, &in.ext)
		s.feedTiming(&r, &in.ext)
	} else {
		r.Frame = s.Frames - 1
		rc := pack(&r)
		rc.typ = uint32(len(s.summaries))
		s.summaries = append(s.summaries, r.Summary)
		s.push(rc)
	}
	if r.HasAt {
		s.lastAt, s.hasLastAt = r.At, true
		if r.Turn >= 0 {
			t := &s.Turns[r.Turn]
			if !t.HasTime {
				t.StartAt, t.EndAt, t.HasTime = r.At, r.At, true
			} else {
				if r.At < t.StartAt {
					t.StartAt = r.At
				}
				if r.At > t.EndAt {
					t.EndAt = r.At
				}
			}
		}
	}
}

// internType returns the index of an event type in the types table: a
// session has a handful of types, so a row needs 4 bytes, not a string.
func (s *Store) internType(t string) uint32 {
	if i, ok := s.typeIdx[t]; ok {
		return i
	}
	if s.typeIdx == nil {
		s.typeIdx = map[string]uint32{}
	}
	i := uint32(len(s.types))
	s.types = append(s.types, t)
	s.typeIdx[t] = i
	return i
}

// NextAlarmRow returns the first row after row that carries an alarm
// (dir > 0), or the last one before it (dir < 0); ok is false when there is
// none.
func (s *Store) NextAlarmRow(row, dir int) (int, bool) {
	if dir > 0 {
		if k := s.alarmRows.Below(row + 1); k < s.alarmRows.Len() {
			return s.alarmRows.At(k), true
		}
		return 0, false
	}
	if k := s.alarmRows.Below(row) - 1; k >= 0 {
		return s.alarmRows.At(k), true
	}
	return 0, false
}

// AlarmRowCount is the number of rows that carry alarms.
func (s *Store) AlarmRowCount() int { return s.alarmRows.Len() }

// TurnOfRow returns the turn a row belongs to (-1 when none).
func (s *Store) TurnOfRow(row int) int {
	if row < 0 || row >= s.n {
		return -1
	}
	return int(s.get(row).turn)
}

// turnRange returns [lo, hi) of a per-turn index for turn t.
func (s *Store) turnRange(t int, lo func(*TurnRec) int, n int) (int, int) {
	if t < 0 || t >= len(s.Turns) {
		return 0, 0
	}
	a := lo(&s.Turns[t])
	b := n
	if t+1 < len(s.Turns) {
		b = lo(&s.Turns[t+1])
	}
	return a, b
}

// ToolsAsOf returns the tool spans of turn t that had started as of frame
// n: Tools[lo:hi]. Whether each is still open as of n is ToolSpan.OpenAt(n).
// OpenToolsAt counts turn t's tool calls still open as of frame n.
func (s *Store) OpenToolsAt(t, n int) int {
	lo, hi := s.ToolsAsOf(t, n)
	k := 0
	for i := lo; i < hi; i++ {
		if s.Tools[i].OpenAt(n) {
			k++
		}
	}
	return k
}

// LoadingAt counts turn t's placeholders still loading as of frame n.
func (s *Store) LoadingAt(t, n int) int {
	lo, hi := s.CompsAsOf(t, n)
	k := 0
	for i := lo; i < hi; i++ {
		if sp := &s.Comps[i]; (sp.Kind == CompPlaceholder || sp.Kind == CompMoveSpan) && sp.Loading >= 0 && !sp.LoadedAt(n) {
			k++
		}
	}
	return k
}

func (s *Store) ToolsAsOf(t, n int) (lo, hi int) {
	lo, hi = s.turnRange(t, func(tr *TurnRec) int { return tr.toolLo }, len(s.Tools))
	k := sort.Search(hi-lo, func(i int) bool { return s.Tools[lo+i].Start > n })
	return lo, lo + k
}

// ToolsOfTurn returns the whole range of turn t's tool spans.
func (s *Store) ToolsOfTurn(t int) (lo, hi int) {
	return s.turnRange(t, func(tr *TurnRec) int { return tr.toolLo }, len(s.Tools))
}

// CompsAsOf returns the placeholders and components of turn t created as of
// frame n: Comps[lo:hi].
func (s *Store) CompsAsOf(t, n int) (lo, hi int) {
	lo, hi = s.turnRange(t, func(tr *TurnRec) int { return tr.compLo }, len(s.Comps))
	k := sort.Search(hi-lo, func(i int) bool { return s.Comps[lo+i].first > n })
	return lo, lo + k
}

// StatusesAsOf returns the status frames of turn t up to frame n:
// Statuses[lo:hi]; the status line as of n is Statuses[hi-1] when hi > lo.
func (s *Store) StatusesAsOf(t, n int) (lo, hi int) {
	lo, hi = s.turnRange(t, func(tr *TurnRec) int { return tr.statusLo }, len(s.Statuses))
	k := sort.Search(hi-lo, func(i int) bool { return s.Statuses[lo+i].Frame > n })
	return lo, lo + k
}

// TextAsOf returns the text a client has shown in turn t as of frame n
// (raw: sanitize to display): its last tail bytes at most (tail <= 0: all),
// its total length and the number of text frames so far.
func (s *Store) TextAsOf(t, n, tail int) (string, int, int) {
	lo, hi := s.turnRange(t, func(tr *TurnRec) int { return tr.textLo }, len(s.texts))
	k := sort.Search(hi-lo, func(i int) bool { return s.texts[lo+i].Frame > n })
	if k == 0 {
		return "", 0, 0
	}
	start := s.Turns[t].textStart
	end := s.texts[lo+k-1].End
	from := start
	if tail > 0 && end-start > int64(tail) {
		from = end - int64(tail)
	}
	b := make([]byte, end-from)
	if s.text != nil {
		if n, _ := s.text.ReadAt(b, from); n < len(b) {
			b = b[:0] // the spill failed (disk full): no text to show
		}
	}
	if from > start {
		for len(b) > 0 && b[0]&0xc0 == 0x80 {
			b = b[1:] // start at a rune boundary
		}
	}
	return string(b), int(end - start), k
}

// AsOfFrame returns the frame a row stands for in as-of views: the row's
// frame, or the last frame before a non-frame row.
func (s *Store) AsOfFrame(row int) int {
	if row < 0 || row >= s.n {
		return -1
	}
	return int(s.get(row).frame)
}

// Summary returns a row's one-line description (sanitized). Frames derive
// it from their bytes: call it for visible rows only.
func (s *Store) Summary(i int) string {
	r := s.Row(i)
	if r.Kind != RowFrame {
		return r.Summary
	}
	fr := s.RowFrame(i)
	if d, err := pipeline.ResolveDialect(s.Dialect); err == nil && d != nil && fr != nil {
		if sm, ok := d.(invariants.Summarizer); ok {
			if t := sm.Summary(fr); t != "" {
				return decode.Sanitize(t) // audio: its size, never its bytes
			}
		}
	}
	if w := s.Wording(); w.Summary != nil {
		return w.Summary(fr)
	}
	return movesSummary(fr)
}

// TypeOf is what the timeline's type column shows for row i: the row's
// type, or what the frame carries where its dialect labels every frame
// alike (invariants.Spec.RowLabelOf: openai-chat's chunks).
func (s *Store) TypeOf(i int) string {
	r := s.Row(i)
	rl := s.view().rowLabeler
	if r.Kind != RowFrame || rl == nil {
		return r.Type
	}
	if l := rl.RowLabel(s.RowFrame(i)); l != "" {
		return decode.Sanitize(l)
	}
	return r.Type
}

// RowRaw returns row i's block as received, read back from the byte
// source (a fresh slice), or nil when its bytes were not kept: oversized
// events, comments, notes.
func (s *Store) RowRaw(i int) []byte {
	return ReadRaw(s.src, s.Row(i))
}

func ReadRaw(src ByteSource, r *Row) []byte {
	if !r.HasRaw || src == nil {
		return nil
	}
	b := make([]byte, r.Size)
	if n, err := src.ReadAt(b, r.Offset); n < len(b) {
		_ = err // the bytes are gone (a capture changed on disk): show none
		return nil
	}
	return b
}

// RowData returns a frame row's WHATWG data buffer (nil for other rows and
// oversized frames).
func (s *Store) RowData(i int) []byte {
	if s.Row(i).Kind != RowFrame {
		return nil
	}
	return s.RowFrame(i).Data
}

// RowType returns row i's sanitized event type.
func (s *Store) RowType(i int) string { return s.Row(i).Type }

// RowFrame decodes frame row i again from its bytes: its SSE fields,
// payload and problem detail are not kept on the row. Nil for other rows.
func (s *Store) RowFrame(i int) *decode.Frame {
	r := s.Row(i)
	if r.Kind != RowFrame {
		return nil
	}
	return DecodeRow(r, ReadRaw(s.src, r))
}

// DecodeRow decodes a frame row again from its block's bytes raw (nil when
// not kept).
func DecodeRow(r *Row, raw []byte) *decode.Frame {
	var ev *decode.Event
	fr := decode.NewFramer()
	keep := func(e *decode.Event) {
		if ev == nil && e.Dispatched() {
			c := e.Clone()
			ev = &c
		}
	}
	fr.Feed(raw, keep)
	fr.Close(keep)
	if ev == nil { // oversized: nothing kept
		ev = &decode.Event{Offset: r.Offset, Size: r.Size, HasData: true, Oversized: r.Oversized}
	}
	ev.Offset = r.Offset
	return decode.DecodeFrame(ev, r.Frame)
}
