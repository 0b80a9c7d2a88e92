package ui

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/record"
	"framescope/ui/store"
)

// Writing captures: w writes the turn at the cursor, W the whole session,
// to a file `framescope check` and `framescope open` read back. A timed
// session becomes a framescope JSONL capture, written by record.New
// (one chunk per row: its bytes and arrival time; the header; the end
// line); a session without arrival times becomes raw SSE. The write runs in
// a command; an existing file is never overwritten without a y.

// writeJob is what one write covers, fixed when the write starts: rows
// [lo, hi) of a snapshot of the store and how to describe the stream.
type writeJob struct {
	whole bool
	turn  int
	path  string

	n     int
	row   func(int) *store.Row
	src   store.ByteSource
	lo    int
	hi    int
	timed bool
	// base is subtracted from every time: a later turn written alone starts
	// at 0, as its own response would.
	base time.Duration
	// next is the row after the range (-1: none); its block may hold the
	// comments that trail the range (see rowChunks).
	next int
	meta sessions.Meta
	end  invariants.End
}

func (j *writeJob) what() string {
	if j.whole {
		return "the session"
	}
	return fmt.Sprintf("turn %d", j.turn+1)
}

// writeDoneMsg is the outcome of a write.
type writeDoneMsg struct {
	path      string
	frames    int
	bytes     int64
	oversized int  // frames whose bytes were not kept, left out
	exists    bool // the file exists: ask before overwriting
	err       error
}

// rowBytes is a row's bytes as they were on the wire (nil when they were
// not kept): the one place writing reads them.
func rowBytes(j *writeJob, r *store.Row) []byte { return store.ReadRaw(j.src, r) }

// openWritePrompt opens the path prompt for the turn at the cursor (whole:
// the session), prefilled with a default name in the current directory.
func (m *Model) openWritePrompt(whole bool) {
	st := m.sh.st
	if st.Len() == 0 {
		m.notice = "nothing to write yet"
		return
	}
	turn, _ := m.sh.asOf()
	if !whole && turn < 0 {
		if len(st.Turns) == 0 {
			m.notice = "no turn yet: W writes the session"
			return
		}
		turn = 0 // rows before the first frame: they open turn 1
	}
	job := writeJob{whole: whole, turn: turn, timed: st.HasFirstArrival}
	name := "framescope-" + fileSlug(m.source)
	if whole {
		name += "-session"
	} else {
		name += "-turn" + strconv.Itoa(turn+1)
	}
	if job.timed {
		name += ".jsonl"
	} else {
		name += ".sse"
	}
	m.prompt = &prompt{kind: promptWrite, input: name, write: job}
}

// fileSlug makes a source name (a path, a URL, "(stdin)") into a short
// file name part.
func fileSlug(source string) string {
	base := filepath.Base(strings.TrimRight(source, "/"))
	base = strings.TrimSuffix(base, filepath.Ext(base))
	var b strings.Builder
	for _, c := range base {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteRune(c)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 48 {
			break
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		return "capture"
	}
	return s
}

// startWrite fixes the job from the store and runs the write.
func (m *Model) startWrite(overwrite bool) tea.Cmd {
	p := m.prompt
	path := strings.TrimSpace(p.input)
	if path == "" {
		m.notice = "no path: type one, or esc"
		return nil
	}
	if strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[2:])
		}
	}
	job := p.write
	job.path = path
	m.fillJob(&job)
	p.write = job
	p.busy = true
	return func() tea.Msg { return writeCapture(&job, overwrite) }
}

