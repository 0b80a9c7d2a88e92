package store

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The rows' bytes live in the spill or the capture file, so the heap holds
// only the packed rows and the indexes. What the process costs beyond that
// is garbage the feeder and the pipeline make while a capture streams in
// (batches, decoded frames), which the GC lets pile up to twice the live
// heap by default. A soft limit that follows the session's size keeps the
// peak near the live heap, at little cost in time; it grows with the rows,
// so a session far larger never makes the GC run back to back; GOMEMLIMIT,
// when set, wins. Measured at 1,000,000 frames (BenchmarkOpen1M): with
// frozen row chunks, alarm groups and turn-aligned client checkpoints the
// live heap is ~75 MB (was ~160), and 40 bytes a row keeps the peak RSS at
// ~145 MB (112 bytes a row, sized for the old heap: ~218 MB). A row of an
// alarm flood costs a few bytes, not 40: there the limit also follows the
// live heap the last GC found, plus room for the batches in flight (at 10.5
// M flood frames: a 53 MB live heap, a 516 MB budget by rows, peak RSS 184
// MB without this, under 150 with it).
const (
	memBase     = 96 << 20 // the program, the pipeline, a batch in flight
	memPerRow   = 40       // a packed row and its share of the indexes
	memStep     = 1 << 16  // rows between two updates of the limit
	memHeadroom = 64 << 20 // above the live heap: batches, frames, the GC's work
)

// memCovered is the row count the limit set so far covers: the limit only
// grows (a new session may start while the last one's rows are still
// alive).
var memCovered atomic.Int64

// memBudget raises the soft memory limit to cover a session of rows rows,
// unless the user set one.
func memBudget(rows int) {
	covered := memCovered.Load()
	if int64(rows) < covered || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	next := (int64(rows)/memStep + 1) * memStep
	if next > math.MaxInt64/(2*memPerRow) || !memCovered.CompareAndSwap(covered, next) {
		return
	}
	limit := memBase + next*memPerRow
	if live := liveHeap(); live > 0 && live+memHeadroom < limit {
		limit = live + memHeadroom
	}
	debug.SetMemoryLimit(limit)
}

// liveHeap is the heap the last GC found live (0: not known yet).
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(s[0].Value.Uint64(), math.MaxInt64/2))
}
