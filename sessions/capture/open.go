package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"framescope/sessions"
	"framescope/sessions/library"
)

// OpenOptions tunes Open and OpenReader.
type OpenOptions struct {
	// Entry picks the HAR entry to read by its place in the HAR:
	// log.entries[Entry], 0-based, as check names it FILE#N; it must be
	// an SSE entry. -1 means automatic: the first SSE entry (a Problem
	// notes when there were several).
	Entry int
	// Stdin is read when the name is "-".
	Stdin io.Reader
	// EntryGiven says the user chose Entry (--entry): a capture that is not
	// a HAR is then an error rather than the choice silently ignored.
	EntryGiven bool
}

const (
	// readChunkSize is the most bytes a raw SSE chunk carries.
	readChunkSize = 64 << 10
	// sniffSize is how much of the input sniffing may look at (and the size
	// of the buffered reader every format reads through).
	sniffSize = 64 << 10
)

// maxLineSize bounds one line of a JSONL or NDJSON capture; longer lines
// are reported and skipped so memory stays bounded. (A variable so that a
// test can lower it rather than write 64 MiB lines.)
var maxLineSize = 64 << 20

// Open sniffs the content (never the file extension) and returns a reader.
// "-" reads opts.Stdin. Unreadable or unrecognisable input gives an error
// whose message names the file and what is wrong.
func Open(name string, opts OpenOptions) (sessions.Capture, error) {
	if name == "-" {
		if opts.Stdin == nil {
			return nil, errors.New("-: no standard input to read")
		}
		return OpenReader(name, opts.Stdin, opts)
	}
	if strings.HasPrefix(name, "@") {
		path, err := library.ResolveRef(name) // a session of the library: @last, @ID, @prefix
		if err != nil {
			return nil, err
		}
		name = path
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, openError(name, err)
	}
	c, err := openReader(name, f, f, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

// OpenReader is Open on an already-open stream; name is used in messages
// and Meta only. The reader is not closed by the Capture's Close.
func OpenReader(name string, r io.Reader, opts OpenOptions) (sessions.Capture, error) {
	return openReader(name, r, nil, opts)
}

// OpenReadCloser is OpenReader on a stream the Capture owns: its Close
// closes rc (a file opened from an fs.FS).
func OpenReadCloser(name string, rc io.ReadCloser, opts OpenOptions) (sessions.Capture, error) {
	return openReader(name, rc, rc, opts)
}

func openError(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", sessions.Clean(name), pe.Err)
	}
	return fmt.Errorf("%s: %w", sessions.Clean(name), err)
}

func openReader(name string, r io.Reader, closer io.Closer, opts OpenOptions) (sessions.Capture, error) {
	in, err := sniffInput(name, r, closer)
	if err != nil {
		return nil, err
	}
	return in.open(name, opts)
}

// sniffedInput is an input read up to its sniff: br reads its
// (decompressed) bytes from the start, kind is its format.
type sniffedInput struct {
	br         *bufio.Reader
	closer     io.Closer // struct-wrapped when compressed: no longer the file
	kind       sessions.Kind
	file       *os.File // the file read, when it is one (closer unwrapped)
	compressed bool
}

// readerAt is the input by offset: its file, when that is regular and not
// compressed (a HAR's long bodies are then read from their offsets).
func (in *sniffedInput) readerAt() io.ReaderAt {
	if in.compressed || in.file == nil {
		return nil
	}
	if _, ok := fileKeyOf(in.file); !ok {
		return nil
	}
	return in.file
}

// harIndex indexes the sniffed HAR, from the cache when its file (a
// regular file, compressed or not) was indexed unchanged before.
func (in *sniffedInput) harIndex(name string) (*harIndex, error) {
	key, cacheable := harFileKey{}, false
	if in.file != nil {
		key, cacheable = fileKeyOf(in.file)
	}
	return loadHARIndex(name, in.br, in.readerAt(), key, cacheable)
}

// sniffInput buffers r, decompresses it when it is gzip, and sniffs it.
func sniffInput(name string, r io.Reader, closer io.Closer) (*sniffedInput, error) {
	file, _ := closer.(*os.File)
	br := bufio.NewReaderSize(r, sniffSize)
	plain, compressed, err := uncompressed(name, br)
	if err != nil {
		return nil, err
	}
	if compressed {
		br = bufio.NewReaderSize(plain, sniffSize)
		if head, _ := br.Peek(2); bytes.HasPrefix(head, gzipMagic) {
			return nil, fmt.Errorf("%s: gzip inside gzip: framescope decompresses one layer (stacked codings are refused on the wire too)", sessions.Clean(name))
		}
		if closer != nil {
			closer = struct{ io.Closer }{closer}
		}
	}
	kind, err := sniffOrIndexed(name, br, file)
	if err != nil {
		return nil, err
	}
	return &sniffedInput{br: br, closer: closer, kind: kind, file: file, compressed: compressed}, nil
}

// open makes the capture of a sniffed input.
func (in *sniffedInput) open(name string, opts OpenOptions) (sessions.Capture, error) {
	br, closer, kind := in.br, in.closer, in.kind
	if opts.EntryGiven && kind != sessions.KindHAR {
		return nil, fmt.Errorf("%s: --entry %d picks one of a HAR's entries, but this is a %s capture, not a HAR", sessions.Clean(name), opts.Entry, kindName(kind))
	}
	switch kind {
	case sessions.KindSSE:
		return newSSECapture(name, br, closer), nil
	case sessions.KindJSONL:
		return newJSONLCapture(name, br, closer)
	case sessions.KindNDJSON:
		return newNDJSONCapture(name, br, closer)
	case sessions.KindRawNDJSON:
		return newRawNDJSONCapture(name, br, closer), nil
	case sessions.KindJSONSeq:
		return newJSONSeqCapture(name, br, closer), nil
	case sessions.KindHAR:
		// A regular file is read twice: its structure first, then the
		// chosen body from its offset (a pipe's long strings are kept).
		idx, err := in.harIndex(name)
		if err != nil {
			return nil, err
		}
		c, err := newHARCapture(name, idx, in.readerAt(), closer, opts.Entry)
		if err != nil {
			return nil, err
		}
		if c.closer == nil && closer != nil {
			closer.Close() // everything needed is in memory
		}
		return c, nil
	}
	return nil, notRecognised(name)
}

// kindName names a capture format in messages.
func kindName(k sessions.Kind) string {
	switch k {
	case sessions.KindSSE:
		return "raw SSE"
	case sessions.KindJSONL:
		return "framescope JSONL"
	case sessions.KindNDJSON:
		return "NDJSON frames"
	case sessions.KindRawNDJSON:
		return "raw NDJSON"
	case sessions.KindJSONSeq:
		return "JSON values"
	}
	return string(k)
}

func notRecognised(name string) error {
	return fmt.Errorf("%s: not a recognised capture (expected raw SSE, framescope JSONL, HAR, NDJSON or JSON values)", sessions.Clean(name))
}

func readError(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: read error: %w", sessions.Clean(name), err)
}

// --- sniffing ---------------------------------------------------------------

// peekMore returns everything buffered, after waiting for at least one more
// byte than the have bytes already seen (unless the input ended or the
// buffer is full). It never blocks for more than one read.
func peekMore(br *bufio.Reader, have int) ([]byte, error) {
	if have >= sniffSize {
		b, _ := br.Peek(sniffSize)
		return b, bufio.ErrBufferFull
	}
	_, err := br.Peek(have + 1)
	b, _ := br.Peek(br.Buffered())
	return b, err
}

// peekAll waits for the sniff window to fill (or the input to end).
func peekAll(br *bufio.Reader) ([]byte, error) {
	b, err := br.Peek(sniffSize)
	if err == bufio.ErrBufferFull {
		err = nil
	}
	return b, err
}

// sniff decides the capture kind from the content, without consuming it.
func sniff(name string, br *bufio.Reader) (sessions.Kind, error) {
	b, err := peekMore(br, 0)
	if len(b) == 0 {
		if err == nil || err == io.EOF {
			// An empty capture is a stream that closed without a byte:
			// readable, and checked as such (raw SSE with no event).
			return sessions.KindSSE, nil
		}
		return "", readError(name, err)
	}
	// Skip an optional BOM and white space.
	pos := 0
	for {
		if pos >= len(b) {
			if err != nil {
				break
			}
			b, err = peekMore(br, len(b))
			continue
		}
		if pos == 0 && b[0] == sessions.UTF8BOM[0] {
			for len(b) < 3 && err == nil {
				b, err = peekMore(br, len(b))
			}
			if bytes.HasPrefix(b, sessions.UTF8BOM) {
				pos = 3
				continue
			}
		}
		if c := b[pos]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			pos++
			continue
		}
		break
	}
	if pos >= len(b) {
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return "", readError(name, err)
		}
		if err == io.EOF {
			return sessions.KindSSE, nil // only white space: blank lines of SSE, no event
		}
		return "", notRecognised(name)
	}

	// The first line from pos (stop at a line end, the input's end or a
	// full buffer).
	firstLine := func() ([]byte, bool, error) {
		for {
			if i := bytes.IndexAny(b[pos:], "\r\n"); i >= 0 {
				return b[pos : pos+i], true, nil
			}
			if err != nil {
				if err == io.EOF {
					return b[pos:], true, nil
				}
				if err == bufio.ErrBufferFull {
					return b[pos:], false, nil
				}
				return nil, false, err
			}
			b, err = peekMore(br, len(b))
		}
	}

	if b[pos] != '{' {
		line, _, lerr := firstLine()
		if lerr != nil {
			return "", readError(name, lerr)
		}
		if isSSEFieldLine(line) {
			return sessions.KindSSE, nil
		}
		return sniffSSEScan(name, br)
	}

	line, complete, lerr := firstLine()
	if lerr != nil {
		return "", readError(name, lerr)
	}
	if complete && json.Valid(line) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) == nil {
			if k := kindFromKeys(obj); k != "" {
				return k, nil
			}
		}
		// A JSON object that is no capture of ours: a raw SSE capture
		// that starts with garbage?
		return sniffSSEScan(name, br)
	}
	// The first line is not a whole JSON value: a pretty-printed HAR, a
	// line too long for the window, or a damaged line. Look at the keys of
	// the top-level object that the window holds.
	all, aerr := peekAll(br)
	if aerr != nil && aerr != io.EOF {
		return "", readError(name, aerr)
	}
	keys, syntaxOK, finished := topLevelKeys(all[pos:])
	obj := make(map[string]json.RawMessage, len(keys))
	for _, k := range keys {
		obj[k] = nil
	}
	if _, ok := obj["data"]; ok {
		obj["data"] = json.RawMessage(`""`) // a key seen: its value may be cut off
	}
	if k := kindFromKeys(obj); k != "" {
		return k, nil
	}
	if syntaxOK && !finished {
		if aerr == io.EOF {
			// Cut off by the input's end: the HAR reader says what is
			// wrong, as it does with any truncated object.
			return sessions.KindHAR, nil
		}
		// Well-formed so far but longer than the window.
		return longFirstValue(keys, complete), nil
	}
	return sniffSSEScan(name, br)
}