// fillJob takes the rows, the times and the stream facts from the store.
func (m *Model) fillJob(j *writeJob) {
	st := m.sh.st
	j.n, j.row, j.src = st.Snapshot()
	j.lo, j.hi, j.next = 0, j.n, -1
	// followed: a later turn follows this one, which so ends where it starts.
	followed := !j.whole && j.turn < len(st.Turns)-1
	if !j.whole && j.turn < len(st.Turns) {
		if j.turn > 0 {
			j.lo = st.Turns[j.turn].FirstRow
			if r := st.Row(j.lo); r.HasAt {
				j.base = r.At
			}
		}
		if followed {
			j.hi = st.Turns[j.turn+1].FirstRow
			j.next = j.hi
		}
	}
	if !followed && st.End != nil {
		j.end = *st.End
		j.end.At = max(st.End.At-j.base, 0)
	} else {
		j.end = invariants.End{Kind: invariants.EndEOF}
	}
	j.meta = sessions.Meta{Name: m.source, Kind: sessions.KindJSONL, Timed: true}
	if r := st.Response; r != nil {
		// The exchange as the source gave it (secrets already redacted).
		j.meta.HTTP, j.meta.Status = true, r.Status
		j.meta.URL, j.meta.Method = r.URL, r.Method
		j.meta.ContentType, j.meta.ResponseHeaders = r.ContentType, r.Headers
	}
}

// chunk is one piece of the written stream.
type chunk struct {
	data []byte
	at   time.Duration
}

// rowChunks yields the range's stream bytes in order, one chunk per row,
// and counts the frames. Comment rows carry no bytes of their own: a
// block's comments are inside the bytes of the frame (or block) row that
// follows them, so only comments of comment-only blocks (keepalives) are
// written, rebuilt from the row. Oversized frames, whose bytes were not
// kept, are left out and counted.
func rowChunks(j *writeJob, yield func(chunk) error) (frames, oversized int, err error) {
	var pending []int // comment rows since the last row with bytes
	var at time.Duration
	flushComments := func(keep int) error {
		for _, i := range pending[:max(len(pending)-keep, 0)] {
			r := j.row(i)
			if r.HasAt {
				at = max(r.At-j.base, at)
			}
			if err := yield(chunk{data: []byte(r.Summary + "\n\n"), at: at}); err != nil {
				return err
			}
		}
		pending = pending[:0]
		return nil
	}
	first := j.lo == 0 // the stream's start: a BOM may precede the first block
	for i := j.lo; i < j.hi; i++ {
		r := j.row(i)
		switch {
		case r.Kind == store.RowComment:
			pending = append(pending, i)
			continue
		case r.Kind == store.RowNote:
			continue
		}
		raw := rowBytes(j, r)
		if raw == nil {
			if r.Kind == store.RowFrame {
				oversized++
			}
			continue
		}
		keep := commentLines(raw)
		if first {
			first = false
			if r.Offset-commentBytes(j, pending[:max(len(pending)-keep, 0)]) == int64(len(utf8BOM)) {
				if err := yield(chunk{data: utf8BOM}); err != nil {
					return frames, oversized, err
				}
			}
		}
		if err := flushComments(keep); err != nil {
			return frames, oversized, err
		}
		if r.HasAt {
			at = max(r.At-j.base, at)
		}
		if err := yield(chunk{data: raw, at: at}); err != nil {
			return frames, oversized, err
		}
		if r.Kind == store.RowFrame {
			frames++
		}
	}
	// Comments at the end of the range may sit in the next row's block.
	keep := 0
	if j.next >= 0 && j.next < j.n {
		keep = commentLines(rowBytes(j, j.row(j.next)))
	}
	return frames, oversized, flushComments(keep)
}

// utf8BOM is the byte order mark a stream may start with: the framer
// skips it, so it lies before the first block's offset.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// commentBytes is the size of the comment-only blocks rebuilt from rows.
func commentBytes(j *writeJob, rows []int) int64 {
	var n int64
	for _, i := range rows {
		n += int64(len(j.row(i).Summary) + 2)
	}
	return n
}

// commentLines counts a block's comment lines (lines starting with ':').
func commentLines(raw []byte) int {
	n := 0
	start := true
	for _, c := range raw {
		if start && c == ':' {
			n++
		}
		start = c == '\n' || c == '\r'
	}
	return n
}

