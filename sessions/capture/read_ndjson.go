package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"framescope/invariants"
	"framescope/sessions"
)

// ndjsonCapture turns NDJSON frames (one PC3 frame object per line, or the
// records of `framescope dump --format ndjson`) back into SSE bytes, one
// chunk per line. The SSE framing is rebuilt, so Meta.Synthetic is set.
type ndjsonCapture struct {
	meta   sessions.Meta
	lr     lineReader
	closer io.Closer
	probs  sessions.ProblemList

	out     []byte // the current chunk's bytes
	pending bool   // out holds the first chunk, read while opening
	pendCh  sessions.Chunk

	lastT float64
	haveT bool
	end   invariants.End
	done  bool

	// openTail: the last chunk was a truncated tail (an event without its
	// blank line), which only the end of the stream may follow.
	openTail bool
	tail     bool // the chunk being converted is a truncated tail
}

func newNDJSONCapture(name string, br *bufio.Reader, closer io.Closer) (*ndjsonCapture, error) {
	c := &ndjsonCapture{
		meta:   sessions.Meta{Name: name, Kind: sessions.KindNDJSON, Synthetic: true},
		lr:     lineReader{br: br},
		closer: closer,
		end:    invariants.End{Kind: invariants.EndEOF},
	}
	// Read the first record now: whether it carries a time decides
	// Meta.Timed.
	ch, err := c.next()
	if err == nil {
		c.pending, c.pendCh = true, ch
		c.meta.Timed = ch.HasTime
	}
	return c, nil
}

func (c *ndjsonCapture) Meta() sessions.Meta { return c.meta }

func (c *ndjsonCapture) Next() (sessions.Chunk, error) {
	if c.pending {
		c.pending = false
		return c.pendCh, nil
	}
	return c.next()
}

func (c *ndjsonCapture) next() (sessions.Chunk, error) {
	for !c.done {
		line, ln, ok := c.lr.nextDataLine(&c.probs, &c.end)
		if !ok {
			c.done = true
			break
		}
		return c.convert(ln, line), nil
	}
	return sessions.Chunk{}, io.EOF
}

var (
	doneLine    = []byte("[DONE]")
	sseDoneLine = []byte("data: [DONE]")
	sseDone     = []byte("data: [DONE]\n\n")
)

// convert rebuilds the SSE bytes of one NDJSON line.
func (c *ndjsonCapture) convert(ln int, line []byte) sessions.Chunk {
	ch := c.convertLine(ln, line)
	if c.openTail && !c.tail {
		// A hand-made file: records after the tail. End it here, so it is
		// dispatched rather than swallowing the next record's lines.
		c.probs.Add(ln, "a record follows the truncated tail; the tail is ended here")
		ch.Data = append([]byte("\n\n"), ch.Data...)
	}
	c.openTail, c.tail = c.tail, false
	return ch
}

// convertLine rebuilds the SSE bytes of one NDJSON line.
func (c *ndjsonCapture) convertLine(ln int, line []byte) sessions.Chunk {
	ch := sessions.Chunk{Line: ln}
	if bytes.Equal(line, doneLine) || bytes.Equal(line, sseDoneLine) || bytes.Equal(line, []byte("data:[DONE]")) {
		c.out = append(c.out[:0], sseDone...)
		ch.Data = c.out
		return ch
	}

	var obj map[string]json.RawMessage
	err := json.Unmarshal(line, &obj)
	if err != nil || obj == nil {
		if err == nil || json.Valid(line) {
			c.probs.Add(ln, "not a JSON object; passed on as a data line")
		} else {
			c.probs.Add(ln, "invalid JSON (%s); passed on as a data line", sessions.Clean(err.Error()))
		}
		c.out = appendDataLines(c.out[:0], line)
		c.out = append(c.out, '\n')
		ch.Data = c.out
		return ch
	}

	ch.T, ch.HasTime = c.arrival(ln, obj)

	if string(obj["truncated"]) == "true" {
		// The tail a `framescope dump --format ndjson` ended with.
		c.out = c.appendTruncatedRecord(c.out[:0], ln, obj)
		c.tail = true
		ch.Data = c.out
		return ch
	}

	if string(obj["block"]) == "true" {
		// A data-less block of a dump (id, retry, event, comments): the
		// fields without data, then the blank line that ends the block.
		c.out = c.appendRecordFields(c.out[:0], ln, obj)
		c.out = append(c.out, '\n')
		ch.Data = c.out
		return ch
	}

	rawData, hasData := obj["data"]
	_, hasIndex := obj["index"]
	var data string
	if hasIndex && hasData && json.Unmarshal(rawData, &data) == nil {
		// A `framescope dump --format ndjson` record.
		c.out = c.appendDumpRecord(c.out[:0], ln, obj, data)
		ch.Data = c.out
		return ch
	}

	// A plain frame object: the line is the data.
	c.out = appendDataLines(c.out[:0], line)
	c.out = append(c.out, '\n')
	ch.Data = c.out
	return ch
}