// kindFromKeys classifies a first JSON object by its top-level keys.
func kindFromKeys(obj map[string]json.RawMessage) sessions.Kind {
	if _, ok := obj["framescope_capture"]; ok {
		return sessions.KindJSONL
	}
	if _, ok := obj["event_type"]; ok {
		return sessions.KindNDJSON
	}
	if _, ok := obj["index"]; ok {
		if d, ok := obj["data"]; ok && len(d) > 0 && d[0] == '"' {
			return sessions.KindNDJSON
		}
	}
	if _, ok := obj["truncated"]; ok {
		if _, ok := obj["raw"]; ok {
			return sessions.KindNDJSON // a dump whose only record is its truncated tail
		}
	}
	if _, ok := obj["block"]; ok {
		if _, ok := obj["offset"]; ok {
			return sessions.KindNDJSON // a dump that begins with a data-less block (id:, retry:)
		}
	}
	if _, ok := obj["log"]; ok {
		return sessions.KindHAR
	}
	// A framescope JSONL capture whose header line is missing.
	if _, ok := obj["t"]; ok {
		for _, k := range [...]string{"data", "b64", "end"} {
			if _, ok := obj[k]; ok {
				return sessions.KindJSONL
			}
		}
	}
	return ""
}

// topLevelKeys tokenizes a (possibly cut off) JSON object and returns the
// keys of its top level, whether no syntax error was seen, and whether the
// object was complete.
func topLevelKeys(b []byte) (keys []string, syntaxOK, finished bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, false, false
	}
	cut := func(err error) bool { return err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) }
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys, cut(err), false
		}
		k, ok := tok.(string)
		if !ok {
			return keys, tok == json.Delim('}'), tok == json.Delim('}')
		}
		keys = append(keys, k)
		// A value is skipped whole, not token by token: a HAR's log is
		// the whole sniff window, and each of its entries is opened with
		// a sniff (issue 24, item 7).
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return keys, cut(err), false
		}
	}
}

