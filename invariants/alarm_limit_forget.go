package invariants

// Forget drops the counts of the turns before turn (the stream's, turn
// -1, stay). A checker calls it once those turns can raise no more
// alarms, so that the counts do not grow with the number of turns: a
// capture of 100,000 turns with a few alarms each would otherwise hold
// 100,000s of keys to the end. The map is rebuilt (Go maps do not shrink)
// only once it has doubled since the last rebuild: amortized, a key
// costs O(1).
func (l *Listing) Forget(turn int) {
	if len(l.n) < max(l.forgetAt, 256) {
		return
	}
	kept := make(map[listingKey]*int, len(l.n)/2)
	for k, p := range l.n {
		if k.turn < 0 || k.turn >= turn {
			kept[k] = p
		}
	}
	l.n = kept
	l.recent = [len(l.recent)]listingRecent{}
	l.forgetAt = 2 * len(kept)
}
