package capture

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// JSONLTruncated is End.Detail for a JSONL capture without an end line.
const JSONLTruncated = "capture ended without an end line (truncated?)"

// jsonlCapture reads a framescope JSONL capture line by line: a header, then
// {"t","data"|"b64"} chunks, then {"t","end"}. A bad line is reported as a
// Problem and reading goes on with the next one.
type jsonlCapture struct {
	meta   sessions.Meta
	lr     lineReader
	closer io.Closer
	probs  sessions.ProblemList

	data    []byte // the current chunk's bytes
	scratch []byte // unescaped strings of the current line

	pending   []byte // a first line that was a chunk, not a header
	pendingLn int

	lastT   float64
	haveT   bool
	end     invariants.End
	sawEnd  bool
	endLine int
	done    bool
}

func newJSONLCapture(name string, br *bufio.Reader, closer io.Closer) (*jsonlCapture, error) {
	c := &jsonlCapture{
		meta:   sessions.Meta{Name: name, Kind: sessions.KindJSONL, Timed: true},
		lr:     lineReader{br: br},
		closer: closer,
	}
	// The header is the first non-blank line.
	for {
		line, err := c.lr.next()
		if err == errLineTooLong {
			// Skipped: what it recorded (the URL, status, headers and
			// request body a request-aware dialect checks against) is
			// lost, so the capture is damaged, not merely odd.
			c.probs.AddLost(c.lr.line, "capture header line is longer than %d MiB; skipped, so the request and response it recorded (URL, status, headers, request body) are missing", maxLineSize>>20)
			break
		}
		if err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("%s: empty file", sessions.Clean(name))
			}
			return nil, readError(name, err)
		}
		if c.lr.line == 1 {
			line = bytes.TrimPrefix(line, sessions.UTF8BOM)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !c.parseHeader(c.lr.line, line) {
			c.pending = append([]byte(nil), line...)
			c.pendingLn = c.lr.line
		}
		break
	}
	return c, nil
}

// parseHeader reads the header line into Meta. It returns false when the
// line is no header but a chunk line (the header is missing).
func (c *jsonlCapture) parseHeader(ln int, line []byte) bool {
	var h map[string]json.RawMessage
	if err := json.Unmarshal(line, &h); err != nil || h == nil {
		msg := "not a JSON object"
		if err != nil {
			msg = "invalid JSON: " + sessions.Clean(err.Error())
		}
		c.probs.Add(ln, "capture header: %s; header fields ignored", msg)
		return true
	}
	if _, ok := h["framescope_capture"]; !ok {
		c.probs.Add(ln, "no capture header line ({\"framescope_capture\":1,...}); the capture's start may be missing")
		return false
	}
	m := &c.meta

	v := h["framescope_capture"]
	if f, err := strconv.ParseFloat(string(v), 64); err != nil || (f != 1 && f != 2) {
		c.probs.Add(ln, "capture header: unknown capture version %s (this framescope reads versions 1 and 2); reading it as version 1", sessions.CleanShort(string(v), 40))
	}
	c.parseTransport(ln, h)
	m.URL = c.headerString(ln, h, "url")
	m.Method = c.headerString(ln, h, "method")
	if raw, ok := h["status"]; ok && string(raw) != "null" {
		var f float64
		var s string
		switch {
		case json.Unmarshal(raw, &f) == nil && f == math.Trunc(f) && f >= 0 && f < 1000:
			m.HTTP, m.Status = true, int(f)
		case json.Unmarshal(raw, &s) == nil && isStatusString(s):
			m.HTTP, m.Status = true, mustAtoi(s)
			c.probs.Add(ln, "capture header: \"status\" is a string (%q); want a number", s)
		default:
			c.probs.Add(ln, "capture header: \"status\" %s is not an HTTP status code", sessions.CleanShort(string(raw), 40))
		}
	}
	m.RequestHeaders = c.headerMap(ln, h, "request_headers")
	m.ResponseHeaders = c.headerMap(ln, h, "response_headers")
	m.DecodedFrom = c.headerString(ln, h, "decoded_from")
	m.RequestBody = c.headerBody(ln, h)
	if raw, ok := h["request_body_size"]; ok && m.RequestBody != nil {
		var n int64
		if json.Unmarshal(raw, &n) != nil || n < int64(len(m.RequestBody)) {
			c.probs.Add(ln, "capture header: \"request_body_size\" %s is not the size of a body of %d bytes", sessions.CleanShort(string(raw), 40), len(m.RequestBody))
		} else if n > int64(len(m.RequestBody)) {
			m.RequestBodySize = n
		}
	}
	if ct, ok := sessions.HeaderLookup(m.ResponseHeaders, "Content-Type"); ok {
		m.ContentType = ct
	}
	if s := c.headerString(ln, h, "started_at"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			c.probs.Add(ln, "capture header: \"started_at\" %s is not an RFC 3339 time", sessions.CleanShort(strconv.Quote(s), 60))
		} else {
			m.StartedAt = t
		}
	}
	if m.Transport == sessions.TransportWebSocket {
		m.HTTP = false // the upgrade's 101 is no body's status: the frames are the stream
	}
	return true
}