// sniffSSEScan accepts the input as raw SSE if any line in the sniff window
// is an SSE field line (a capture may start mid-stream with garbage).
func sniffSSEScan(name string, br *bufio.Reader) (sessions.Kind, error) {
	b, err := peekAll(br)
	if err != nil && err != io.EOF {
		return "", readError(name, err)
	}
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		line := b
		if i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if isSSEFieldLine(bytes.TrimPrefix(line, sessions.UTF8BOM)) {
			return sessions.KindSSE, nil
		}
	}
	all, _ := br.Peek(br.Buffered())
	switch {
	case looksJSONSeq(all): // before NDJSON: a jq-printed value's lines may hold a one-line object
		return sessions.KindJSONSeq, nil
	case looksRawNDJSON(all):
		return sessions.KindRawNDJSON, nil
	}
	return "", notRecognised(name)
}

// isSSEFieldLine reports whether line is an SSE comment or a line of one of
// the four SSE fields.
func isSSEFieldLine(line []byte) bool {
	if len(line) > 0 && line[0] == ':' {
		return true
	}
	for _, f := range [...]string{"data", "event", "id", "retry"} {
		if bytes.HasPrefix(line, []byte(f)) {
			rest := line[len(f):]
			if len(rest) == 0 || rest[0] == ':' {
				return true
			}
		}
	}
	return false
}

