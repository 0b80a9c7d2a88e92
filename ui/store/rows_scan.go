package store

// RowScanner reads rows' bytes through a window of the stream (the
// search): rows come in stream order, so one read serves thousands of rows.
type RowScanner struct {
	src  ByteSource
	buf  []byte
	base int64 // stream offset of buf[0]
}

// NewRowScanner reads rows' bytes from src (Store.Snapshot's).
func NewRowScanner(src ByteSource) *RowScanner { return &RowScanner{src: src} }

// Scanner reads the store's rows' bytes.
func (s *Store) Scanner() *RowScanner { return NewRowScanner(s.src) }

// scanWindow is the size of the search's reads.
const scanWindow = 1 << 20

// Raw returns r's block (valid until the next call), nil when not kept.
func (sc *RowScanner) Raw(r *Row) []byte {
	if !r.HasRaw || sc.src == nil {
		return nil
	}
	if r.Offset >= sc.base && r.Offset+r.Size <= sc.base+int64(len(sc.buf)) {
		return sc.buf[r.Offset-sc.base : r.Offset-sc.base+r.Size]
	}
	want := max(r.Size, scanWindow)
	if int64(cap(sc.buf)) < want {
		sc.buf = make([]byte, want)
	}
	sc.buf = sc.buf[:want]
	n, _ := sc.src.ReadAt(sc.buf, r.Offset)
	sc.buf, sc.base = sc.buf[:n], r.Offset
	if int64(n) < r.Size {
		return nil
	}
	return sc.buf[:r.Size]
}