func isStatusString(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// headerString reads an optional string field of the header.
func (c *jsonlCapture) headerString(ln int, h map[string]json.RawMessage, key string) string {
	raw, ok := h[key]
	if !ok || string(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		c.probs.Add(ln, "capture header: %q is not a string", key)
		return ""
	}
	return s
}

// headerMap reads an optional header map (string values; arrays of strings
// are joined with ", ").
func (c *jsonlCapture) headerMap(ln int, h map[string]json.RawMessage, key string) map[string]string {
	raw, ok := h[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		c.probs.Add(ln, "capture header: %q is not an object of header names to values", key)
		return nil
	}
	out := make(map[string]string, len(obj))
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		var s string
		var list []string
		switch {
		case json.Unmarshal(obj[k], &s) == nil:
			out[k] = s
		case json.Unmarshal(obj[k], &list) == nil:
			out[k] = strings.Join(list, ", ")
		default:
			c.probs.Add(ln, "capture header: %s header %s has a value that is not a string; ignored", key, sessions.CleanShort(strconv.Quote(k), 60))
		}
	}
	return out
}

// headerBody reads the request body: "request_body" (text) or
// "request_body_b64" (bytes that are not UTF-8); nil when the capture has
// neither (an old capture, --no-body).
func (c *jsonlCapture) headerBody(ln int, h map[string]json.RawMessage) []byte {
	if _, ok := h["request_body"]; ok {
		if raw := h["request_body"]; string(raw) != "null" {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				c.probs.Add(ln, "capture header: %q is not a string; the request body is not shown", "request_body")
				return nil
			}
			return []byte(s)
		}
	}
	s := c.headerString(ln, h, "request_body_b64")
	if s == "" {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		c.probs.Add(ln, "capture header: \"request_body_b64\" is not base64; the request body is not shown")
		return nil
	}
	return b
}

func (c *jsonlCapture) Meta() sessions.Meta { return c.meta }

