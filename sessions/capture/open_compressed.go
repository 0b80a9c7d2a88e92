package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"framescope/sessions"
	"framescope/sessions/codings"
)

// A capture attached to a ticket is often compressed. A gzip file (found
// by its magic bytes, never its extension, on a file or on stdin) is
// decompressed as it is read, within the bounds of a live body
// (codings.DefaultMaxDecoded, DefaultMaxRatio); one layer only, as
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
		return &boundedInflate{name: name, zr: zr, raw: counted, bound: codings.NewBound(0, 0)}, true, nil
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
// ratio bound (codings.Bound, a live body's defaults) with an error that
// says which (the capture then ends as damaged: capture-corrupt, what was
// decoded is still checked).
type boundedInflate struct {
	name  string
	zr    *gzip.Reader
	raw   *countingReader
	bound codings.Bound
	err   error
}

func (b *boundedInflate) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.zr.Read(p)
	n, ex := b.bound.Allow(n, b.raw.n)
	switch {
	case ex != nil && ex.Ratio > 0:
		b.err = fmt.Errorf("gzip capture: %w: stopped as a decompression bomb", ex)
	case ex != nil:
		b.err = fmt.Errorf("gzip capture: %w: stopped, the rest is not read", ex)
	case err != nil && err != io.EOF:
		b.err = fmt.Errorf("gzip capture: %v after %s decoded", err, sessions.FormatSize(b.bound.Decoded()))
	}
	if b.err != nil {
		return n, b.err
	}
	return n, err
}
