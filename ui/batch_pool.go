package ui

import "sync"

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