func (c *jsonlCapture) Next() (sessions.Chunk, error) {
	if c.pending != nil {
		line, ln := c.pending, c.pendingLn
		c.pending = nil
		if ch, ok := c.parseLine(ln, line); ok {
			return ch, nil
		}
	}
	for !c.done {
		line, err := c.lr.next()
		ln := c.lr.line
		if err == errLineTooLong {
			c.probs.AddLost(ln, "line is longer than %d MiB; skipped, so the bytes it recorded are missing", maxLineSize>>20)
			continue
		}
		if err != nil {
			c.finish(err)
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if ch, ok := c.parseLine(ln, line); ok {
			return ch, nil
		}
	}
	return sessions.Chunk{}, io.EOF
}

// jsonlLine is a chunk or end line's fields.
type jsonlLine struct {
	t                       []byte // the raw JSON of "t"; nil when absent
	hasData, hasB64, hasEnd bool
	dataOK, b64OK, endOK    bool   // the value is a string
	data, b64, end          []byte // the strings' contents
	// A WebSocket capture's frame fields (version 2: read_jsonl_ws.go).
	hasFrom, hasOp, hasReason bool
	fromOK, opOK, reasonOK    bool
	from, op, reason          []byte
	code                      []byte // the raw JSON of "code"; nil when absent
}

// parseLine decodes one chunk or end line; ok says whether it yields bytes.
func (c *jsonlCapture) parseLine(ln int, line []byte) (sessions.Chunk, bool) {
	if cap(c.scratch) > 1<<20 {
		c.scratch = nil // do not keep a huge line's buffers
	}
	if cap(c.data) > 1<<20 {
		c.data = nil
	}
	var l jsonlLine
	var ok bool
	if l, c.scratch, ok = fastJSONLLine(line, c.scratch); !ok {
		if l, ok = c.slowJSONLLine(ln, line); !ok {
			return sessions.Chunk{}, false
		}
	}
	if l.hasData && l.hasB64 {
		c.probs.Add(ln, "line has both \"data\" and \"b64\"; line skipped")
		return sessions.Chunk{}, false
	}

	// Arrival time: a bad one is reported; the bytes are still shown, untimed.
	t, tmsg := seconds(l.t)
	hasT := tmsg == ""
	if hasT && c.haveT && t < c.lastT {
		tmsg = fmt.Sprintf("\"t\" goes back in time (%s after %s)", strconv.FormatFloat(t, 'f', -1, 64), strconv.FormatFloat(c.lastT, 'f', -1, 64))
		hasT = false
	}
	if !hasT {
		c.probs.Add(ln, "%s; line taken without an arrival time", tmsg)
	} else {
		c.lastT, c.haveT = t, true
	}

	if c.sawEnd {
		c.probs.Add(ln, "line after the end line (line %d)", c.endLine)
	}
	if c.meta.Transport == sessions.TransportWebSocket && !l.hasEnd {
		return c.wsChunk(ln, &l, t, hasT)
	}

	if l.hasEnd {
		if !l.endOK {
			c.probs.Add(ln, "\"end\" is not a string; end line ignored")
		} else if !c.sawEnd {
			c.end = parseEnd(string(l.end))
			if hasT {
				c.end.At, c.end.HasTime = secondsDuration(t), true
			}
			c.sawEnd, c.endLine = true, ln
		}
		if l.hasData || l.hasB64 {
			c.probs.Add(ln, "end line also carries stream bytes; they are shown")
		}
	}

	switch {
	case l.hasData:
		if !l.dataOK {
			c.probs.Add(ln, "\"data\" is not a string; line skipped")
			return sessions.Chunk{}, false
		}
		c.data = append(c.data[:0], l.data...)
	case l.hasB64:
		if !l.b64OK {
			c.probs.Add(ln, "\"b64\" is not a string; line skipped")
			return sessions.Chunk{}, false
		}
		b, err := decodeBase64(c.data[:0], string(l.b64))
		if err != nil {
			c.probs.Add(ln, "\"b64\" is not valid base64 (%s); line skipped", sessions.Clean(err.Error()))
			return sessions.Chunk{}, false
		}
		c.data = b
	default:
		return sessions.Chunk{}, false
	}
	if len(c.data) == 0 {
		return sessions.Chunk{}, false
	}
	ch := sessions.Chunk{Data: c.data, Line: ln, HasTime: hasT}
	if hasT {
		ch.T = secondsDuration(t)
	}
	return ch, true
}

// slowJSONLLine decodes a line with encoding/json, reporting what is wrong
// with it; ok is false when the line is skipped.
func (c *jsonlCapture) slowJSONLLine(ln int, line []byte) (l jsonlLine, ok bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			c.probs.Add(ln, "not a JSON object; line skipped")
		} else {
			c.probs.Add(ln, "invalid JSON: %s; line skipped", sessions.Clean(err.Error()))
		}
		return l, false
	}
	if obj == nil {
		c.probs.Add(ln, "not a JSON object; line skipped")
		return l, false
	}
	if _, ok := obj["framescope_capture"]; ok {
		c.probs.Add(ln, "a second capture header; line skipped")
		return l, false
	}
	str := func(key string) (has, isString bool, val []byte) {
		raw, has := obj[key]
		if !has {
			return false, false, nil
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return true, false, nil
		}
		return true, true, []byte(s)
	}
	l.hasData, l.dataOK, l.data = str("data")
	l.hasB64, l.b64OK, l.b64 = str("b64")
	l.hasEnd, l.endOK, l.end = str("end")
	l.hasFrom, l.fromOK, l.from = str("from")
	l.hasOp, l.opOK, l.op = str("op")
	l.hasReason, l.reasonOK, l.reason = str("reason")
	l.code = obj["code"]
	if !l.hasData && !l.hasB64 && !l.hasEnd && !(l.hasOp && c.meta.Transport == sessions.TransportWebSocket) {
		c.probs.Add(ln, "unknown line shape: expected \"data\", \"b64\" or \"end\" (has %s); line skipped", keyList(obj))
		return l, false
	}
	l.t = obj["t"]
	return l, true
}

