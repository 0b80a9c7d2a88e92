package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"framescope/invariants"
	"framescope/sessions"
)

// HAREntry describes one SSE entry of a HAR.
type HAREntry struct {
	Index    int // 0-based among the HAR's SSE entries
	Position int // 0-based position in log.entries (OpenOptions.Entry, FILE#N)
	Method   string
	URL      string
	Status   int
}

// String is a one-line description, safe to print.
func (e HAREntry) String() string {
	return fmt.Sprintf("entries[%d]  %s %s  %d", e.Position, sessions.Clean(e.Method), sessions.Clean(sessions.RedactURL(e.URL)), e.Status)
}

// EntryError is returned when OpenOptions.Entry names no SSE entry of a HAR.
type EntryError struct {
	Name    string
	Entry   int
	Total   int // the entries of log.entries, SSE or not
	Entries []HAREntry
}

func (e *EntryError) Error() string {
	var b strings.Builder
	if e.Entry < 0 || e.Entry >= e.Total {
		fmt.Fprintf(&b, "%s: entry %d is out of range: the HAR has %s (log.entries[0] to [%d]), %d of them SSE", sessions.Clean(e.Name), e.Entry, entriesText(e.Total), e.Total-1, len(e.Entries))
	} else {
		fmt.Fprintf(&b, "%s: entries[%d] is not an SSE entry (no text/event-stream response, no Accept: text/event-stream request); the HAR's %d SSE entr", sessions.Clean(e.Name), e.Entry, len(e.Entries))
		if len(e.Entries) == 1 {
			b.WriteString("y is")
		} else {
			b.WriteString("ies are")
		}
	}
	b.WriteString(":")
	for _, en := range e.Entries {
		b.WriteString("\n  ")
		b.WriteString(en.String())
	}
	return b.String()
}

// HAREntries lists the SSE entries of the HAR file name ("-" reads
// opts.Stdin), for --entry help and errors.
func HAREntries(name string, opts OpenOptions) ([]HAREntry, error) {
	var r io.Reader
	if name == "-" {
		if opts.Stdin == nil {
			return nil, errors.New("-: no standard input to read")
		}
		r = opts.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, openError(name, err)
		}
		defer f.Close()
		return harEntriesOf(name, f, f) // a regular file is indexed once for the opens that follow
	}
	return HAREntriesReader(name, r)
}

// HAREntriesReader is HAREntries on an already-open stream.
func HAREntriesReader(name string, r io.Reader) ([]HAREntry, error) {
	return harEntriesOf(name, r, nil)
}

