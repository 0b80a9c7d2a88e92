package faults

import "sync/atomic"

// MaxHoldTotal bounds the bytes the delivery faults of all streams hold
// back together (--fault buffer, burst): MaxHold bounds one stream, and
// 200 streams each holding 8 MiB were 2.83 GB of RSS.
const MaxHoldTotal = 64 << 20

// HoldBudget is the bytes all Writers sharing it may hold at once; a
// Writer whose hold would pass it releases what it holds instead (the
// stream is then delivered sooner than its fault asks, never held past
// the bound).
type HoldBudget struct {
	limit int64
	used  atomic.Int64
}

// NewHoldBudget is a budget of limit bytes.
func NewHoldBudget(limit int64) *HoldBudget { return &HoldBudget{limit: limit} }

// Used is the bytes held now.
func (b *HoldBudget) Used() int64 { return b.used.Load() }

func (b *HoldBudget) take(n int) bool {
	if b.used.Add(int64(n)) > b.limit {
		b.used.Add(-int64(n))
		return false
	}
	return true
}

func (b *HoldBudget) give(n int) { b.used.Add(-int64(n)) }