// countWriter counts the bytes that reach the file.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// writeCapture writes the job's file (off the bubbletea goroutine).
func writeCapture(j *writeJob, overwrite bool) writeDoneMsg {
	out := writeDoneMsg{path: j.path}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	// Owner-only, like recordings: captures can hold private data.
	f, err := os.OpenFile(j.path, flags, 0o600)
	if errors.Is(err, fs.ErrExist) {
		out.exists = true
		return out
	}
	if err != nil {
		out.err = err
		return out
	}
	cw := &countWriter{w: f}
	bw := bufio.NewWriterSize(cw, 256<<10)
	if j.timed {
		out.frames, out.oversized, err = writeJSONL(j, bw)
	} else {
		out.frames, out.oversized, err = rowChunks(j, func(c chunk) error {
			_, err := bw.Write(c.data)
			return err
		})
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	out.bytes = cw.n
	if err != nil {
		os.Remove(j.path) // a partial capture would read back as a different stream
		out.err = err
	}
	return out
}

// writeJSONL writes the range as a framescope JSONL capture through
// record.New: the rows are replayed as a Capture it records, one
// chunk at a time (a million-row session is never held twice in memory).
func writeJSONL(j *writeJob, w io.Writer) (frames, oversized int, err error) {
	next, stop := iter.Pull(func(yield func(chunk) bool) {
		frames, oversized, _ = rowChunks(j, func(c chunk) error {
			if !yield(c) {
				return errStopped
			}
			return nil
		})
	})
	defer stop()
	rc := &rowsCapture{meta: j.meta, next: next, end: j.end}
	rec := record.New(rc, w, record.Options{KeepSecrets: true})
	for {
		if _, err := rec.Next(); err != nil {
			break
		}
	}
	rec.Close()
	return frames, oversized, rec.(*record.Recorder).Err()
}

var errStopped = errors.New("stopped")

// rowsCapture is a Capture over the chunks rowChunks yields.
type rowsCapture struct {
	meta   sessions.Meta
	next   func() (chunk, bool)
	lastAt time.Duration
	end    invariants.End
}

func (c *rowsCapture) Meta() sessions.Meta { return c.meta }

func (c *rowsCapture) Next() (sessions.Chunk, error) {
	ch, ok := c.next()
	if !ok {
		return sessions.Chunk{}, io.EOF
	}
	c.lastAt = ch.at
	return sessions.Chunk{Data: ch.data, T: ch.at, HasTime: true}, nil
}

// End is the source's end; without a time of its own it is the last
// chunk's (a turn followed by another, a stream still open).
func (c *rowsCapture) End() invariants.End {
	e := c.end
	if !e.HasTime {
		e.At, e.HasTime = c.lastAt, true
	}
	return e
}

func (c *rowsCapture) TakeProblems() []sessions.Problem { return nil }
func (c *rowsCapture) Close() error                     { return nil }

// writeDone shows the outcome, or asks before overwriting.
func (m *Model) writeDone(msg writeDoneMsg) {
	p := m.prompt
	if msg.exists {
		if p != nil && p.kind == promptWrite {
			p.busy = false
			p.confirm = msg.path
		}
		return
	}
	m.prompt = nil
	path := decode.Sanitize(msg.path)
	if msg.err != nil {
		m.notice = "write failed: " + decode.Sanitize(msg.err.Error())
		return
	}
	m.notice = fmt.Sprintf("wrote %s: %s, %s", path, fmtBytes(msg.bytes), invariants.Plural(msg.frames, "frame"))
	if msg.oversized > 0 {
		m.notice += fmt.Sprintf(" (%d oversized frames left out: their bytes were not kept)", msg.oversized)
	}
}

// confirmOverwrite answers the overwrite question: y writes, n or esc goes
// back to the path.
func (m *Model) confirmOverwrite(msg tea.KeyPressMsg) tea.Cmd {
	p := m.prompt
	switch msg.String() {
	case "y", "Y":
		p.confirm = ""
		return m.startWrite(true)
	case "n", "N", "esc":
		p.confirm = ""
		m.notice = "not overwritten: change the path, or esc"
	case "ctrl+c":
		m.prompt = nil
	}
	return nil
}