// harEntriesOf lists the SSE entries of the HAR in r, decompressed when it
// is gzip; closer is r's file, or nil.
func harEntriesOf(name string, r io.Reader, closer io.Closer) ([]HAREntry, error) {
	in, err := sniffInput(name, r, closer)
	if err != nil {
		return nil, err
	}
	if in.kind != sessions.KindHAR {
		return nil, fmt.Errorf("%s: not a HAR file (it looks like a %s capture)", sessions.Clean(name), in.kind)
	}
	idx, err := in.harIndex(name)
	if err != nil {
		return nil, err
	}
	return idx.sse, nil
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harEntry struct {
	StartedDateTime string `json:"startedDateTime"`
	Request         struct {
		Method  string      `json:"method"`
		URL     string      `json:"url"`
		Headers []harHeader `json:"headers"`
		// PostData is the request body HAR exporters keep (text only:
		// HAR 1.2 has no encoding for it).
		PostData *struct {
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  float64     `json:"status"`
		Headers []harHeader `json:"headers"`
		Content struct {
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Encoding string  `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
	// A WebSocket connection as Chrome exports it (read_har_ws.go).
	ResourceType      string         `json:"_resourceType"`
	WebSocketMessages []harWSMessage `json:"_webSocketMessages"`
}

// isSSE: a text/event-stream response, or a request that asked for one.
func (e *harEntry) isSSE() bool {
	if isEventStream(e.Response.Content.MimeType) || e.isWebSocket() {
		return true
	}
	for _, h := range e.Response.Headers {
		if strings.EqualFold(strings.TrimSpace(h.Name), "Content-Type") && isEventStream(h.Value) {
			return true
		}
	}
	for _, h := range e.Request.Headers {
		if !strings.EqualFold(strings.TrimSpace(h.Name), "Accept") {
			continue
		}
		for _, part := range strings.Split(h.Value, ",") {
			mt, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
				return true
			}
		}
	}
	return false
}

func isEventStream(ct string) bool {
	ct = strings.TrimSpace(ct)
	const es = "text/event-stream"
	return len(ct) >= len(es) && strings.EqualFold(ct[:len(es)], es)
}

type harDoc struct {
	entries []harEntry
	errs    []error // per entry: a field of the wrong type (the rest was read)
	sse     []HAREntry
}

// parseHAR decodes a HAR's skeleton (see harSkeleton) and finds its SSE
// entries. The fields shown (method, URL, headers, times) are resolved when
// they were long strings; the response body is not.
func parseHAR(name string, data []byte, spans *harSpans) (*harDoc, error) {
	var top struct {
		Log *struct {
			Entries []json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	data = bytes.TrimPrefix(data, sessions.UTF8BOM)
	if err := json.Unmarshal(data, &top); err != nil {
		var se *json.SyntaxError
		keys, _, _ := topLevelKeys(bytes.TrimLeft(data, " \t\r\n"))
		sawLog := false
		for _, k := range keys {
			sawLog = sawLog || k == "log"
		}
		switch {
		case !sawLog:
			return nil, notRecognised(name)
		case errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end"):
			return nil, fmt.Errorf("%s: invalid JSON in HAR: it ends too early (truncated?)", sessions.Clean(name))
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s:%d: invalid JSON in HAR: %s", sessions.Clean(name), lineAt(data, se.Offset), sessions.Clean(err.Error()))
		}
		if top.Log == nil || top.Log.Entries == nil {
			return nil, fmt.Errorf("%s: HAR without a log.entries array (%s)", sessions.Clean(name), sessions.Clean(err.Error()))
		}
		// A type error elsewhere (e.g. in log.pages): entries were read.
	}
	if top.Log == nil {
		return nil, notRecognised(name)
	}
	if top.Log.Entries == nil {
		return nil, fmt.Errorf("%s: HAR without a log.entries array", sessions.Clean(name))
	}
	doc := &harDoc{
		entries: make([]harEntry, len(top.Log.Entries)),
		errs:    make([]error, len(top.Log.Entries)),
	}
	for i, raw := range top.Log.Entries {
		e := &doc.entries[i]
		if err := json.Unmarshal(raw, e); err != nil {
			doc.errs[i] = err
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				continue // not an object: not an entry
			}
		}
		e.resolve(spans)
		if e.isSSE() {
			doc.sse = append(doc.sse, HAREntry{
				Index:    len(doc.sse),
				Position: i,
				Method:   e.Request.Method,
				URL:      e.Request.URL,
				Status:   int(e.Response.Status),
			})
		}
	}
	if len(doc.sse) == 0 {
		return nil, fmt.Errorf("%s: no SSE entry in the HAR (%d entries; none has a text/event-stream response or an Accept: text/event-stream request)", sessions.Clean(name), len(doc.entries))
	}
	return doc, nil
}

// harFieldMax bounds a field other than the body read back from a long
// string (a URL, a header): enough to show, never a body's worth.
const harFieldMax = 64 << 10

// resolve replaces the placeholders of the fields shown with their text.
func (e *harEntry) resolve(spans *harSpans) {
	if spans.none() {
		return
	}
	t := func(v *string) { *v = spans.text(*v, harFieldMax) }
	t(&e.StartedDateTime)
	t(&e.Request.Method)
	t(&e.Request.URL)
	t(&e.Response.Content.MimeType)
	t(&e.Response.Content.Encoding)
	if pd := e.Request.PostData; pd != nil && pd.Text != nil {
		t(pd.Text) // the request body: shown, never streamed
	}
	for _, hs := range [][]harHeader{e.Request.Headers, e.Response.Headers} {
		for i := range hs {
			t(&hs[i].Name)
			t(&hs[i].Value)
		}
	}
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// harCapture yields one HAR entry's response body: a short one as a
// single chunk, a long one streamed from the file in chunks.
type harCapture struct {
	meta    sessions.Meta
	body    []byte
	sent    bool
	entries []HAREntry
	probs   sessions.ProblemList

	stream io.Reader // a long body, decoded on the fly (nil: body)
	buf    []byte
	what   string    // "entries[N] (METHOD URL)", for stream errors
	base64 bool      // the stream is base64
	closer io.Closer // the file the stream reads
	ws     *harWS    // a WebSocket entry's messages (nil: an HTTP body)
}

// newHARCapture reads an entry of the HAR idx indexes. at is the input
// readable by offset (an open regular file) or nil; the capture then
// streams a long body from it and closes closer when done.
func newHARCapture(name string, idx *harIndex, at io.ReaderAt, closer io.Closer, entry int) (*harCapture, error) {
	c := &harCapture{entries: idx.sse}
	sse := -1 // the entry's place among the SSE entries
	if entry == -1 {
		sse = 0
		if len(idx.sse) > 1 {
			c.probs.Note("the HAR has %d SSE entries; showing entries[%d] (%s %s); choose another with --entry N (as log.entries numbers them), or check them all",
				len(idx.sse), idx.sse[0].Position, sessions.CleanShort(idx.sse[0].Method, 20), sessions.CleanShort(sessions.RedactURL(idx.sse[0].URL), 200))
		}
	}
	for i, e := range idx.sse {
		if entry != -1 && e.Position == entry {
			sse = i
		}
	}
	if sse < 0 {
		return nil, &EntryError{Name: name, Entry: entry, Total: idx.total, Entries: idx.sse}
	}
	pos := idx.sse[sse].Position
	e, fieldErr, spans, err := idx.entry(name, sse, at)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("entries[%d] (%s %s)", pos, sessions.CleanShort(e.Request.Method, 20), sessions.CleanShort(sessions.RedactURL(e.Request.URL), 200))
	if err := fieldErr; err != nil {
		c.probs.Add(0, "%s: a field has an unexpected type (%s); it was ignored", what, sessions.Clean(err.Error()))
	}

	m := &c.meta
	*m = sessions.Meta{
		Name:            name,
		Kind:            sessions.KindHAR,
		HAREntry:        pos,
		URL:             e.Request.URL,
		Method:          e.Request.Method,
		HTTP:            true,
		Status:          int(e.Response.Status),
		RequestHeaders:  headerMapOf(e.Request.Headers),
		ResponseHeaders: headerMapOf(e.Response.Headers),
	}
	if ct, ok := sessions.HeaderLookup(m.ResponseHeaders, "Content-Type"); ok {
		m.ContentType = ct
	} else {
		m.ContentType = e.Response.Content.MimeType
	}
	if pd := e.Request.PostData; pd != nil && pd.Text != nil {
		m.RequestBody = []byte(*pd.Text)
	}
	if s := e.StartedDateTime; s != "" {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			m.StartedAt = t
		} else {
			c.probs.Add(0, "%s: startedDateTime %s is not an RFC 3339 time", what, sessions.CleanShort(s, 60))
		}
	}

	if e.isWebSocket() {
		c.startWebSocket(e, spans, what)
		if !spans.none() {
			c.closer = closer // long messages are read from the file as they come
		}
		return c, nil
	}
	ct := e.Response.Content
	isBase64 := strings.EqualFold(strings.TrimSpace(ct.Encoding), "base64")
	var long harSpan
	haveLong := false
	if ct.Text != nil {
		long, haveLong = spans.span(*ct.Text)
	}
	switch {
	case ct.Text == nil:
		c.probs.Add(0, "%s has no response body in the HAR (content.text is missing; the browser may not have saved it)", what)
	case haveLong:
		// Streamed: never the whole body in memory, let alone four copies.
		if !isBase64 && ct.Encoding != "" {
			c.probs.Add(0, "%s: unknown content encoding %s; body taken as text", what, sessions.CleanShort(ct.Encoding, 40))
		}
		c.stream = newJSONStringReader(spans.rawReader(long))
		if isBase64 {
			c.stream, c.base64 = newBase64Stream(c.stream), true
		}
		c.what, c.closer = what, closer
	case isBase64:
		b, err := decodeBase64(nil, *ct.Text)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: response body is not valid base64: %s", sessions.Clean(name), what, sessions.Clean(err.Error()))
		}
		c.body = b
	default:
		if ct.Encoding != "" {
			c.probs.Add(0, "%s: unknown content encoding %s; body taken as text", what, sessions.CleanShort(ct.Encoding, 40))
		}
		c.body = []byte(*ct.Text)
	}
	return c, nil
}

// headerMapOf folds HAR headers into a map; repeated names (compared
// case-insensitively) are joined with ", " under the first spelling.
func headerMapOf(hs []harHeader) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	out := make(map[string]string, len(hs))
	spelling := make(map[string]string, len(hs)) // lower case → first spelling
	for _, h := range hs {
		name := h.Name
		if first, ok := spelling[strings.ToLower(name)]; ok {
			name = first
		} else {
			spelling[strings.ToLower(name)] = name
		}
		if v, ok := out[name]; ok {
			out[name] = v + ", " + h.Value
		} else {
			out[name] = h.Value
		}
	}
	return out
}

func (c *harCapture) Meta() sessions.Meta { return c.meta }

// Entries lists the HAR's SSE entries (the one shown is Meta's).
func (c *harCapture) Entries() []HAREntry { return c.entries }

func (c *harCapture) Next() (sessions.Chunk, error) {
	if c.ws != nil {
		return c.ws.nextChunk()
	}
	if c.stream != nil {
		return c.nextStreamed()
	}
	if c.sent || len(c.body) == 0 {
		c.sent = true
		return sessions.Chunk{}, io.EOF
	}
	c.sent = true
	return sessions.Chunk{Data: c.body}, nil
}

func (c *harCapture) End() invariants.End { return invariants.End{Kind: invariants.EndEOF} }

func (c *harCapture) TakeProblems() []sessions.Problem { return c.probs.Take() }

// nextStreamed reads the next chunk of a long body.
func (c *harCapture) nextStreamed() (sessions.Chunk, error) {
	if c.buf == nil {
		c.buf = make([]byte, readChunkSize)
	}
	n, err := io.ReadFull(c.stream, c.buf)
	if n > 0 {
		return sessions.Chunk{Data: c.buf[:n]}, nil
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return sessions.Chunk{}, io.EOF
	}
	c.stream = errReader{err} // keep failing the same way
	if c.base64 && strings.Contains(err.Error(), "base64") {
		return sessions.Chunk{}, fmt.Errorf("%s: %s: response body is not valid base64: %s", sessions.Clean(c.meta.Name), c.what, sessions.Clean(err.Error()))
	}
	return sessions.Chunk{}, readError(c.meta.Name, err)
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func (c *harCapture) Close() error {
	if c.closer != nil {
		err := c.closer.Close()
		c.closer = nil
		return err
	}
	return nil
}

// entriesText says "1 entry", "3 entries".
func entriesText(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}
