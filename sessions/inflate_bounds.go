package sessions

// A compressed body can inflate a thousandfold (a few MB of gzip become
// gigabytes). Live bodies and compressed capture files are decoded within
// the same bounds: a size or a ratio, whichever comes first.
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
