package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"framescope/sessions"
)

// `check` on a HAR of N SSE entries opens the file N+1 times (the list,
// then each entry). Parsing the whole document at every open made that
// quadratic (issue 24, item 7: 4,000 entries of a 2 MB HAR took over two
// minutes), and decoding every entry at once held the document several
// times over (a 434 MB HAR of a million tiny entries peaked at 2.4 GB).
// So a HAR is indexed once: its entries are decoded one at a time, and
// the index keeps for each SSE entry only its summary (HAREntry) and where
// its object is in the file. Opening an entry then reads that object alone
// (its own skeleton: long bodies still streamed). The index of the latest
// regular file is cached for the process, keyed by the file's identity,
// size and modification time, so the next open of the same HAR skips the
// document.

// harIndex is what opening any entry of one HAR needs.
type harIndex struct {
	sse   []HAREntry
	total int // entries in log.entries
	// at[i] is where SSE entry i's object is: in the file (file: true) or
	// in skel, the document's skeleton kept with its spans (a pipe).
	at    []harRange
	file  bool
	skel  []byte
	spans *harSpans
	// doc is the whole document, decoded as before, when the entries
	// could not be walked one by one (a document encoding/json reads in
	// its own way: repeated or differently cased keys); not cached.
	doc *harDoc
}

type harRange struct{ off, n int64 }

// harSkeletonBytes counts the bytes harSkeleton read, for the test that
// proves a HAR of many entries is read a bounded number of times.
var harSkeletonBytes atomic.Int64

// indexHAR decodes a HAR's skeleton entry by entry. file: the skeleton was
// read from a regular file whose long strings stay there (ranges in file
// offsets, skeleton dropped); else the skeleton is kept.
func indexHAR(name string, skel []byte, spans *harSpans, file bool) (*harIndex, error) {
	idx := &harIndex{file: file, spans: spans}
	ok := idx.walk(bytes.NewReader(skel), spans)
	if !ok {
		doc, err := parseHAR(name, skel, spans)
		if err != nil {
			return nil, err
		}
		return &harIndex{sse: doc.sse, total: len(doc.entries), doc: doc, spans: spans}, nil
	}
	if len(idx.sse) == 0 {
		// parseHAR words every refusal; it costs a second pass only on a
		// HAR that has nothing to show.
		_, err := parseHAR(name, skel, spans)
		return nil, err
	}
	if file {
		idx.toFileOffsets(spans)
		idx.spans = nil // each entry finds its own long strings
	} else {
		idx.skel = skel
	}
	return idx, nil
}

// indexHARFile indexes the HAR file at (br reads it from offset 0) as its
// skeleton is made, block by block: neither the document nor its skeleton
// is held whole. A document the walk refuses is read again whole, by
// indexHAR, which says what is wrong with it.
func indexHARFile(name string, br *bufio.Reader, at io.ReaderAt) (*harIndex, error) {
	spans := newHARSpans(at)
	pr, pw := io.Pipe()
	var skelErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, skelErr = harSkeletonTo(name, br, at, spans, func(b []byte) error {
			_, err := pw.Write(b)
			return err
		})
		pw.CloseWithError(skelErr) // nil: EOF
	}()
	idx := &harIndex{file: true}
	ok := idx.walk(pr, spans)
	pr.CloseWithError(errWalkStopped) // the writer stops if the walk did
	<-done
	if skelErr != nil && !errors.Is(skelErr, errWalkStopped) {
		return nil, skelErr // a read error, a bad string: as harSkeleton says it
	}
	if !ok || len(idx.sse) == 0 {
		skel, spans, err := harSkeleton(name, bufio.NewReaderSize(io.NewSectionReader(at, 0, 1<<62), sniffSize), at)
		if err != nil {
			return nil, err
		}
		return indexHAR(name, skel, spans, true)
	}
	idx.toFileOffsets(spans)
	return idx, nil
}

var errWalkStopped = errors.New("the HAR index stopped reading")

// walk reads the entries of the skeleton in r into idx; false when the
// document is not one walkEntries reads.
func (idx *harIndex) walk(r io.Reader, spans *harSpans) bool {
	br := bufio.NewReader(r)
	bom := int64(0)
	if b, _ := br.Peek(len(sessions.UTF8BOM)); bytes.Equal(b, sessions.UTF8BOM) {
		br.Discard(len(b))
		bom = int64(len(b))
	}
	return walkEntries(br, func(i int, raw []byte, start int64) {
		idx.total = i + 1
		var e harEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				return // not an object: not an entry
			}
		}
		e.resolve(spans)
		if !e.isSSE() {
			return
		}
		idx.sse = append(idx.sse, HAREntry{Index: len(idx.sse), Position: i, Method: e.Request.Method, URL: e.Request.URL, Status: int(e.Response.Status)})
		idx.at = append(idx.at, harRange{bom + start, int64(len(raw))})
	})
}

