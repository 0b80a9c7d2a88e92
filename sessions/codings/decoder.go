package codings

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"

	"github.com/andybalholm/brotli"
)

// NewDecoder is one content coding's decoder over r: gzip (x-gzip), br, or
// deflate — zlib-wrapped as RFC 9110 §8.4.1.2 says, or raw (RFC 1951) as
// some servers send it, told apart by the zlib header. io.EOF: r is empty
// (an empty body decodes to nothing).
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

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Stack wraps r, a body encoded with encs (in the order applied), in a
// decoder per coding, the last applied decoded first. It may block: a
// gzip header is read here. between wraps the output of a layer that
// another decodes next (inner names its coding): a layer can inflate a
// thousandfold into one that decodes to nothing, so its caller bounds it
// there as it bounds the body's. tag names the coding in the errors of
// making a decoder and of its reads, as the caller reports them. An
// empty body decodes to an empty reader.
func Stack(encs []string, r io.Reader, between func(inner string, r io.Reader) io.Reader, tag func(coding string, err error) error) (io.Reader, error) {
	for i := len(encs) - 1; i >= 0; i-- {
		if i < len(encs)-1 {
			r = between(Name(encs[i+1]), r)
		}
		coding := Name(encs[i])
		d, err := NewDecoder(coding, r)
		if err == io.EOF {
			r = eofReader{} // an empty body: so are the layers around it
			continue
		}
		if err != nil {
			return nil, tag(coding, err)
		}
		r = &tagged{r: d, coding: coding, tag: tag}
	}
	return r, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// tagged passes a decoder's read errors through tag, which names the
// coding in them.
type tagged struct {
	r      io.Reader
	coding string
	tag    func(coding string, err error) error
}

func (c *tagged) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil {
		err = c.tag(c.coding, err)
	}
	return n, err
}
