package sessions

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
)

// jsonlTruncated is End.Detail for a JSONL capture without an end line.
const jsonlTruncated = "capture ended without an end line (truncated?)"

// jsonlCapture reads a framescope JSONL capture line by line: a header, then
// {"t","data"|"b64"} chunks, then {"t","end"}. A bad line is reported as a
// Problem and reading goes on with the next one.
type jsonlCapture struct {
	meta   Meta
	lr     lineReader
	closer io.Closer
	probs  problemList

	data []byte // the current chunk's bytes

	pending   []byte // a first line that was a chunk, not a header
	pendingLn int

	lastT   float64
	haveT   bool
	end     End
	sawEnd  bool
	endLine int
	done    bool
}

func newJSONLCapture(name string, br *bufio.Reader, closer io.Closer) (*jsonlCapture, error) {
	c := &jsonlCapture{
		meta:   Meta{Name: name, Kind: KindJSONL, Timed: true},
		lr:     lineReader{br: br},
		closer: closer,
	}
	// The header is the first non-blank line.
	for {
		line, err := c.lr.next()
		if err == errLineTooLong {
			c.probs.add(c.lr.line, "header line is longer than %d MiB; header ignored", maxLineSize>>20)
			break
		}
		if err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("%s: empty file", clean(name))
			}
			return nil, readError(name, err)
		}
		if c.lr.line == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
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
			msg = "invalid JSON: " + clean(err.Error())
		}
		c.probs.add(ln, "capture header: %s; header fields ignored", msg)
		return true
	}
	if _, ok := h["framescope_capture"]; !ok {
		c.probs.add(ln, "no capture header line ({\"framescope_capture\":1,...}); the capture's start may be missing")
		return false
	}
	m := &c.meta

	v := h["framescope_capture"]
	if f, err := strconv.ParseFloat(string(v), 64); err != nil || f != 1 {
		c.probs.add(ln, "capture header: unknown capture version %s (this framescope reads version 1); reading it as version 1", cleanShort(string(v), 40))
	}
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
			c.probs.add(ln, "capture header: \"status\" is a string (%q); want a number", s)
		default:
			c.probs.add(ln, "capture header: \"status\" %s is not an HTTP status code", cleanShort(string(raw), 40))
		}
	}
	m.RequestHeaders = c.headerMap(ln, h, "request_headers")
	m.ResponseHeaders = c.headerMap(ln, h, "response_headers")
	if ct, ok := headerLookup(m.ResponseHeaders, "Content-Type"); ok {
		m.ContentType = ct
	}
	if s := c.headerString(ln, h, "started_at"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			c.probs.add(ln, "capture header: \"started_at\" %s is not an RFC 3339 time", cleanShort(strconv.Quote(s), 60))
		} else {
			m.StartedAt = t
		}
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
		c.probs.add(ln, "capture header: %q is not a string", key)
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
		c.probs.add(ln, "capture header: %q is not an object of header names to values", key)
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
			c.probs.add(ln, "capture header: %s header %s has a value that is not a string; ignored", key, cleanShort(strconv.Quote(k), 60))
		}
	}
	return out
}

func (c *jsonlCapture) Meta() Meta { return c.meta }

func (c *jsonlCapture) Next() (Chunk, error) {
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
			c.probs.add(ln, "line is longer than %d MiB; skipped", maxLineSize>>20)
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
	return Chunk{}, io.EOF
}

