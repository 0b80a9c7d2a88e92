package codings

import (
	"strings"
	"testing"
)

// TestBound: the size bound keeps the bytes up to it; the ratio bound,
// checked past RatioFloor only, keeps the read that passed it; 0 and
// negative options are the default and no bound.
func TestBound(t *testing.T) {
	b := NewBound(10, -1)
	if n, ex := b.Allow(8, 1); n != 8 || ex != nil {
		t.Fatalf("within: %d, %v", n, ex)
	}
	n, ex := b.Allow(8, 2)
	if n != 2 || ex == nil || ex.Ratio != 0 || !strings.HasPrefix(ex.Error(), "decoded size passed 10 B") {
		t.Fatalf("past the size: %d, %v", n, ex)
	}

	r := NewBound(-1, 0)
	if r.Max != 0 || r.Ratio != DefaultMaxRatio {
		t.Fatalf("NewBound(-1, 0) = %+v", r)
	}
	if n, ex := r.Allow(RatioFloor, 1); n != RatioFloor || ex != nil {
		t.Fatalf("at the floor: %d, %v", n, ex)
	}
	n, ex = r.Allow(100, 1)
	if n != 100 || ex == nil || ex.Ratio != DefaultMaxRatio || !strings.HasPrefix(ex.Error(), "decompression ratio passed 100×") {
		t.Fatalf("past the ratio: %d, %v", n, ex)
	}
	if r.Decoded() != RatioFloor+100 {
		t.Errorf("decoded %d", r.Decoded())
	}
	if d := NewBound(0, 0); d.Max != DefaultMaxDecoded || d.Ratio != DefaultMaxRatio {
		t.Errorf("defaults %+v", d)
	}
}

func TestParse(t *testing.T) {
	encs, n := Parse([]string{"GZIP, identity", " br ,, deflate", "x-gzip"}, 3)
	if n != 4 || strings.Join(encs, " ") != "gzip br deflate" {
		t.Errorf("Parse = %q, %d", encs, n)
	}
}