// appendDumpRecord rebuilds the SSE block of a `framescope dump --format
// ndjson` record: its comments, event, id and retry fields, then its data
// (the exact bytes of "data_b64" when present), one `data:` line per line.
func (c *ndjsonCapture) appendDumpRecord(b []byte, ln int, obj map[string]json.RawMessage, data string) []byte {
	b = c.appendRecordFields(b, ln, obj)
	d := []byte(data)
	if raw, ok := obj["data_b64"]; ok && string(raw) != "null" {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			c.probs.Add(ln, "\"data_b64\" is not a string; \"data\" is used")
		} else if db, err := decodeBase64(nil, s); err != nil {
			c.probs.Add(ln, "\"data_b64\" is not valid base64 (%s); \"data\" is used", sessions.Clean(err.Error()))
		} else {
			d = db
		}
	}
	b = appendDataLines(b, d)
	return append(b, '\n')
}

// appendRecordFields writes a dump record's comments and its event, id and
// retry fields as SSE lines.
func (c *ndjsonCapture) appendRecordFields(b []byte, ln int, obj map[string]json.RawMessage) []byte {
	if raw, ok := obj["comments"]; ok && string(raw) != "null" {
		var cms []string
		if err := json.Unmarshal(raw, &cms); err != nil {
			c.probs.Add(ln, "\"comments\" is not a list of strings; ignored")
		}
		for _, cm := range cms {
			for _, l := range splitLines(cm) {
				b = append(b, ':')
				b = append(b, l...)
				b = append(b, '\n')
			}
		}
	}
	b = c.appendField(b, ln, obj, "event")
	b = c.appendField(b, ln, obj, "id")
	if raw, ok := obj["retry"]; ok && string(raw) != "null" {
		if n, err := strconv.ParseUint(string(raw), 10, 63); err == nil {
			b = append(b, "retry: "...)
			b = strconv.AppendUint(b, n, 10)
			b = append(b, '\n')
		} else {
			c.probs.Add(ln, "\"retry\" is not a whole number of milliseconds; ignored")
		}
	}
	return b
}

// appendTruncatedRecord rebuilds the tail of a dump's truncated record:
// its bytes as received ("raw_b64" when present, else "raw"), without a
// blank line, so the stream ends inside that event again. An oversized
// tail's bytes were not kept: an empty data line stands for it.
func (c *ndjsonCapture) appendTruncatedRecord(b []byte, ln int, obj map[string]json.RawMessage) []byte {
	var raw string
	if r, ok := obj["raw"]; ok && string(r) != "null" {
		if json.Unmarshal(r, &raw) != nil {
			c.probs.Add(ln, "\"raw\" is not a string; the tail is rebuilt as an empty data line")
			return append(b, "data:"...)
		}
	} else {
		return append(b, "data:"...)
	}
	if r, ok := obj["raw_b64"]; ok && string(r) != "null" {
		var s string
		if json.Unmarshal(r, &s) != nil {
			c.probs.Add(ln, "\"raw_b64\" is not a string; \"raw\" is used")
		} else if db, err := decodeBase64(nil, s); err != nil {
			c.probs.Add(ln, "\"raw_b64\" is not valid base64 (%s); \"raw\" is used", sessions.Clean(err.Error()))
		} else {
			return append(b, db...)
		}
	}
	return append(b, raw...)
}

// appendField writes `key: value` for a string field of a dump record
// (absent or null: nothing).
func (c *ndjsonCapture) appendField(b []byte, ln int, obj map[string]json.RawMessage, key string) []byte {
	raw, ok := obj[key]
	if !ok || string(raw) == "null" {
		return b
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		c.probs.Add(ln, "%q is not a string; its JSON text is used", key)
		v = string(raw)
	}
	if strings.ContainsAny(v, "\r\n") {
		c.probs.Add(ln, "%q contains a line break; it is replaced by a space", key)
		v = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(v)
	}
	b = append(b, key...)
	b = append(b, ": "...)
	b = append(b, v...)
	return append(b, '\n')
}

// splitLines splits s at CR LF, CR or LF.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

// arrival reads a record's numeric "t" or "arrival" (seconds).
func (c *ndjsonCapture) arrival(ln int, obj map[string]json.RawMessage) (d time.Duration, ok bool) {
	for _, key := range [...]string{"t", "arrival"} {
		raw, present := obj[key]
		if !present || len(raw) == 0 || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
			continue
		}
		f, msg := seconds(raw)
		if msg != "" {
			c.probs.Add(ln, "%q: %s; line taken without an arrival time", key, msg)
			return 0, false
		}
		if c.haveT && f < c.lastT {
			c.probs.Add(ln, "%q goes back in time (%s after %s); line taken without an arrival time", key,
				strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(c.lastT, 'f', -1, 64))
			return 0, false
		}
		c.lastT, c.haveT = f, true
		return secondsDuration(f), true
	}
	return 0, false
}

// appendDataLines appends one `data: ` line per line of s (split at CR LF,
// CR or LF, as an SSE parser would).
func appendDataLines(dst, s []byte) []byte {
	for {
		i := bytes.IndexAny(s, "\r\n")
		if i < 0 {
			break
		}
		dst = append(dst, "data: "...)
		dst = append(dst, s[:i]...)
		dst = append(dst, '\n')
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	dst = append(dst, "data: "...)
	dst = append(dst, s...)
	return append(dst, '\n')
}

func (c *ndjsonCapture) End() invariants.End { return c.end }

func (c *ndjsonCapture) TakeProblems() []sessions.Problem { return c.probs.Take() }

func (c *ndjsonCapture) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}
