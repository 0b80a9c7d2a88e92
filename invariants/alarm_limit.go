package invariants

// Listing limits the alarms a checker formats: past Options.ListLimit
// alarms of one rule in one turn, an alarm is still raised and counted, but
// marked Unlisted and its message is not made. A report lists the first
// alarms of a rule in a turn and counts the rest (report.MaxListed), so a
// stream of ten million broken frames costs ten million counts, not ten
// million formatted messages.
type Listing struct {
	limit int
	n     map[listingKey]*int
	// The keys last asked for and their counts: a flood asks for the
	// same few rules and turn millions of times (`data: {}` raises two
	// alarms a frame), and a string-keyed map lookup per alarm would cost
	// more than the rest of the alarm.
	recent [4]listingRecent
	next   int
	// forgetAt: Forget rebuilds the map once it holds this many keys.
	forgetAt int
}

type listingKey struct {
	rule string
	turn int
}

type listingRecent struct {
	key listingKey
	n   *int
}

// NewListing limits listing to limit alarms per rule and turn (0: no limit).
func NewListing(limit int) Listing { return Listing{limit: limit} }

func (l *Listing) count(rule string, turn int) *int {
	for i := range l.recent {
		if r := &l.recent[i]; r.n != nil && r.key.turn == turn && r.key.rule == rule {
			return r.n
		}
	}
	k := listingKey{rule, turn}
	p := l.n[k]
	if p == nil {
		if l.n == nil {
			l.n = map[listingKey]*int{}
		}
		p = new(int)
		l.n[k] = p
	}
	l.recent[l.next] = listingRecent{k, p}
	l.next = (l.next + 1) % len(l.recent)
	return p
}

// Listed reports whether the next alarm of rule in turn is still listed,
// without counting it.
func (l *Listing) Listed(rule string, turn int) bool {
	return l.limit <= 0 || *l.count(rule, turn) < l.limit
}

// Take counts one alarm of rule in turn and reports whether it is listed.
func (l *Listing) Take(rule string, turn int) bool {
	if l.limit <= 0 {
		return true
	}
	p := l.count(rule, turn)
	if *p >= l.limit {
		return false
	}
	*p++
	return true
}