// walkEntries calls visit with each element of log.entries (its raw JSON
// and its offset in data) and reports whether the document is one it
// walks as encoding/json reads it: one top-level object whose single log
// member is an object whose single entries member is an array, nothing
// after it. Anything else goes to parseHAR, which says what is wrong.
func walkEntries(r io.Reader, visit func(i int, raw []byte, start int64)) bool {
	dec := json.NewDecoder(r)
	delim := func(want json.Delim) bool {
		t, err := dec.Token()
		d, ok := t.(json.Delim)
		return err == nil && ok && d == want
	}
	// member reads the next key; at the object's end, ok is false.
	member := func() (key string, ok bool) {
		if !dec.More() {
			return "", false
		}
		t, err := dec.Token()
		k, isKey := t.(string)
		return k, err == nil && isKey
	}
	skip := func() bool {
		var v json.RawMessage
		return dec.Decode(&v) == nil
	}
	if !delim('{') {
		return false
	}
	sawLog, sawEntries := false, false
	for {
		k, ok := member()
		if !ok {
			break
		}
		if !strings.EqualFold(k, "log") {
			if !skip() {
				return false
			}
			continue
		}
		if sawLog || !delim('{') {
			return false
		}
		sawLog = true
		for {
			k, ok := member()
			if !ok {
				break
			}
			if !strings.EqualFold(k, "entries") {
				if !skip() {
					return false
				}
				continue
			}
			if sawEntries || !delim('[') {
				return false
			}
			sawEntries = true
			for i := 0; dec.More(); i++ {
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					return false
				}
				end := dec.InputOffset()
				visit(i, raw, end-int64(len(raw)))
			}
			if !delim(']') {
				return false
			}
		}
		if !delim('}') {
			return false
		}
	}
	if !delim('}') {
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		return false
	}
	return sawEntries
}

// toFileOffsets turns the ranges, offsets in the skeleton, into offsets in
// the file: each long string before a range's end was shorter in the
// skeleton (its placeholder) than in the file. Ranges and spans both come
// in document order.
func (idx *harIndex) toFileOffsets(spans *harSpans) {
	var shift int64 // file minus skeleton, for the spans passed
	k := 0
	advance := func(x int64) int64 {
		for ; k < len(spans.spans) && spans.spans[k].skel < x; k++ {
			shift += spans.spans[k].n - int64(len(spans.placeholder(k)))
		}
		return x + shift
	}
	for i := range idx.at {
		r := &idx.at[i]
		start := advance(r.off)
		end := advance(r.off + r.n)
		r.off, r.n = start, end-start
	}
}

// entry decodes SSE entry i: its fields, a type error met in them (the
// rest was read), and the long strings it refers to. at reads the file
// when the index is in file offsets.
func (idx *harIndex) entry(name string, i int, at io.ReaderAt) (*harEntry, error, *harSpans, error) {
	if idx.doc != nil {
		pos := idx.sse[i].Position
		return &idx.doc.entries[pos], idx.doc.errs[pos], idx.spans, nil
	}
	r := idx.at[i]
	var raw []byte
	spans := idx.spans
	if idx.file {
		sec := io.NewSectionReader(at, r.off, r.n)
		skel, sp, err := harSkeleton(name, bufio.NewReaderSize(sec, int(min(max(r.n, 16), sniffSize))), sec)
		if err != nil {
			return nil, nil, nil, err
		}
		raw, spans = skel, sp
	} else {
		raw = idx.skel[r.off : r.off+r.n]
	}
	e := new(harEntry)
	var fieldErr error
	if err := json.Unmarshal(raw, e); err != nil {
		fieldErr = err
	}
	e.resolve(spans)
	return e, fieldErr, spans, nil
}

// harFileKey identifies a regular file's contents as far as a stat can.
type harFileKey struct {
	fi   os.FileInfo
	size int64
	mod  time.Time
}

func (k harFileKey) same(o harFileKey) bool {
	return k.fi != nil && o.fi != nil && os.SameFile(k.fi, o.fi) && k.size == o.size && k.mod.Equal(o.mod)
}

// harIndexCache holds the index of the HAR file last indexed. Opens of
// entries run in parallel (check's workers): the lock makes the first
// build the only one.
var harIndexCache struct {
	sync.Mutex
	key harFileKey
	idx *harIndex
}

// fileKeyOf is the key of at when it is a regular file (else false).
func fileKeyOf(at io.ReaderAt) (harFileKey, bool) {
	f, ok := at.(*os.File)
	if !ok {
		return harFileKey{}, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return harFileKey{}, false
	}
	return harFileKey{fi: fi, size: fi.Size(), mod: fi.ModTime()}, true
}

// loadHARIndex indexes the HAR in br (at: the same input by offset, or
// nil), reusing the cached index of the same unchanged file (key, when
// cacheable: the regular file br reads, compressed or not; the index of
// a compressed one holds its skeleton and long strings in memory).
func loadHARIndex(name string, br *bufio.Reader, at io.ReaderAt, key harFileKey, cacheable bool) (*harIndex, error) {
	if cacheable {
		harIndexCache.Lock()
		defer harIndexCache.Unlock()
		if harIndexCache.idx != nil && harIndexCache.key.same(key) {
			return harIndexCache.idx, nil
		}
	}
	var idx *harIndex
	var err error
	if at != nil {
		idx, err = indexHARFile(name, br, at)
	} else {
		var skel []byte
		var spans *harSpans
		if skel, spans, err = harSkeleton(name, br, nil); err == nil {
			idx, err = indexHAR(name, skel, spans, false)
		}
	}
	if err != nil {
		return nil, err
	}
	if cacheable && idx.doc == nil {
		harIndexCache.key, harIndexCache.idx = key, idx
	}
	return idx, nil
}

// sniffOrIndexed is sniff, but for the HAR file whose index is cached
// (unchanged since): that one is a HAR without reading it. check opens a
// HAR once per entry, and the sniff of a one-line HAR scans a 64 KiB
// window each time.
func sniffOrIndexed(name string, br *bufio.Reader, f *os.File) (sessions.Kind, error) {
	if f != nil {
		if key, ok := fileKeyOf(f); ok {
			harIndexCache.Lock()
			hit := harIndexCache.idx != nil && harIndexCache.key.same(key)
			harIndexCache.Unlock()
			if hit {
				return sessions.KindHAR, nil
			}
		}
	}
	return sniff(name, br)
}