// --- shared helpers ---------------------------------------------------------

// lineReader reads lines of any length through a bufio.Reader, counting
// them (1-based).
type lineReader struct {
	br   *bufio.Reader
	buf  []byte
	line int // number of the line last returned
	err  error
}

// errLineTooLong is returned (with the line's number counted) when a line
// exceeds maxLineSize; the line has been skipped.
var errLineTooLong = errors.New("line too long")

// next returns the next line without its line ending. At the end it returns
// io.EOF (or the read error). The slice is valid until the next call.
func (lr *lineReader) next() ([]byte, error) {
	if lr.err != nil {
		return nil, lr.err
	}
	if cap(lr.buf) > 4*sniffSize {
		lr.buf = nil // do not keep a huge line's buffer around
	}
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		frag, err := lr.br.ReadSlice('\n')
		if !tooLong {
			if len(lr.buf)+len(frag) > maxLineSize {
				tooLong = true
				lr.buf = nil
			} else {
				lr.buf = append(lr.buf, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			lr.err = err
			if len(frag) == 0 && len(lr.buf) == 0 && !tooLong {
				return nil, err
			}
		}
		lr.line++
		if tooLong {
			return nil, errLineTooLong
		}
		l := lr.buf
		l = bytes.TrimSuffix(l, []byte("\n"))
		l = bytes.TrimSuffix(l, []byte("\r"))
		return l, nil
	}
}

// seconds converts a non-negative number of seconds to a Duration, saying
// what is wrong when it cannot.
func seconds(raw json.RawMessage) (float64, string) {
	if len(raw) == 0 {
		return 0, "missing \"t\""
	}
	switch raw[0] {
	case '"':
		return 0, "\"t\" is a string, not a number of seconds"
	case 'n':
		return 0, "\"t\" is null"
	case '{', '[', 't', 'f':
		return 0, "\"t\" is not a number"
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, fmt.Sprintf("\"t\" %s is out of range", sessions.CleanShort(string(raw), 40))
	}
	if f < 0 {
		return 0, fmt.Sprintf("\"t\" is negative (%s)", sessions.CleanShort(string(raw), 40))
	}
	if f > 9e9 { // ~285 years: beyond time.Duration
		return 0, fmt.Sprintf("\"t\" %s is out of range", sessions.CleanShort(string(raw), 40))
	}
	return f, ""
}

func secondsDuration(f float64) time.Duration {
	return time.Duration(f * float64(time.Second))
}
