package live

import (
	"fmt"

	"framescope/sessions/codings"
)

// A compressed body can inflate a thousandfold (a few MB of gzip became
// gigabytes of capture, twice: the -o file and the library copy). Live
// stops decoding at the bounds every decoding shares (codings.Bound:
// --max-decoded, --max-ratio), and ends the stream as an error that says
// so; what was decoded before is kept.

// inflateLimit checks a compressed body as it is decoded.
type inflateLimit struct {
	b      codings.Bound
	coding string // "gzip", "deflate", "br" (outermost)
}

// allow returns how many of n newly decoded bytes stay within the limits
// (rawSoFar compressed bytes read), and the error that ends the stream
// when some do not.
func (l *inflateLimit) allow(n int, rawSoFar int64) (int, error) {
	n, ex := l.b.Allow(n, rawSoFar)
	switch {
	case ex == nil:
		return n, nil
	case ex.Ratio > 0:
		return n, &decodeError{coding: l.coding, bound: true, err: fmt.Errorf(
			"%w: stopped as a decompression bomb, the stream keeps what was decoded (--max-ratio raises the limit)", ex)}
	}
	return n, &decodeError{coding: l.coding, bound: true, err: fmt.Errorf(
		"%w: stopped, the stream keeps what was decoded before (--max-decoded raises the limit)", ex)}
}

// newInflateLimit applies the options' bounds (0: the default, negative:
// none) to a body encoded with coding (its outermost).
func newInflateLimit(opts ConnectOptions, coding string) *inflateLimit {
	return &inflateLimit{b: codings.NewBound(opts.MaxDecoded, opts.MaxRatio), coding: codings.Name(coding)}
}

// layerLimit is the limit of a layer that another decodes next: the
// body's bounds, counted afresh on what that layer decodes.
func (l *inflateLimit) layerLimit(coding string) *inflateLimit {
	return &inflateLimit{b: codings.Bound{Max: l.b.Max, Ratio: l.b.Ratio}, coding: coding}
}
