package store

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// TestRowPackRoundTrip: a frozen chunk decodes to the rows it was made of,
// field for field, whatever the rows (sev travels beside the encoding).
func TestRowPackRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	flood := func(i int) rowRec {
		return rowRec{off: int64(i) * 9, size: 9, frame: int32(i), kind: RowFrame, prob: decode.ProblemNotJSON, sev: sevAlarmed | 3}
	}
	mixed := func(i int) rowRec {
		rc := rowRec{off: rng.Int64N(1 << 40), size: rng.Int64N(1 << 20), at: time.Duration(rng.Int64() - math.MaxInt64/2),
			frame: rng.Int32() - math.MaxInt32/2, turn: rng.Int32N(1000) - 1, typ: rng.Uint32(),
			kind: RowKind(rng.IntN(5)), term: invariants.Terminality(rng.IntN(4)), prob: decode.Problem(rng.IntN(4)),
			flags: rowFlags(rng.IntN(64)), sev: uint8(rng.IntN(256))}
		if rng.IntN(3) == 0 {
			rc.at = 0
		}
		return rc
	}
	extremes := func(i int) rowRec {
		v := []int64{0, -1, math.MaxInt64, math.MinInt64}[i%4]
		return rowRec{off: v, size: -v, at: time.Duration(v), frame: int32(v), turn: int32(-v), typ: uint32(v), flags: 0xff, kind: 0xff}
	}
	for name, gen := range map[string]func(int) rowRec{"flood": flood, "mixed": mixed, "extremes": extremes} {
		for _, n := range []int{1, 2, 100, chunkRows} {
			recs := make([]rowRec, n)
			for i := range recs {
				recs[i] = gen(i)
			}
			c := freeze(recs)
			out := make([]rowRec, chunkRows)
			c.thaw(out)
			// A block read alone decodes as the whole chunk does.
			if b := c.blocks() - 1; b >= 0 {
				blk := make([]rowRec, packBlock)
				c.thawBlock(b, blk)
				for i := b * packBlock; i < n; i++ {
					if blk[i-b*packBlock] != out[i] {
						t.Fatalf("%s/%d: block %d row %d differs", name, n, b, i)
					}
				}
			}
			for i := range recs {
				got := out[i]
				got.sev = c.sev[i]
				if got != recs[i] {
					t.Fatalf("%s/%d: row %d = %+v, want %+v", name, n, i, got, recs[i])
				}
			}
			// One byte a row, and a full row at the start of each block.
			if name == "flood" && n == chunkRows && len(c.enc) > n+32*(n/packBlock) {
				t.Errorf("a flood chunk takes %d bytes for %d rows", len(c.enc), n)
			}
		}
	}
}

// TestStoreFrozenRows: a store of more rows than a chunk reads every row
// back (frozen or not), marks alarms on frozen rows, and its snapshot
// agrees with it.
func TestStoreFrozenRows(t *testing.T) {
	const n = 3*chunkRows + 17
	path := floodFile(t, "data: {}\n\n", n)
	st := storeOf(t, pc3Source(t, path))
	if st.Len() != n || len(st.chunks) != 4 || st.chunks[0].recs != nil || st.chunks[3].recs == nil {
		t.Fatalf("%d rows in %d chunks", st.Len(), len(st.chunks))
	}
	sn, row, _ := st.Snapshot()
	for _, i := range []int{0, 1, chunkRows - 1, chunkRows, 2*chunkRows + 5, n - 1, 5, n - 2} {
		r := st.Row(i)
		if r.Frame != i || r.Offset != int64(10*i) || r.Size != 10 || r.Kind != RowFrame || len(r.Alarms) == 0 || r.MaxSev != "error" {
			t.Errorf("row %d: %+v", i, r)
		}
		if s := row(i); sn != n || s.Frame != i || s.Offset != r.Offset || s.Type != r.Type {
			t.Errorf("snapshot row %d: %+v", i, s)
		}
		if st.RowOfFrame(i) != i || st.AsOfFrame(i) != i || st.TurnOfRow(i) != r.Turn {
			t.Errorf("row %d: indexes", i)
		}
	}
}
