package capture

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"framescope/decode"
	"framescope/sessions"
)

// A HAR keeps response bodies as JSON strings, often base64: a 500 MB body
// read whole was held four times over (the file, the raw entry, the Go
// string, the decoded bytes). Instead the HAR is read in two steps:
//
//  1. harSkeleton copies the document with every long string replaced by a
//     placeholder that names where the string is, so the structure (entries,
//     headers, URLs) parses with encoding/json in memory proportional to it,
//     not to the bodies;
//  2. the chosen entry's body is then streamed from its place: JSON escapes
//     and base64 decoded on the fly, one chunk at a time.
//
// From a file the long strings are read again at their offsets; from a pipe
// (stdin) they are kept raw in memory, once.

// harLongString is the length from which a string becomes a placeholder.
const harLongString = 4 << 10

// harSpans are the long strings of one HAR.
type harSpans struct {
	prefix string // "framescope-har-long-string:<nonce>:"; the random nonce makes it unforgeable
	// mu guards spans while a skeleton is made and read at once
	// (harSkeletonTo's flush).
	mu    sync.Mutex
	spans []harSpan
	src   io.ReaderAt // the file; nil: the spans' raw bytes are kept
}

// harSpan is a long string's contents (between the quotes, still escaped).
type harSpan struct {
	off, n int64
	skel   int64  // the offset of its placeholder's quote in the skeleton
	raw    []byte // when read from a pipe
}

// placeholder is the skeleton's stand-in for span i.
func (s *harSpans) placeholder(i int) string { return s.prefix + strconv.Itoa(i) }

// span returns the long string a value stands for, if it is a placeholder.
func (s *harSpans) span(v string) (harSpan, bool) {
	if s == nil {
		return harSpan{}, false
	}
	rest, ok := strings.CutPrefix(v, s.prefix)
	if !ok {
		return harSpan{}, false
	}
	i, err := strconv.Atoi(rest)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || i < 0 || i >= len(s.spans) {
		return harSpan{}, false
	}
	return s.spans[i], true
}

// none reports whether there is no long string (yet).
func (s *harSpans) none() bool {
	if s == nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.spans) == 0
}

// rawReader reads a span's escaped contents.
func (s *harSpans) rawReader(sp harSpan) io.Reader {
	if sp.raw != nil || s.src == nil {
		return bytes.NewReader(sp.raw)
	}
	return io.NewSectionReader(s.src, sp.off, sp.n)
}

// text is a field's value: the value itself, or, for a placeholder, the
// long string it stands for, cut at max bytes (with an ellipsis). Fields
// other than the body are only shown, and max bounds what showing costs.
func (s *harSpans) text(v string, max int) string {
	sp, ok := s.span(v)
	if !ok {
		return v
	}
	b, err := io.ReadAll(io.LimitReader(newJSONStringReader(s.rawReader(sp)), int64(max)+1))
	if err != nil {
		return "[unreadable: " + sessions.Clean(err.Error()) + "]"
	}
	if len(b) > max {
		b = append(b[:max], "…"...)
	}
	return string(b)
}

// harSkeleton reads a whole HAR from br and returns its skeleton. at is the
// input's file when it can be read again by offset (br must then start at
// offset 0 of it), else nil. A string with a bad escape or a control
// character is a syntax error with its line, as encoding/json would say.
func harSkeleton(name string, br *bufio.Reader, at io.ReaderAt) ([]byte, *harSpans, error) {
	return harSkeletonTo(name, br, at, newHARSpans(at), nil)
}

func newHARSpans(at io.ReaderAt) *harSpans {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	return &harSpans{prefix: "framescope-har-long-string:" + hex.EncodeToString(nonce[:]) + ":", src: at}
}

