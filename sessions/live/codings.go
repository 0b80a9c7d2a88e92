package live

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
)

// ParseCodings lists the content codings applied to a body, in the order
// they were applied (identity dropped): at most limit of them, and how many
// there are in all (counted without allocating one string per coding: a
// header can stack 50,000).
func ParseCodings(values []string, limit int) ([]string, int) {
	var out []string
	n := 0
	for _, v := range values {
		for rest := v; rest != ""; {
			var c string
			c, rest, _ = strings.Cut(rest, ",")
			c = strings.TrimSpace(c)
			if c == "" || strings.EqualFold(c, "identity") {
				continue
			}
			if n++; n <= limit {
				out = append(out, strings.ToLower(c))
			}
		}
	}
	return out, n
}

// NewDecoder is one content coding's decoder over r: gzip (x-gzip), br, or
// deflate — zlib-wrapped as RFC 9110 §8.4.1.2 says, or raw (RFC 1951) as
// some servers send it, told apart by the zlib header. io.EOF: r is empty
// (an empty body decodes to nothing). connect's and the proxy's decoders
// both stack these.
func NewDecoder(coding string, r io.Reader) (io.Reader, error) {
	switch coding {
	case "gzip", "x-gzip":
		return gzip.NewReader(r) // multistream: concatenated members are one body (RFC 1952 §2.2)
	case "br":
		br := bufio.NewReaderSize(r, 4<<10)
		if _, err := br.Peek(1); err == io.EOF {
			return nil, io.EOF
		}
		return brotli.NewReader(br), nil // another read error comes with the first Read
	case "deflate":
		br := bufio.NewReaderSize(r, 4<<10)
		hdr, err := br.Peek(2)
		if err != nil && len(hdr) < 2 {
			if err == io.EOF && len(hdr) == 0 {
				return nil, io.EOF
			}
			return nil, unexpected(err)
		}
		if hdr[0]&0x0f == 8 && hdr[0]>>4 <= 7 && (uint16(hdr[0])<<8|uint16(hdr[1]))%31 == 0 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	}
	return nil, errors.New("this coding cannot be decoded")
}

// TagErrors wraps a coding's decoder so that its read errors pass through
// tag, which names the coding in them as its caller reports them
// (connect's decodeError, the proxy's message).
func TagErrors(r io.Reader, coding string, tag func(coding string, err error) error) io.Reader {
	return &codingReader{r: r, coding: coding, tag: tag}
}

type codingReader struct {
	r      io.Reader
	coding string
	tag    func(coding string, err error) error
}

func (c *codingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil {
		err = c.tag(c.coding, err)
	}
	return n, err
}
