package proxy

import "sync/atomic"

// The request bodies in flight are bounded as the checkers' queues are:
// each request's tee keeps its first requestBodyCap bytes (what its flow
// keeps once done) whatever else is in flight, and the rest of the first
// MiB its recording wants only while all tees together hold at most
// maxInflightBodies beyond those first bytes. Before, 256 uploads of
// 1 MiB at once (--max-conns) held 256 MiB of tees, twice that on the
// heap between collections; past the budget a recording keeps the first
// 64 KiB of a request body and its size, as it says of a body over 1 MiB.

// maxInflightBodies bounds the request-body bytes past each one's first
// requestBodyCap that all tees hold at once.
const maxInflightBodies = 64 << 20

// bodyBudget is the bytes past their first requestBodyCap that the
// proxy's tees hold.
type bodyBudget struct {
	held  atomic.Int64
	limit int64
}

// take reserves up to n bytes and returns how many it got.
func (b *bodyBudget) take(n int64) int64 {
	if b == nil {
		return n
	}
	for {
		held := b.held.Load()
		got := min(n, b.limit-held)
		if got <= 0 {
			return 0
		}
		if b.held.CompareAndSwap(held, held+got) {
			return got
		}
	}
}

// give returns n reserved bytes.
func (b *bodyBudget) give(n int64) {
	if b != nil && n > 0 {
		b.held.Add(-n)
	}
}