// harSkeletonTo is harSkeleton that, with flush, hands the skeleton on
// block by block (flush takes the bytes; nothing is returned) instead of
// keeping it: the index of a HAR file reads it as it is made
// (read_har_index.go), so the document is never held whole.
func harSkeletonTo(name string, br *bufio.Reader, at io.ReaderAt, spans *harSpans, flush func([]byte) error) ([]byte, *harSpans, error) {
	var flushed int64 // skeleton bytes handed to flush

	var (
		out   bytes.Buffer
		cur   []byte // the current string's contents while short (from a pipe: always)
		off   int64  // input offset of block[0]
		line  = 1    // of the current position, for errors
		start int64  // input offset of the current string's first content byte
		long  bool   // the current string is long: a placeholder
		left  int    // hex digits still due in a \u escape
	)
	const (
		outside = iota
		inString
		escape
		unicodeEsc
	)
	state := outside
	keep := func(p []byte) {
		if long && at != nil {
			return // read again from the file
		}
		cur = append(cur, p...)
		if !long && len(cur) > harLongString {
			long = true
			if at != nil {
				cur = cur[:0]
			}
		}
	}
	endString := func(end int64) {
		if !long {
			out.WriteByte('"')
			out.Write(cur)
			out.WriteByte('"')
			cur = cur[:0]
			return
		}
		sp := harSpan{off: start, n: end - start, skel: flushed + int64(out.Len())}
		if at == nil {
			sp.raw, cur = cur, nil // the span keeps them
		}
		spans.mu.Lock()
		out.WriteString(`"` + spans.placeholder(len(spans.spans)) + `"`) // plain ASCII: no escaping
		spans.spans = append(spans.spans, sp)
		spans.mu.Unlock()
		cur, long = cur[:0], false
	}
	syntaxErr := func(format string, c byte) error {
		return fmt.Errorf("%s:%d: invalid JSON in HAR: invalid character %s %s", sessions.Clean(name), line, strconv.QuoteRune(rune(c)), format)
	}
	block := make([]byte, min(64<<10, br.Size())) // small for one entry (read_har_index.go)
	for {
		n, rerr := br.Read(block)
		b := block[:n]
		for i := 0; i < len(b); {
			c := b[i]
			switch state {
			case outside:
				j := bytes.IndexByte(b[i:], '"')
				if j < 0 {
					j = len(b) - i
				}
				line += bytes.Count(b[i:i+j], []byte("\n"))
				out.Write(b[i : i+j])
				i += j
				if i < len(b) {
					i++ // the quote
					state, start = inString, off+int64(i)
				}
			case inString:
				j := i
				for j < len(b) && b[j] >= 0x20 && b[j] != '"' && b[j] != '\\' {
					j++
				}
				keep(b[i:j])
				if i = j; i == len(b) {
					continue
				}
				switch c = b[i]; c {
				case '"':
					endString(off + int64(i))
					state = outside
				case '\\':
					keep(b[i : i+1])
					state = escape
				default:
					return nil, nil, syntaxErr("in string literal", c)
				}
				i++
			case escape:
				switch c {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					state = inString
				case 'u':
					state, left = unicodeEsc, 4
				default:
					return nil, nil, syntaxErr("in string escape code", c)
				}
				keep(b[i : i+1])
				i++
			case unicodeEsc:
				if !isHex(c) {
					return nil, nil, syntaxErr("in \\u hexadecimal character escape", c)
				}
				keep(b[i : i+1])
				if left--; left == 0 {
					state = inString
				}
				i++
			}
		}
		off += int64(n)
		harSkeletonBytes.Add(int64(n))
		if flush != nil && out.Len() > 0 {
			flushed += int64(out.Len())
			if err := flush(out.Bytes()); err != nil {
				return nil, nil, err
			}
			out.Reset()
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, nil, readError(name, rerr)
		}
	}
	if state != outside {
		// Cut off inside a string: the skeleton ends there too, so that
		// encoding/json reports the document as truncated.
		out.WriteByte('"')
	}
	if flush != nil {
		if out.Len() > 0 {
			if err := flush(out.Bytes()); err != nil {
				return nil, nil, err
			}
		}
		return nil, spans, nil
	}
	return out.Bytes(), spans, nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// jsonStringReader decodes the contents of a JSON string literal (escapes
// checked by harSkeleton) as encoding/json does: escapes resolved, invalid
// UTF-8 and lone surrogates become U+FFFD.
type jsonStringReader struct {
	src  io.Reader
	in   []byte // in[:n]: input not decoded yet (at most an escape's worth between reads)
	n    int
	out  []byte
	pend []byte // decoded, not yet returned
	eof  bool
	err  error
}

func newJSONStringReader(src io.Reader) *jsonStringReader {
	return &jsonStringReader{src: src, in: make([]byte, 32<<10)}
}

func (r *jsonStringReader) Read(p []byte) (int, error) {
	for len(r.pend) == 0 {
		switch {
		case r.err != nil:
			return 0, r.err
		case r.eof && r.n == 0:
			r.err = io.EOF
			continue
		case !r.eof:
			m, err := r.src.Read(r.in[r.n:])
			r.n += m
			if err == io.EOF {
				r.eof = true
			} else if err != nil {
				r.err = err
				continue
			}
		}
		out, used := decodeJSONString(r.out[:0], r.in[:r.n], r.eof)
		r.out, r.pend = out, out
		r.n = copy(r.in, r.in[used:r.n])
	}
	n := copy(p, r.pend)
	r.pend = r.pend[n:]
	return n, nil
}

// decodeJSONString appends the decoding of src to dst. Without final it
// stops before an escape or a UTF-8 sequence that may continue in the next
// input, and says how many bytes it used.
func decodeJSONString(dst, src []byte, final bool) ([]byte, int) {
	i := 0
	for i < len(src) {
		// A run of plain ASCII: the common case (base64 bodies).
		j := i
		for j < len(src) && src[j] < utf8.RuneSelf && src[j] != '\\' {
			j++
		}
		dst = append(dst, src[i:j]...)
		i = j
		if i == len(src) {
			break
		}
		if src[i] != '\\' {
			if !final && !utf8.FullRune(src[i:]) {
				return dst, i
			}
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, src[i:i+size]...)
			}
			i += size
			continue
		}
		if !final && len(src)-i < 12 {
			return dst, i // an escape, or a surrogate pair, may run on in the next input
		}
		var n int
		if dst, n, _ = decode.AppendEscape(dst, src[i:]); n > 0 {
			i += n
			continue
		}
		// Not an escape JSON has (harSkeleton let none through): a
		// backslash at the very end is dropped, \u without its digits
		// kept as it is, another letter kept without its backslash.
		switch {
		case i+1 >= len(src):
			i = len(src)
		case src[i+1] == 'u':
			dst = append(dst, src[i:i+2]...)
			i += 2
		default:
			dst = append(dst, src[i+1])
			i += 2
		}
	}
	return dst, i
}

