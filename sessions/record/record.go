package record

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"framescope/invariants"
	"framescope/sessions"
)

// Options tunes a recording.
type Options struct {
	// Redact names headers (case-insensitive) whose values are replaced by
	// "[redacted]", on top of defaultRedact.
	Redact []string
	// KeepSecrets records every header as it was.
	KeepSecrets bool
	// FlushDelay, when positive, batches the writes: lines wait in the
	// buffer (64 KiB) until it is full, until FlushDelay after the first
	// of them, or until the end line, and are written whole (a buffer
	// never ends mid-line). A killed process then loses at most the last
	// FlushDelay of the stream; 0 writes every line as it comes.
	FlushDelay time.Duration
}

// New returns a Capture that passes every chunk of c through unchanged
// and appends it to w as a framescope JSONL capture: the header line first
// (from c.Meta(), written now), then one line per chunk, written and
// flushed as it arrives — so a killed process leaves a valid capture up to
// its last chunk — then the end line when c ends (or "cancelled" when the
// capture is closed before its end). Bytes that are not valid UTF-8 are
// written as {"t":…,"b64":…}.
//
// w is not closed (pass an *os.File from File and close it after the
// Capture). A failed write stops the recording, never the stream: it is
// reported once by TakeProblems (as a note) and by Err.
func New(c sessions.Capture, w io.Writer, opts Options) sessions.Capture {
	r := &Recorder{
		c:     c,
		w:     w,
		start: time.Now(),
		meta:  c.Meta(),
		delay: opts.FlushDelay,
	}
	r.writeHeader(opts)
	return r
}

// Recorder is the Capture New returns.
type Recorder struct {
	c sessions.Capture
	w io.Writer
	// batch holds the lines of a FlushDelay batch not yet written: it
	// grows as the stream needs, up to batchMax, so a slow stream's
	// recording holds a few KB, not a fixed 64 KB buffer.
	batch []byte
	start time.Time
	meta  sessions.Meta
	delay time.Duration // Options.FlushDelay

	mu       sync.Mutex  // guards the writer and what follows
	timer    *time.Timer // flushes a batch FlushDelay after its first line
	armed    bool
	line     []byte
	lastT    time.Duration
	endDone  bool
	err      error
	reported bool
	chunks   int
}

func (r *Recorder) writeHeader(opts Options) {
	m := r.meta
	redactHeaders := sessions.RedactHeaders
	b := []byte(`{"framescope_capture":1`)
	if m.Transport == sessions.TransportWebSocket {
		redactHeaders = sessions.RedactWSHeaders
		b = wsHeaderStart(b) // version 2: record_ws.go
	}
	reqH, reqRed := redactHeaders(m.RequestHeaders, opts.Redact, opts.KeepSecrets)
	respH, respRed := redactHeaders(m.ResponseHeaders, opts.Redact, opts.KeepSecrets)
	started := m.StartedAt
	if started.IsZero() {
		started = r.start
	}
	if m.URL != "" {
		b = append(b, `,"url":`...)
		b = appendJSONText(b, []byte(sessions.RedactURLIf(m.URL, opts.KeepSecrets)))
	}
	if m.Method != "" {
		b = append(b, `,"method":`...)
		b = appendJSONText(b, []byte(m.Method))
	}
	if m.HTTP || m.Transport == sessions.TransportWebSocket && m.Status != 0 {
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(m.Status), 10)
	}
	for _, h := range []struct {
		key string
		m   map[string]string
	}{{"request_headers", reqH}, {"response_headers", respH}} {
		if h.m == nil {
			continue
		}
		b = append(b, `,"`+h.key+`":`...)
		b = appendJSONMap(b, h.m)
	}
	if m.RequestBody != nil {
		b = appendRequestBody(b, m, opts.KeepSecrets)
	}
	if m.DecodedFrom != "" {
		// The chunks are the decoded body; the response arrived encoded.
		b = append(b, `,"decoded_from":`...)
		b = appendJSONText(b, []byte(m.DecodedFrom))
	}
	b = append(b, `,"started_at":"`...)
	b = started.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, '"')
	red := mergeNames(reqRed, respRed)
	if len(red) > 0 {
		b = append(b, `,"redacted":[`...)
		for i, n := range red {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONText(b, []byte(n))
		}
		b = append(b, ']')
	}
	b = append(b, "}\n"...)
	r.mu.Lock()
	r.writeLine(b)
	r.flush() // the file is a valid capture from the start
	r.mu.Unlock()
}

