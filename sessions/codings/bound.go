package codings

import (
	"fmt"

	"framescope/sessions"
)

// A compressed body can inflate a thousandfold (a few MB of gzip became
// gigabytes of capture, twice: the -o file and the library copy). Every
// decoding stops at a size or a ratio, whichever comes first.
const (
	// DefaultMaxDecoded bounds the decoded size of a compressed body.
	DefaultMaxDecoded = 1 << 30
	// DefaultMaxRatio bounds decoded/compressed bytes. Turn streams
	// flushed frame by frame compress 3–20×; a bomb, 1000×.
	DefaultMaxRatio = 100
	// RatioFloor is the decoded size below which the ratio is not checked:
	// a small body of repeated bytes is no threat.
	RatioFloor = 8 << 20
)

// Bound checks a compressed body as it is decoded. Its zero value bounds
// nothing; NewBound applies the defaults.
type Bound struct {
	Max     int64   // decoded bytes at most (0: no size bound)
	Ratio   float64 // decoded/compressed at most, past RatioFloor (0: no ratio bound)
	decoded int64
}

// NewBound is the bound of --max-decoded and --max-ratio: 0 the default,
// negative none.
func NewBound(maxDecoded int64, maxRatio float64) Bound {
	if maxDecoded == 0 {
		maxDecoded = DefaultMaxDecoded
	}
	if maxRatio == 0 {
		maxRatio = DefaultMaxRatio
	}
	return Bound{Max: max(maxDecoded, 0), Ratio: max(maxRatio, 0)}
}

// Allow returns how many of n newly decoded bytes stay within the bound
// (raw compressed bytes read so far) and, when some do not, which bound
// was passed. Past the size, the bytes up to it are kept; past the ratio,
// all n are (the ratio is passed by the stream so far, not a byte).
func (b *Bound) Allow(n int, raw int64) (int, *Exceeded) {
	next := b.decoded + int64(n)
	if b.Max > 0 && next > b.Max {
		keep := int(b.Max - b.decoded)
		b.decoded = b.Max
		return keep, &Exceeded{Decoded: b.Max, Raw: raw}
	}
	if b.Ratio > 0 && next > RatioFloor && raw > 0 && float64(next) > b.Ratio*float64(raw) {
		b.decoded = next
		return n, &Exceeded{Ratio: b.Ratio, Decoded: next, Raw: raw}
	}
	b.decoded = next
	return n, nil
}

// Exceeded is a decoding stopped by a Bound: a stop by choice, not a
// damaged body. Its Error says which bound and where; each reader adds
// what that means for it.
type Exceeded struct {
	Ratio   float64 // the ratio passed (0: the size bound was)
	Decoded int64   // decoded bytes: the size bound, or where the ratio was passed
	Raw     int64   // compressed bytes read
}

func (e *Exceeded) Error() string {
	if e.Ratio > 0 {
		return fmt.Sprintf("decompression ratio passed %g× (%s from %s compressed)",
			e.Ratio, sessions.FormatSize(e.Decoded), sessions.FormatSize(e.Raw))
	}
	return fmt.Sprintf("decoded size passed %s (%s compressed)", sessions.FormatSize(e.Decoded), sessions.FormatSize(e.Raw))
}

// Decoded is how many bytes the bound has let through.
func (b *Bound) Decoded() int64 { return b.decoded }
