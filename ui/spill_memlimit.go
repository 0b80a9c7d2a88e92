package ui

import (
	"math"
	"os"
	"runtime/debug"
	"sync/atomic"
)

// The rows' bytes live in the spill or the capture file, so the heap holds
// only the packed rows and the indexes: ~100 bytes a row. What the process
// costs beyond that is garbage the feeder and the pipeline make while a
// capture streams in (batches, decoded frames), which the GC lets pile up
// to twice the live heap by default. Measured at 1,000,000 frames
// (BenchmarkOpen1M): 100 MB live, 250 MB resident at the peak; with a soft
// limit that follows the session's size, 175 MB, at no cost in time. The
// limit grows with the rows, so a session far larger than that never makes
// the GC run back to back; GOMEMLIMIT, when set, wins.
const (
	memBase   = 96 << 20 // the program, the pipeline, a batch in flight
	memPerRow = 112      // a packed row and its share of the indexes
	memStep   = 1 << 16  // rows between two updates of the limit
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
	debug.SetMemoryLimit(memBase + next*memPerRow)
}
