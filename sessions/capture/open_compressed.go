package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"framescope/sessions"
)

// A capture attached to a ticket is often compressed. A gzip file (found
// by its magic bytes, never its extension, on a file or on stdin) is
// decompressed as it is read, within the bounds of a live body
// (sessions.DefaultMaxDecoded, DefaultMaxRatio); one layer only, as
// stacked codings are refused on the wire. Other compressions are named,
// so the user knows which tool unpacks them.

// compressedMagic are the formats framescope recognises but does not read.
var compressedMagic = []struct {
	magic []byte
	name  string
	tool  string
}{
	{[]byte{0x28, 0xb5, 0x2f, 0xfd}, "zstd", "zstd -d"},
	{[]byte("BZh"), "bzip2", "bunzip2"},
	{[]byte{0xfd, '7', 'z', 'X', 'Z', 0x00}, "xz", "unxz"},
	{[]byte{'P', 'K', 0x03, 0x04}, "zip", "unzip"},
	{[]byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}, "7z", "7z x"},
	{[]byte{0x04, 0x22, 0x4d, 0x18}, "lz4", "lz4 -d"},
}

var gzipMagic = []byte{0x1f, 0x8b}

// uncompressed returns a reader of the input's decompressed bytes when it
// is gzip (compressed true), the same buffered reader when it is not
// compressed, and an error naming the compression it cannot read.
func uncompressed(name string, br *bufio.Reader) (r io.Reader, compressed bool, err error) {
	head, _ := br.Peek(8)
	if bytes.HasPrefix(head, gzipMagic) {
		counted := &countingReader{r: br} // the compressed bytes, for the ratio bound
		zr, err := gzip.NewReader(counted)
		if err != nil {
			return nil, false, fmt.Errorf("%s: a gzip file whose header cannot be read: %v", sessions.Clean(name), err)
		}
		return &boundedInflate{name: name, zr: zr, raw: counted}, true, nil
	}
	for _, c := range compressedMagic {
		if bytes.HasPrefix(head, c.magic) {
			return nil, false, fmt.Errorf("%s: a %s-compressed file; framescope reads gzip (.gz) captures itself — decompress this one first (%s)", sessions.Clean(name), c.name, c.tool)
		}
	}
	return br, false, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// boundedInflate reads a gzip stream and stops at the decoded size or
// ratio bound with an error that says which (the capture then ends as
// damaged: capture-corrupt, what was decoded is still checked).
type boundedInflate struct {
	name    string
	zr      *gzip.Reader
	raw     *countingReader
	decoded int64
	err     error
}

func (b *boundedInflate) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.zr.Read(p)
	next := b.decoded + int64(n)
	switch {
	case next > sessions.DefaultMaxDecoded:
		n = int(sessions.DefaultMaxDecoded - b.decoded)
		b.err = fmt.Errorf("gzip capture: decoded size passed %s (%s compressed): stopped, the rest is not read",
			sessions.FormatSize(sessions.DefaultMaxDecoded), sessions.FormatSize(b.raw.n))
	case next > sessions.RatioFloor && b.raw.n > 0 && next > sessions.DefaultMaxRatio*b.raw.n:
		b.err = fmt.Errorf("gzip capture: decompression ratio passed %d× (%s from %s compressed): stopped as a decompression bomb",
			sessions.DefaultMaxRatio, sessions.FormatSize(next), sessions.FormatSize(b.raw.n))
	case err != nil && err != io.EOF:
		b.err = fmt.Errorf("gzip capture: %v after %s decoded", err, sessions.FormatSize(next))
	}
	b.decoded += int64(n)
	if b.err != nil {
		return n, b.err
	}
	return n, err
}
