package store

import "encoding/binary"

// rowList is an append-only ascending list of rows: one event type's rows
// in the type index. It was an []int32, 4 bytes a frame: 42 MB for the
// ten million frames of an alarm flood, all of one type. Here a run of
// consecutive rows costs nothing while it grows and a few bytes once it
// ends, and a lone row costs the varint of its gap to the row before
// (1 byte below 64): a flood is a single run, a capture of interleaved
// types about a byte a row.
//
// packed holds the finished runs in order, each as uvarint(gap<<1|more),
// then uvarint(n-1) when more is set: gap is its first row minus the row
// after the run before it, n its length. The run being extended is kept
// apart (first, n) until a row that does not continue it arrives.
type rowList struct {
	packed []byte
	end    int // the row after the last packed run
	first  int // the open run: rows first … first+n-1
	n      int
	total  int
}

// Len is the number of rows.
func (l *rowList) Len() int { return l.total }

// add appends row, which must be above every row in the list.
func (l *rowList) add(row int) {
	l.total++
	if l.n > 0 && row == l.first+l.n {
		l.n++
		return
	}
	l.close()
	l.first, l.n = row, 1
}

// close packs the open run.
func (l *rowList) close() {
	if l.n == 0 {
		return
	}
	gap := uint64(l.first - l.end)
	if l.n == 1 {
		l.packed = binary.AppendUvarint(l.packed, gap<<1)
	} else {
		l.packed = binary.AppendUvarint(l.packed, gap<<1|1)
		l.packed = binary.AppendUvarint(l.packed, uint64(l.n-1))
	}
	l.end = l.first + l.n
	l.n = 0
}

// each calls fn with every row, ascending.
func (l *rowList) each(fn func(row int)) {
	end := 0
	for p := l.packed; len(p) > 0; {
		v, k := binary.Uvarint(p)
		p = p[k:]
		first, n := end+int(v>>1), 1
		if v&1 != 0 {
			extra, k := binary.Uvarint(p)
			p = p[k:]
			n += int(extra)
		}
		for r := first; r < first+n; r++ {
			fn(r)
		}
		end = first + n
	}
	for r := l.first; r < l.first+l.n; r++ {
		fn(r)
	}
}
