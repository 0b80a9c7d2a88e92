package store

import (
	"slices"
	"sort"
	"strings"

	"framescope/decode"
)

// The rows the timeline's filter lists: frames of some event types and/or
// rows with alarms (the keys and the list positions are the screen's). On
// a million-row session nothing here rescans the store: the per-type
// index grows with each batch, a new filter is built from it in time
// proportional to its matches, and a filter grows with new rows as they
// arrive.

// TypeIndex lists the frame rows of each event type (ascending), appended
// as batches arrive, packed as runs and gaps (rows_list.go): about a byte a
// frame, nothing for a run of one type.
type TypeIndex struct {
	st      *Store // the store indexed (a restart brings a new one)
	rows    map[string]*rowList
	scanned int // rows of the store indexed so far
}

// Sync indexes the rows the store gained since the last call (a new store:
// from its first row).
func (x *TypeIndex) Sync(st *Store) {
	if x.st != st {
		*x = TypeIndex{st: st, rows: map[string]*rowList{}}
	}
	for i := x.scanned; i < st.Len(); i++ {
		if rc := st.get(i); rc.kind == RowFrame { // not Row: no allocation per row
			t := st.types[rc.typ]
			l := x.rows[t]
			if l == nil {
				l = &rowList{}
				x.rows[t] = l
			}
			l.add(i)
		}
	}
	x.scanned = st.Len()
}

// Names returns the event types present, sorted.
func (x *TypeIndex) Names() []string {
	out := make([]string, 0, len(x.rows))
	for t := range x.rows {
		if t != "" {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Filter is a filter and its index of matching rows. Rows are listed
// when they are frames of one of the types (any type when types is nil)
// and, with alarms on, carry an alarm. Without alarms on, only frames are
// listed: comments, notes and other non-frame rows are noise once the user
// asked for event types. With alarms on, a non-frame row that carries an
// alarm (a truncated event, a block without data) is listed when no type
// was asked for: its row is the only place that alarm can be seen.
type Filter struct {
	types    map[string]bool
	typeList []string // as the user gave them (the title)
	alarms   bool

	rows []int // matching rows, ascending

	// Growth state: rows of the store examined (types only), and the alarm
	// rows consumed with the last of them (alarms on).
	scanned   int
	alarmSeen int
	alarmLast int
}

// On reports whether a filter is active (nil: no filter).
func (f *Filter) On() bool { return f != nil }

func (f *Filter) match(r *Row) bool {
	if r.Kind != RowFrame {
		return f.alarms && f.types == nil && len(r.Alarms) > 0
	}
	if f.types != nil && !f.types[r.Type] {
		return false
	}
	return !f.alarms || len(r.Alarms) > 0
}

// NewFilter builds a filter from the type index: O(matches), not a scan
// of the store.
func NewFilter(st *Store, idx *TypeIndex, types []string, alarms bool) *Filter {
	f := &Filter{alarms: alarms, typeList: types}
	if len(types) > 0 {
		f.types = make(map[string]bool, len(types))
		for _, t := range types {
			f.types[t] = true
		}
	}
	idx.Sync(st)
	if alarms {
		f.rebuildAlarms(st)
		return f
	}
	var lists []*rowList
	for t := range f.types {
		if l := idx.rows[t]; l != nil && l.Len() > 0 {
			lists = append(lists, l)
		}
	}
	f.rows = mergeRows(lists)
	f.scanned = idx.scanned
	return f
}

// mergeRows merges ascending row lists (one per type, disjoint).
func mergeRows(lists []*rowList) []int {
	n := 0
	for _, l := range lists {
		n += l.Len()
	}
	out := make([]int, 0, n)
	for _, l := range lists {
		l.each(func(r int) { out = append(out, r) })
	}
	if len(lists) > 1 {
		slices.Sort(out)
	}
	return out
}

// rebuildAlarms lists the matching rows among the store's alarm rows.
func (f *Filter) rebuildAlarms(st *Store) {
	f.rows = f.rows[:0]
	st.alarmRows.Each(0, func(r int) {
		if f.match(st.Row(r)) {
			f.rows = append(f.rows, r)
		}
	})
	f.alarmSeen = st.alarmRows.Len()
	f.alarmLast = st.alarmRows.last()
}

// sync extends the filter over what the store gained since the last call
// (O(1) when nothing changed).
func (f *Filter) sync(st *Store) {
	if !f.alarms {
		for i := f.scanned; i < st.Len(); i++ {
			if f.match(st.Row(i)) {
				f.rows = append(f.rows, i)
			}
		}
		f.scanned = st.Len()
		return
	}
	ar := &st.alarmRows
	if ar.Len() == f.alarmSeen {
		return
	}
	// Alarm rows are kept sorted and distinct: if the one that was last is
	// still at its index, every new alarm row came after it (the usual
	// case, the newest row); otherwise an alarm landed on an older row and
	// the list is rebuilt from the alarm rows (never from the whole store).
	if f.alarmSeen > 0 && ar.At(f.alarmSeen-1) != f.alarmLast {
		f.rebuildAlarms(st)
		return
	}
	ar.Each(f.alarmSeen, func(r int) {
		if f.match(st.Row(r)) {
			f.rows = append(f.rows, r)
		}
	})
	f.alarmSeen = ar.Len()
	f.alarmLast = ar.last()
}

// Rows are the listed rows, ascending, once the filter has taken in what
// the store gained since the last call.
func (f *Filter) Rows(st *Store) []int {
	f.sync(st)
	return f.rows
}

// Types are the filter's event types as the user gave them (nil: any).
func (f *Filter) Types() []string { return f.typeList }

// Alarms reports whether the filter lists only rows with alarms.
func (f *Filter) Alarms() bool { return f.alarms }

// Describe is the filter as the title shows it.
func (f *Filter) Describe() string {
	var parts []string
	if len(f.typeList) > 0 {
		parts = append(parts, decode.Sanitize(strings.Join(f.typeList, ",")))
	}
	if f.alarms {
		parts = append(parts, "alarms only")
	}
	return strings.Join(parts, " + ")
}
