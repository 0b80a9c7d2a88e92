package capture

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"framescope/sessions"
	"framescope/sessions/library"
)

// Input is one input of a command that may make several reports of it
// (check and stats report each SSE entry of a HAR), opened so that bytes
// that can be read only once are read once.
//
// A regular file is opened again by its name for each report: a HAR's
// index is cached for the process (read_har_index.go), so its entries
// cost one pass. Anything else (stdin, a pipe such as `check <(curl …)`,
// a FIFO, a device) can be read only once: OpenInput opens and sniffs it,
// and its report reads on from the bytes sniffed. Opening such a path a
// second time lost what the first open read: a pipe was checked as 0
// bytes, a FIFO whose writer had gone waited for ever.
//
// A HAR is a document, not a stream: every entry is reported whatever
// the HAR came through. From a stream (or gzip-compressed, from a file)
// it is indexed once, in memory, as a pipe's HAR always was, and each
// entry is opened from that index.
type Input struct {
	name string // as given ("-" for stdin)
	path string // what Open opens: name, or a library session's file
	file bool   // a regular file (or one that is not there: Open says so)

	entries []HAREntry
	notHAR  error     // why entries is nil
	har     *harIndex // a HAR read from a stream, whole

	mu     sync.Mutex
	stream *sniffedInput // a stream not yet read (nil once taken)
	err    error         // why the stream cannot be read
	taken  bool
}

// OpenInput opens name ("-" reads opts.Stdin, "@ID" a library session)
// for Input.Open. It never fails: what is wrong with the input is Open's
// error, so that a command reports it in its place among the others.
func OpenInput(name string, opts OpenOptions) *Input {
	in := &Input{name: name, path: name}
	switch {
	case name == "-":
		if opts.Stdin == nil {
			in.err = errors.New("-: no standard input to read")
			return in
		}
		in.stream, in.err = sniffInput(name, opts.Stdin, nil)
		in.readHAR()
		return in
	case strings.HasPrefix(name, "@"):
		path, err := library.ResolveRef(name)
		if err != nil {
			in.err = err
			return in
		}
		in.path = path
	}
	if !IsStream(in.path) {
		in.file = true
		in.entries, in.notHAR = HAREntries(in.path, OpenOptions{}) // nil: not a HAR (Open says what it is)
		return in
	}
	f, err := os.Open(in.path)
	if err != nil {
		in.err = openError(name, err)
		return in
	}
	in.stream, in.err = sniffInput(name, f, f)
	if in.err != nil {
		f.Close()
	}
	in.readHAR()
	return in
}

// readHAR indexes a stream that is a HAR: its entries are then opened
// from the index, as many times as asked.
func (in *Input) readHAR() {
	s := in.stream
	if in.err != nil {
		in.notHAR = in.err
		return
	}
	if s.kind != sessions.KindHAR {
		in.notHAR = fmt.Errorf("%s: not a HAR file (it looks like a %s capture)", sessions.Clean(in.name), s.kind)
		return
	}
	in.stream = nil
	in.har, in.err = s.harIndex(in.name)
	if s.closer != nil {
		s.closer.Close() // everything needed is in memory
	}
	if in.har != nil {
		in.entries = in.har.sse
	}
	in.notHAR = in.err
}

// IsStream reports whether name is an input that can be read only once:
// "-" (stdin), or a path that is neither a regular file nor a folder (a
// pipe, a FIFO, a device). A path that is not there is no stream.
func IsStream(name string) bool {
	if name == "-" {
		return true
	}
	st, err := os.Stat(name)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// Name is the input as given.
func (in *Input) Name() string { return in.name }

// Entries lists the SSE entries of a HAR (nil for any other input).
func (in *Input) Entries() []HAREntry { return in.entries }

// NotHAR says why Entries is nil: the input is no HAR, or could not be
// read as one.
func (in *Input) NotHAR() error {
	if in.notHAR == nil {
		return in.err
	}
	return in.notHAR
}

// Open returns the capture of the input, or of the HAR entry given
// (entry -1: automatic, as OpenOptions.Entry). A stream is read once: a
// second Open of it is an error.
func (in *Input) Open(entry int) (sessions.Capture, error) {
	opts := OpenOptions{Entry: entry, EntryGiven: entry != -1}
	if in.file {
		return Open(in.path, opts)
	}
	if in.har != nil {
		return newHARCapture(in.name, in.har, nil, nil, entry)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.err != nil {
		return nil, in.err
	}
	if in.taken {
		return nil, fmt.Errorf("%s: read already: a stream is read once", sessions.Clean(in.name))
	}
	in.taken = true
	s := in.stream
	in.stream = nil
	c, err := s.open(in.name, opts)
	if err != nil && s.closer != nil {
		s.closer.Close()
	}
	return c, err
}

// Close closes a stream that was never read (a read one is closed by its
// capture's Close).
func (in *Input) Close() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.stream != nil && in.stream.closer != nil {
		err := in.stream.closer.Close()
		in.stream = nil
		return err
	}
	return nil
}