// mergeNames is the sorted union of two name lists, case-insensitively.
func mergeNames(a, b []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range append(append([]string(nil), a...), b...) {
		k := strings.ToLower(n)
		if !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func appendJSONMap(b []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONText(b, []byte(k))
		b = append(b, ':')
		b = appendJSONText(b, []byte(m[k]))
	}
	return append(b, '}')
}

// appendJSONText appends a JSON string for text that need not round-trip
// exactly (header names and values): invalid UTF-8 becomes U+FFFD. (It
// used to go through json.Marshal, which left C1 controls and bidi
// characters raw: a header with one invalid byte carried a raw U+009B.)
func appendJSONText(b, s []byte) []byte {
	if !utf8.Valid(s) {
		s = []byte(strings.ToValidUTF8(string(s), "\uFFFD"))
	}
	return appendJSONString(b, s)
}

// appendJSONString appends s, valid UTF-8, as a JSON string that decodes
// to exactly s. Control characters, DEL and every rune escapeInJSON names
// (C1 controls, bidi, zero-width, U+2028/U+2029) are escaped, so a capture
// is safe to print and to paste into JavaScript.
func appendJSONString(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x7f {
			i++
			continue
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRune(s[i:])
			if !escapeInJSON(r) {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			i += size
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendMicros appends d (not negative) as seconds with six decimals,
// exactly: 0.003100, 12.000250.
func appendMicros(b []byte, d time.Duration) []byte {
	us := int64((d + 500*time.Nanosecond) / time.Microsecond)
	b = strconv.AppendInt(b, us/1e6, 10)
	frac := us%1e6 + 1e6
	b = append(b, '.')
	return append(b, strconv.FormatInt(frac, 10)[1:]...)
}

// batchMax bounds a FlushDelay batch: a line that would pass it flushes
// the batch first, and a longer line is written on its own.
const batchMax = 64 << 10

// writeLine writes one line, or with a FlushDelay adds it to the batch
// (whole: a full batch is flushed before a line that does not fit); the
// first failure stops the recording. Call with r.mu held.
func (r *Recorder) writeLine(line []byte) {
	if r.err != nil {
		return
	}
	if len(r.batch) > 0 && len(r.batch)+len(line) > batchMax {
		r.flush()
		if r.err != nil {
			return
		}
	}
	if r.delay <= 0 || len(line) >= batchMax {
		if _, err := r.w.Write(line); err != nil {
			r.err = err
		}
		return
	}
	r.batch = append(r.batch, line...)
	if !r.armed {
		r.armed = true
		if r.timer == nil {
			r.timer = time.AfterFunc(r.delay, r.timedFlush)
		} else {
			r.timer.Reset(r.delay)
		}
	}
}

// flush writes the batch (r.mu held).
func (r *Recorder) flush() {
	if r.err == nil && len(r.batch) > 0 {
		if _, err := r.w.Write(r.batch); err != nil {
			r.err = err
		}
		r.batch = r.batch[:0]
	}
}

// timedFlush is a batch's FlushDelay passed.
func (r *Recorder) timedFlush() {
	r.mu.Lock()
	r.armed = false
	r.flush()
	r.mu.Unlock()
}

// arrival is a chunk's or the end's time for the capture: its own, or the
// time since recording started for an untimed source; never going back.
func (r *Recorder) arrival(t time.Duration, has bool) time.Duration {
	if !has {
		t = time.Since(r.start)
	}
	if t < r.lastT {
		t = r.lastT
	}
	r.lastT = t
	return t
}

func (r *Recorder) writeChunk(ch sessions.Chunk) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.endDone {
		return
	}
	t := r.arrival(ch.T, ch.HasTime)
	b := append(r.line[:0], `{"t":`...)
	b = appendMicros(b, t)
	if r.meta.Transport == sessions.TransportWebSocket {
		b = appendWSFrame(b, &ch) // record_ws.go
	} else if utf8.Valid(ch.Data) {
		b = append(b, `,"data":`...)
		b = appendJSONString(b, ch.Data)
	} else {
		b = append(b, `,"b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, ch.Data)
		b = append(b, '"')
	}
	b = append(b, "}\n"...)
	if cap(b) <= 1<<20 {
		r.line = b // keep the buffer, unless a huge chunk grew it
	}
	r.writeLine(b)
	if r.err == nil {
		r.chunks++ // chunks in the file: a failed write stops the count
	}
}

func (r *Recorder) writeEnd(e invariants.End) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.endDone {
		return
	}
	r.endDone = true
	t := r.arrival(e.At, e.HasTime)
	text := string(e.Kind)
	switch e.Kind {
	case invariants.EndError:
		text = "error: " + e.Detail
	case invariants.EndCancelled:
		if e.Detail != "" { // a deliberate stop: "cancelled: stopped: --max-frames 10 reached"
			text += ": " + e.Detail
		}
	case "":
		text = string(invariants.EndEOF)
	}
	b := append(r.line[:0], `{"t":`...)
	b = appendMicros(b, t)
	b = append(b, `,"end":`...)
	b = appendJSONText(b, []byte(text))
	b = append(b, "}\n"...)
	r.writeLine(b)
	r.flush()
	if r.timer != nil {
		r.timer.Stop()
	}
}

// Meta is the recorded capture's Meta, unchanged.
func (r *Recorder) Meta() sessions.Meta { return r.meta }

// Next returns the next chunk of the recorded capture, unchanged, after
// writing it.
func (r *Recorder) Next() (sessions.Chunk, error) {
	ch, err := r.c.Next()
	if err != nil {
		e := r.c.End()
		if !errors.Is(err, io.EOF) {
			e = invariants.End{Kind: invariants.EndError, Detail: err.Error()}
		}
		r.writeEnd(e)
		return ch, err
	}
	r.writeChunk(ch)
	return ch, nil
}

// End is the recorded capture's End.
func (r *Recorder) End() invariants.End { return r.c.End() }

// TakeProblems passes the recorded capture's problems on, with a note when
// the recording failed.
func (r *Recorder) TakeProblems() []sessions.Problem {
	p := r.c.TakeProblems()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil && !r.reported {
		r.reported = true
		p = append(p, sessions.Problem{Note: true, Message: fmt.Sprintf(
			"recording stopped after %s: %s (the stream goes on; the recording keeps what was written)", invariants.Plural(r.chunks, "chunk"), sessions.Clean(r.err.Error()))})
	}
	return p
}

// Err is the write error that stopped the recording, if any.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Close closes the recorded capture. A stream closed before its end was
// cut by the client: the recording ends with a "cancelled" line.
func (r *Recorder) Close() error {
	err := r.c.Close()
	r.mu.Lock()
	ended := r.endDone
	r.mu.Unlock()
	if !ended {
		e := invariants.End{Kind: invariants.EndCancelled}
		if r.meta.Timed && !r.meta.StartedAt.IsZero() {
			e.At, e.HasTime = time.Since(r.meta.StartedAt), true
		}
		r.writeEnd(e)
	}
	return err
}
