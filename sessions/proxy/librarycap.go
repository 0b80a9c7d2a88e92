package proxy

import (
	"sync"
	"time"
)

// capEvery spaces the session library's size-cap enforcement: each one
// scans the whole library (every session's metadata), so doing it at the
// end of every stream made a long proxy run quadratic — a hundred
// streams a second, each scanning thousands of sessions. The library may
// exceed its cap by what is saved in capEvery; Wait enforces it once
// more at the end.
const capEvery = 2 * time.Second

// capClock is when the cap was last enforced, and whether a save since
// has not been followed by one.
type capClock struct {
	mu      sync.Mutex
	last    time.Time
	pending bool
}

// enforceCap enforces the library's cap unless it was enforced less than
// capEvery ago; keep is the session just saved (never removed).
func (p *Proxy) enforceCap(keep string) error {
	p.capClock.mu.Lock()
	if time.Since(p.capClock.last) < capEvery {
		p.capClock.pending = true
		p.capClock.mu.Unlock()
		return nil
	}
	p.capClock.last, p.capClock.pending = time.Now(), false
	p.capClock.mu.Unlock()
	_, err := p.opts.Library.EnforceCap(keep)
	return err
}

// enforceCapPending enforces the cap if a save has not been followed by
// an enforcement (at Wait, the streams ended).
func (p *Proxy) enforceCapPending() {
	p.capClock.mu.Lock()
	pending := p.capClock.pending
	p.capClock.pending = false
	p.capClock.last = time.Now()
	p.capClock.mu.Unlock()
	if pending && p.opts.Library != nil {
		p.opts.Library.EnforceCap("")
	}
}
