package store

import (
	"sync"

	"framescope/invariants"
)

// Batch is what the feeder sends the program: everything the pipeline
// produced since the previous batch, in order. Nothing is ever dropped:
// however fast frames arrive, they all travel, just fewer messages.
type Batch struct {
	Rows   []Ingest
	Alarms []AlarmRec
	Notes  []string
	Conn   *ConnUpdate
	End    *invariants.End
	// EndTurns are the checker's turns at the End: a dialect without
	// terminal events (chunk-framed) settles its turns' outcomes only then.
	EndTurns []invariants.Turn
	// Src is where the rows' bytes can be read back, Text where the text
	// frames' chunks are (each set once, in the first batch).
	Src  ByteSource
	Text *spill
	// Reason holds the reasoning deltas' text, apart from the answer's
	// (set once, with Text).
	Reason *spill
	// Client is the reference client machines' run over the batch's frames
	// (client_index.go); nil when the batch has no frame.
	Client *clientIndex
	// Dialect is the stream's dialect's name, once known (set once, with
	// the dialect itself).
	Dialect string
	dialect invariants.Dialect
	// Flavor is the dialect's provider flavor, when it is first known or
	// changes.
	Flavor string
}

// ConnUpdate is a change of the source's connection state.
type ConnUpdate struct {
	State      Conn
	HTTPStatus int
	// Response is the HTTP exchange, once known (nil: no change).
	Response *HTTPResponse
}

func (b *Batch) empty() bool {
	return len(b.Rows) == 0 && b.Dialect == "" && b.Flavor == "" && b.Client == nil && len(b.Alarms) == 0 && len(b.Notes) == 0 && b.Conn == nil && b.End == nil && b.Src == nil && b.Text == nil && b.Reason == nil
}

// A batch's rows and alarms are copied into the store by Update, after
// which their slices are garbage. The feeder used to start each batch
// with room for as many rows as the last one had, but a batch that a
// quiet moment cut short left the next one growing from a few rows by
// doubling: at 1,000,000 frames that regrowth was a tenth of the open's
// CPU (BenchmarkOpen1M profile, feeder.onItem). Update hands the slices
// back once the store holds their content, and the feeder takes them for
// its next batch.

var (
	rowsPool   sync.Pool // *[]Ingest, empty
	alarmsPool sync.Pool // *[]AlarmRec, empty
)

// newBatch is an empty batch with recycled room for rows and alarms (at
// least rows rows).
func newBatch(rows int) *Batch {
	b := &Batch{}
	if p, ok := rowsPool.Get().(*[]Ingest); ok && cap(*p) >= rows {
		b.Rows = *p
	} else {
		b.Rows = make([]Ingest, 0, rows)
	}
	if p, ok := alarmsPool.Get().(*[]AlarmRec); ok {
		b.Alarms = *p
	}
	return b
}

// Recycle gives the batch's room for rows and alarms back (Update, once
// the store applied the batch). The batch itself is left as it is — a
// stale batch may still be dropped or, in tests, applied again before the
// feeder writes over the room — but the program must not read it later.
func (b *Batch) Recycle() {
	if cap(b.Rows) > 0 {
		rows := b.Rows[:0]
		rowsPool.Put(&rows)
	}
	if cap(b.Alarms) > 0 {
		alarms := b.Alarms[:0]
		alarmsPool.Put(&alarms)
	}
}
