package live

import (
	"fmt"
	"strings"

	"framescope/sessions"
)

// A compressed body can inflate a thousandfold (a few MB of gzip became
// gigabytes of capture, twice: the -o file and the library copy). Live
// stops decoding at a size or a ratio, whichever comes first (the bounds
// compressed capture files share, sessions/inflate_bounds.go), and ends the
// stream as an error that says so; what was decoded before is kept.
const (
	DefaultMaxDecoded = sessions.DefaultMaxDecoded
	DefaultMaxRatio   = sessions.DefaultMaxRatio
	ratioFloor        = sessions.RatioFloor
)

// inflateLimit checks a compressed body as it is decoded.
type inflateLimit struct {
	max     int64   // 0: no size bound
	ratio   float64 // 0: no ratio bound
	coding  string  // "gzip", "deflate", "br" (outermost)
	decoded int64
}

// allow returns how many of n newly decoded bytes stay within the limits
// (rawSoFar compressed bytes read), and the error that ends the stream
// when some do not.
func (l *inflateLimit) allow(n int, rawSoFar int64) (int, error) {
	next := l.decoded + int64(n)
	if l.max > 0 && next > l.max {
		keep := int(l.max - l.decoded)
		l.decoded = l.max
		return keep, &decodeError{coding: l.coding, bound: true, err: fmt.Errorf(
			"decoded size passed %s (%s compressed): stopped, the stream keeps what was decoded before (--max-decoded raises the limit)",
			sessions.FormatSize(l.max), sessions.FormatSize(rawSoFar))}
	}
	if l.ratio > 0 && next > ratioFloor && rawSoFar > 0 && float64(next) > l.ratio*float64(rawSoFar) {
		l.decoded = next
		return n, &decodeError{coding: l.coding, bound: true, err: fmt.Errorf(
			"decompression ratio passed %g× (%s from %s compressed): stopped as a decompression bomb, the stream keeps what was decoded (--max-ratio raises the limit)",
			l.ratio, sessions.FormatSize(next), sessions.FormatSize(rawSoFar))}
	}
	l.decoded = next
	return n, nil
}

// newInflateLimit applies the options' bounds (0: the default, negative:
// none) to a body encoded with coding (its outermost).
func newInflateLimit(opts ConnectOptions, coding string) *inflateLimit {
	l := &inflateLimit{max: opts.MaxDecoded, ratio: opts.MaxRatio, coding: strings.TrimPrefix(coding, "x-")}
	if l.max == 0 {
		l.max = DefaultMaxDecoded
	}
	if l.ratio == 0 {
		l.ratio = DefaultMaxRatio
	}
	l.max, l.ratio = max(l.max, 0), max(l.ratio, 0)
	return l
}