// parseLine decodes one chunk or end line; ok says whether it yields bytes.
func (c *jsonlCapture) parseLine(ln int, line []byte) (Chunk, bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			c.probs.add(ln, "not a JSON object; line skipped")
		} else {
			c.probs.add(ln, "invalid JSON: %s; line skipped", clean(err.Error()))
		}
		return Chunk{}, false
	}
	if obj == nil {
		c.probs.add(ln, "not a JSON object; line skipped")
		return Chunk{}, false
	}
	if _, ok := obj["framescope_capture"]; ok {
		c.probs.add(ln, "a second capture header; line skipped")
		return Chunk{}, false
	}

	rawData, hasData := obj["data"]
	rawB64, hasB64 := obj["b64"]
	rawEnd, hasEnd := obj["end"]
	if !hasData && !hasB64 && !hasEnd {
		c.probs.add(ln, "unknown line shape: expected \"data\", \"b64\" or \"end\" (has %s); line skipped", keyList(obj))
		return Chunk{}, false
	}
	if hasData && hasB64 {
		c.probs.add(ln, "line has both \"data\" and \"b64\"; line skipped")
		return Chunk{}, false
	}

	// Arrival time: a bad one is reported; the bytes are still shown, untimed.
	t, tmsg := seconds(obj["t"])
	hasT := tmsg == ""
	if hasT && c.haveT && t < c.lastT {
		tmsg = fmt.Sprintf("\"t\" goes back in time (%s after %s)", strconv.FormatFloat(t, 'f', -1, 64), strconv.FormatFloat(c.lastT, 'f', -1, 64))
		hasT = false
	}
	if !hasT {
		c.probs.add(ln, "%s; line taken without an arrival time", tmsg)
	} else {
		c.lastT, c.haveT = t, true
	}

	if c.sawEnd {
		c.probs.add(ln, "line after the end line (line %d)", c.endLine)
	}

	if hasEnd {
		var s string
		if err := json.Unmarshal(rawEnd, &s); err != nil {
			c.probs.add(ln, "\"end\" is not a string; end line ignored")
		} else if !c.sawEnd {
			c.end = parseEnd(s)
			if hasT {
				c.end.T, c.end.HasTime = secondsDuration(t), true
			}
			c.sawEnd, c.endLine = true, ln
		}
		if hasData || hasB64 {
			c.probs.add(ln, "end line also carries stream bytes; they are shown")
		}
	}

	switch {
	case hasData:
		var s string
		if err := json.Unmarshal(rawData, &s); err != nil {
			c.probs.add(ln, "\"data\" is not a string; line skipped")
			return Chunk{}, false
		}
		c.data = append(c.data[:0], s...)
	case hasB64:
		var s string
		if err := json.Unmarshal(rawB64, &s); err != nil {
			c.probs.add(ln, "\"b64\" is not a string; line skipped")
			return Chunk{}, false
		}
		b, err := decodeBase64(c.data[:0], s)
		if err != nil {
			c.probs.add(ln, "\"b64\" is not valid base64 (%s); line skipped", clean(err.Error()))
			return Chunk{}, false
		}
		c.data = b
	default:
		return Chunk{}, false
	}
	if len(c.data) == 0 {
		return Chunk{}, false
	}
	ch := Chunk{Data: c.data, Line: ln, HasTime: hasT}
	if hasT {
		ch.T = secondsDuration(t)
	}
	return ch, true
}

// parseEnd maps an end line's text to an End.
func parseEnd(s string) End {
	switch strings.TrimSpace(s) {
	case "eof":
		return End{Kind: EndEOF}
	case "cancelled", "canceled":
		return End{Kind: EndCancelled}
	}
	if rest, ok := strings.CutPrefix(s, "error:"); ok {
		return End{Kind: EndError, Detail: strings.TrimSpace(rest)}
	}
	return End{Kind: EndError, Detail: s}
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
			keys[i] = cleanShort(strconv.Quote(k), 40)
		}
	}
	return strings.Join(keys, ", ")
}

// finish settles the end when the file runs out.
func (c *jsonlCapture) finish(err error) {
	c.done = true
	if err != io.EOF {
		c.probs.add(c.lr.line, "read error: %s", clean(err.Error()))
		if !c.sawEnd {
			c.end = End{Kind: EndError, Detail: "read error: " + clean(err.Error())}
			c.sawEnd = true
		}
	}
	if !c.sawEnd {
		c.end = End{Kind: EndError, Detail: jsonlTruncated}
		c.probs.add(c.lr.line, "capture ends after line %d without an end line (truncated?)", c.lr.line)
	}
	c.probs.finish()
}

func (c *jsonlCapture) End() End { return c.end }

func (c *jsonlCapture) TakeProblems() []Problem { return c.probs.take() }

func (c *jsonlCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}