// fastJSONLLine decodes the common, well-formed shape of a line — an object
// of "t" (a number) and "data", "b64" or "end" (strings) — without
// encoding/json. It gives the same result as slowJSONLLine; ok false means
// "not sure: ask encoding/json", never "bad line". Strings are slices of
// line or of buf (grown and returned).
func fastJSONLLine(line, buf []byte) (l jsonlLine, _ []byte, ok bool) {
	if cap(buf) < len(line) {
		buf = make([]byte, 0, len(line)) // never reallocated below: slices stay valid
	}
	buf = buf[:0]
	p := skipJSONSpace(line, 0)
	if p >= len(line) || line[p] != '{' {
		return l, buf, false
	}
	p = skipJSONSpace(line, p+1)
	for {
		if p >= len(line) || line[p] != '"' {
			return l, buf, false
		}
		k := p + 1
		for k < len(line) && line[k] != '"' && line[k] != '\\' && line[k] >= 0x20 {
			k++
		}
		if k >= len(line) || line[k] != '"' {
			return l, buf, false
		}
		key := string(line[p+1 : k])
		p = skipJSONSpace(line, k+1)
		if p >= len(line) || line[p] != ':' {
			return l, buf, false
		}
		p = skipJSONSpace(line, p+1)
		var val []byte
		var has *bool
		switch key {
		case "t":
			if l.t != nil {
				return l, buf, false
			}
			n := decode.ScanNumber(line, p)
			if n == p {
				return l, buf, false
			}
			l.t, p = line[p:n], n
		case "code":
			if l.code != nil {
				return l, buf, false
			}
			n := decode.ScanNumber(line, p)
			if n == p {
				return l, buf, false
			}
			l.code, p = line[p:n], n
		case "data", "b64", "end", "from", "op", "reason":
			var np int
			var sok bool
			val, buf, np, sok = scanJSONString(line, p, buf)
			if !sok {
				return l, buf, false
			}
			p = np
			switch key {
			case "data":
				has, l.data, l.dataOK = &l.hasData, val, true
			case "b64":
				has, l.b64, l.b64OK = &l.hasB64, val, true
			case "from":
				has, l.from, l.fromOK = &l.hasFrom, val, true
			case "op":
				has, l.op, l.opOK = &l.hasOp, val, true
			case "reason":
				has, l.reason, l.reasonOK = &l.hasReason, val, true
			default:
				has, l.end, l.endOK = &l.hasEnd, val, true
			}
			if *has {
				return l, buf, false // a repeated key
			}
			*has = true
		default:
			return l, buf, false
		}
		p = skipJSONSpace(line, p)
		if p >= len(line) {
			return l, buf, false
		}
		if line[p] == ',' {
			p = skipJSONSpace(line, p+1)
			continue
		}
		if line[p] != '}' {
			return l, buf, false
		}
		break
	}
	if skipJSONSpace(line, p+1) != len(line) || !(l.hasData || l.hasB64 || l.hasEnd) {
		return l, buf, false
	}
	return l, buf, true
}

// JSONLFastPath reports whether a chunk line of a JSONL capture is read
// on the fast path, without encoding/json: the shape Record writes.
func JSONLFastPath(line []byte) bool {
	_, _, ok := fastJSONLLine(line, nil)
	return ok
}

func skipJSONSpace(b []byte, p int) int {
	for p < len(b) && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r' || b[p] == '\n') {
		p++
	}
	return p
}

