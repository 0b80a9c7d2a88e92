package store

import "sort"

// rowSet is an ascending set of rows kept as runs of consecutive rows:
// the rows with alarms (Store.alarmRows). A flood alarms every row, and
// one int per row was 80 MB at ten million frames; as runs it is a few
// bytes. Rows are usually added past the last one; an alarm on an older
// row splits or merges runs (O(runs)).
type rowSet struct {
	runs []rowRun
	n    int
}

// rowRun is rows first … first+n-1; before counts the rows of the runs
// before it. 12 bytes: a set of scattered rows costs 3× a []int32.
type rowRun struct{ first, n, before int32 }

// Len is the number of rows.
func (x *rowSet) Len() int { return x.n }

// last is the highest row (-1 when empty).
func (x *rowSet) last() int {
	if len(x.runs) == 0 {
		return -1
	}
	r := &x.runs[len(x.runs)-1]
	return int(r.first + r.n - 1)
}

// At is the k-th row, ascending (0 <= k < Len).
func (x *rowSet) At(k int) int {
	i := sort.Search(len(x.runs), func(i int) bool { return int(x.runs[i].before) > k }) - 1
	return int(x.runs[i].first) + k - int(x.runs[i].before)
}

// Below counts the rows < row (sort.SearchInts on the rows).
func (x *rowSet) Below(row int) int {
	i := sort.Search(len(x.runs), func(i int) bool { return int(x.runs[i].first) >= row }) - 1
	if i < 0 {
		return 0
	}
	r := &x.runs[i]
	return int(r.before) + min(row-int(r.first), int(r.n))
}

// Each calls fn with the rows from the k-th on, ascending.
func (x *rowSet) Each(k int, fn func(row int)) {
	if k >= x.n {
		return
	}
	i := sort.Search(len(x.runs), func(i int) bool { return int(x.runs[i].before) > k }) - 1
	for j := int32(k) - x.runs[i].before; i < len(x.runs); i, j = i+1, 0 {
		r := &x.runs[i]
		for ; j < r.n; j++ {
			fn(int(r.first + j))
		}
	}
}

// add puts row in the set (it must not be in it).
func (x *rowSet) add(row int) {
	x.n++
	r32 := int32(row)
	if row > x.last() {
		if k := len(x.runs) - 1; k >= 0 && x.runs[k].first+x.runs[k].n == r32 {
			x.runs[k].n++
		} else {
			x.runs = append(x.runs, rowRun{first: r32, n: 1, before: int32(x.n - 1)})
		}
		return
	}
	// An older row: join the run it ends or starts, or make one.
	i := sort.Search(len(x.runs), func(i int) bool { return x.runs[i].first > r32 }) // first run after row
	switch {
	case i > 0 && x.runs[i-1].first+x.runs[i-1].n == r32:
		x.runs[i-1].n++
		if i < len(x.runs) && x.runs[i].first == r32+1 { // the gap closed
			x.runs[i-1].n += x.runs[i].n
			x.runs = append(x.runs[:i], x.runs[i+1:]...)
		}
		i--
	case i < len(x.runs) && x.runs[i].first == r32+1:
		x.runs[i].first--
		x.runs[i].n++
	default:
		x.runs = append(x.runs, rowRun{})
		copy(x.runs[i+1:], x.runs[i:])
		x.runs[i] = rowRun{first: r32, n: 1}
	}
	for ; i < len(x.runs); i++ {
		if i == 0 {
			x.runs[i].before = 0
		} else {
			x.runs[i].before = x.runs[i-1].before + x.runs[i-1].n
		}
	}
}