// base64Stream decodes standard base64 as a stream, as decodeBase64 does a
// whole string: line breaks ignored, padding optional (when the text has
// none at all), nothing after the padding.
type base64Stream struct {
	src     io.Reader
	buf     []byte // base64 text not decoded yet, line breaks removed
	out     []byte
	pend    []byte // decoded, not yet returned
	sawPad  bool   // a '=' was read
	ended   bool   // the decoded text ended with padding: nothing may follow
	eof     bool
	err     error
	decoded int64 // base64 bytes decoded so far, for error offsets
}

func newBase64Stream(src io.Reader) *base64Stream {
	return &base64Stream{src: src, buf: make([]byte, 0, 64<<10)}
}

func (s *base64Stream) Read(p []byte) (int, error) {
	for len(s.pend) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		if !s.eof && len(s.buf) < cap(s.buf) {
			free := s.buf[len(s.buf):cap(s.buf)]
			m, err := s.src.Read(free)
			kept := s.buf
			for _, c := range free[:m] {
				if c != '\r' && c != '\n' {
					kept = append(kept, c)
				}
			}
			s.sawPad = s.sawPad || bytes.IndexByte(kept[len(s.buf):], '=') >= 0
			s.buf = kept
			if err == io.EOF {
				s.eof = true
			} else if err != nil {
				s.err = err
				continue
			}
		}
		if len(s.buf) == 0 {
			if s.eof {
				s.err = io.EOF
			}
			continue
		}
		if s.ended {
			s.err = fmt.Errorf("illegal base64 data at input byte %d", s.decoded)
			continue
		}
		// Whole quanta with the standard decoder; at the end, a short
		// unpadded tail with the raw one (as decodeBase64 falls back).
		n, enc := len(s.buf)/4*4, base64.StdEncoding
		if s.eof && n == 0 {
			n = len(s.buf)
			if !s.sawPad {
				enc = base64.RawStdEncoding
			}
		}
		if n == 0 {
			continue // wait for a whole quantum
		}
		if want := enc.DecodedLen(n); cap(s.out) < want {
			s.out = make([]byte, want)
		}
		m, err := enc.Decode(s.out[:enc.DecodedLen(n)], s.buf[:n])
		s.pend = s.out[:m]
		if err != nil {
			var ce base64.CorruptInputError
			if errors.As(err, &ce) {
				err = fmt.Errorf("illegal base64 data at input byte %d", s.decoded+int64(ce))
			}
			s.err = err
			break
		}
		s.ended = s.buf[n-1] == '='
		s.decoded += int64(n)
		s.buf = s.buf[:copy(s.buf, s.buf[n:])]
	}
	n := copy(p, s.pend)
	s.pend = s.pend[n:]
	return n, nil
}