// scanJSONString decodes the JSON string at p: its contents (a slice of b
// when there is no escape, else appended to buf), buf, the position after
// it, and ok false for anything unusual (invalid UTF-8, a lone surrogate).
func scanJSONString(b []byte, p int, buf []byte) (val, _ []byte, next int, ok bool) {
	if p >= len(b) || b[p] != '"' {
		return nil, buf, p, false
	}
	i := p + 1
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
		i++
	}
	if i < len(b) && b[i] == '"' {
		val = b[p+1 : i]
		if !utf8.Valid(val) {
			return nil, buf, p, false
		}
		return val, buf, i + 1, true
	}
	start := len(buf)
	buf = append(buf, b[p+1:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			val = buf[start:]
			if !utf8.Valid(val) {
				return nil, buf, p, false
			}
			return val, buf, i + 1, true
		case c < 0x20:
			return nil, buf, p, false
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		// An escape JSON does not have, or a surrogate without its
		// pair: encoding/json decides (the slow path).
		var n int
		var lone bool
		if buf, n, lone = decode.AppendEscape(buf, b[i:]); n == 0 || lone {
			return nil, buf, p, false
		}
		i += n
	}
	return nil, buf, p, false
}

// parseEnd maps an end line's text to an End.
func parseEnd(s string) invariants.End {
	switch strings.TrimSpace(s) {
	case "eof":
		return invariants.End{Kind: invariants.EndEOF}
	case "cancelled", "canceled":
		return invariants.End{Kind: invariants.EndCancelled}
	}
	// The client's deliberate stop (record --max-frames, --max-bytes).
	if rest, ok := strings.CutPrefix(s, "cancelled:"); ok {
		return invariants.End{Kind: invariants.EndCancelled, Detail: strings.TrimSpace(rest)}
	}
	if rest, ok := strings.CutPrefix(s, "error:"); ok {
		return invariants.End{Kind: invariants.EndError, Detail: strings.TrimSpace(rest)}
	}
	return invariants.End{Kind: invariants.EndError, Detail: s}
}

// decodeBase64 appends the bytes of standard base64 s (padded or not; line
// breaks are ignored) to dst.
func decodeBase64(dst []byte, s string) ([]byte, error) {
	b, err := decodeBase64With(base64.StdEncoding, dst, s)
	if err != nil && !strings.Contains(s, "=") {
		if b2, err2 := decodeBase64With(base64.RawStdEncoding, dst, s); err2 == nil {
			return b2, nil
		}
	}
	return b, err
}

func decodeBase64With(enc *base64.Encoding, dst []byte, s string) ([]byte, error) {
	n := enc.DecodedLen(len(s))
	if cap(dst) < n {
		dst = make([]byte, 0, n)
	}
	m, err := enc.Decode(dst[:n], []byte(s))
	if err != nil {
		return dst[:0], err
	}
	return dst[:m], nil
}

// keyList names an object's keys for a message.
func keyList(obj map[string]json.RawMessage) string {
	if len(obj) == 0 {
		return "no keys"
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 5 {
		keys = append(keys[:5], "…")
	}
	for i, k := range keys {
		if k != "…" {
			keys[i] = sessions.CleanShort(strconv.Quote(k), 40)
		}
	}
	return strings.Join(keys, ", ")
}

// finish settles the end when the file runs out.
func (c *jsonlCapture) finish(err error) {
	c.done = true
	if err != io.EOF {
		c.probs.AddLost(c.lr.line, "read error: %s", sessions.Clean(err.Error()))
		if !c.sawEnd {
			c.end = invariants.End{Kind: invariants.EndError, Detail: "read error: " + sessions.Clean(err.Error())}
			c.sawEnd = true
		}
	}
	if !c.sawEnd {
		c.end = invariants.End{Kind: invariants.EndError, Detail: JSONLTruncated}
		c.probs.Add(c.lr.line, "capture ends after line %d without an end line (truncated?)", c.lr.line)
	}
	c.probs.Finish()
}

func (c *jsonlCapture) End() invariants.End { return c.end }

func (c *jsonlCapture) TakeProblems() []sessions.Problem { return c.probs.Take() }

func (c *jsonlCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}
