package library

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// The session library: every live session is saved as <ID>.jsonl (the
// framescope JSONL capture, written while the session runs) and <ID>.json
// (its metadata, written when it ends) in one directory of the user's data
// directory.

// DataDirEnv names the environment variable that overrides the framescope
// data directory; the library is its "sessions" sub-directory.
const DataDirEnv = "FRAMESCOPE_DATA_DIR"

// EndUnfinished is the End of a session whose capture has no metadata: the
// recording process was killed, or it is still recording.
const EndUnfinished = "unfinished"

// endMetaUnreadable starts the End of a session whose metadata file cannot
// be read; it is listed like an unfinished one.
const endMetaUnreadable = "metadata unreadable: "

// summaryKnown says whether a session's frames, turns and alarms are known
// (its metadata was written and read).
func summaryKnown(m SessionMeta) bool {
	return m.End != EndUnfinished && !strings.HasPrefix(m.End, endMetaUnreadable)
}

// Library is a directory of recorded sessions. The directory is created
// (0700) on the first write; reading an absent library finds no sessions.
type Library struct{ Dir string }

// SessionMeta is a session's metadata (<ID>.json).
type SessionMeta struct {
	ID        string            `json:"id"`
	URL       string            `json:"url"`
	Method    string            `json:"method"`
	Source    string            `json:"source"` // "connect", "record", "demo:<scenario>"
	StartedAt time.Time         `json:"started_at"`
	Duration  time.Duration     `json:"duration_ns"`
	Bytes     int64             `json:"bytes"`
	Frames    int               `json:"frames"`
	Dialect   string            `json:"dialect,omitempty"` // the stream's dialect (older sessions: none, read as pc3)
	Flavor    string            `json:"flavor,omitempty"`  // the dialect's provider flavor, when one was recognised
	Turns     []TurnSummary     `json:"turns"`
	Counts    invariants.Counts `json:"counts"`
	End       string            `json:"end"` // eof | cancelled | error: ... | unfinished
	Status    int               `json:"status"`
	Capture   string            `json:"capture"` // file name of the .jsonl beside it
}

// TurnSummary is one turn of a session: its response_id, its terminal
// ("completed", "error", "cancelled" or nil) and whether [DONE] came.
type TurnSummary struct {
	ResponseID string  `json:"response_id"`
	Terminal   *string `json:"terminal"`
	Done       bool    `json:"done"`
}

// DefaultLibrary returns the library in the user's data directory:
// $FRAMESCOPE_DATA_DIR/sessions when that is set, else
// $XDG_DATA_HOME/framescope/sessions (default ~/.local/share/...) on Linux
// and other Unix systems, ~/Library/Application Support/framescope/sessions
// on macOS and %LocalAppData%\framescope\sessions on Windows. Nothing is
// created until a session is written.
func DefaultLibrary() (*Library, error) {
	dir, err := libraryDir(runtime.GOOS, os.Getenv, os.UserHomeDir)
	if err != nil {
		return nil, err
	}
	return &Library{Dir: dir}, nil
}

// libraryDir computes the library directory for an operating system.
func libraryDir(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv(DataDirEnv); d != "" {
		if !filepath.IsAbs(d) {
			abs, err := filepath.Abs(d)
			if err != nil {
				return "", fmt.Errorf("session library: %s=%s: %w", DataDirEnv, sessions.Clean(d), err)
			}
			d = abs
		}
		return filepath.Join(d, "sessions"), nil
	}
	var base string
	switch goos {
	case "windows":
		base = getenv("LocalAppData")
		if base == "" {
			return "", errors.New("session library: %LocalAppData% is not set (set " + DataDirEnv + " to choose a directory)")
		}
	case "darwin", "ios":
		h, err := home()
		if err != nil || h == "" {
			return "", libraryHomeError(err)
		}
		base = filepath.Join(h, "Library", "Application Support")
	default:
		// XDG Base Directory: a relative $XDG_DATA_HOME is invalid and ignored.
		if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
			base = x
			break
		}
		h, err := home()
		if err != nil || h == "" {
			return "", libraryHomeError(err)
		}
		base = filepath.Join(h, ".local", "share")
	}
	return filepath.Join(base, "framescope", "sessions"), nil
}

func libraryHomeError(err error) error {
	if err == nil {
		err = errors.New("no home directory")
	}
	return fmt.Errorf("session library: %w (set %s to choose a directory)", err, DataDirEnv)
}

// --- IDs and file names -----------------------------------------------------

const sessionIDLayout = "20060102-150405"

// newSessionID returns <UTC time>-<4 random hex digits>: IDs sort by start
// time (to the second).
func newSessionID(startedAt time.Time) (string, error) {
	var r [2]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("session library: random ID: %w", err)
	}
	return startedAt.UTC().Format(sessionIDLayout) + "-" + hex.EncodeToString(r[:]), nil
}

// sessionIDTime reads the start time (UTC, whole seconds) an ID begins with.
func sessionIDTime(id string) (time.Time, bool) {
	n := len(sessionIDLayout)
	if len(id) < n || (len(id) > n && id[n] != '-') {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(sessionIDLayout, id[:n], time.UTC)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// validSessionName says whether id can name a session's files: a plain,
// printable file name (no directories, not hidden).
func validSessionName(id string) bool {
	if id == "" || len(id) > 200 || id[0] == '.' || !utf8.ValidString(id) {
		return false
	}
	for _, r := range id {
		if r == '/' || r == '\\' || r == ':' || decode.UnsafeRune(r) {
			return false
		}
	}
	return true
}

func (l *Library) capturePath(id string) string { return filepath.Join(l.Dir, id+".jsonl") }
func (l *Library) metaPath(id string) string    { return filepath.Join(l.Dir, id+".json") }

func (l *Library) checkDir() error {
	if l == nil || l.Dir == "" {
		return errors.New("session library: no directory")
	}
	return nil
}

func (l *Library) ensureDir() error {
	if err := l.checkDir(); err != nil {
		return err
	}
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return fmt.Errorf("session library: %w", err)
	}
	return nil
}

// --- writing ----------------------------------------------------------------

// Create starts a new session: it returns the session's ID and a new file
// (0600) to write the JSONL capture into. The caller closes the file.
// Until then the capture is locked as being recorded (where flock(2)
// exists; the lock dies with the process): Prune and the size cap never
// remove it.
// A zero startedAt means now.
func (l *Library) Create(startedAt time.Time) (id string, capture *os.File, err error) {
	if err := l.ensureDir(); err != nil {
		return "", nil, err
	}
	if startedAt.IsZero() {
		startedAt = time.Now()
	}
	for range 64 {
		id, err := newSessionID(startedAt)
		if err != nil {
			return "", nil, err
		}
		if _, err := os.Lstat(l.metaPath(id)); err == nil {
			continue // left-over metadata owns this ID
		}
		f, err := os.OpenFile(l.capturePath(id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", nil, fmt.Errorf("session library: %w", err)
		}
		lockRecording(f)
		return id, f, nil
	}
	return "", nil, fmt.Errorf("session library: no free session ID for %s in %s", startedAt.UTC().Format(sessionIDLayout), sessions.Clean(l.Dir))
}

// Finish writes the session's metadata atomically (a temporary file renamed
// over <ID>.json). Capture is set to <ID>.jsonl.
func (l *Library) Finish(meta SessionMeta) error {
	if err := l.checkDir(); err != nil {
		return err
	}
	if !validSessionName(meta.ID) {
		return fmt.Errorf("session library: invalid session ID %s", strconv.Quote(meta.ID))
	}
	meta.Capture = meta.ID + ".jsonl"
	if meta.Turns == nil {
		meta.Turns = []TurnSummary{}
	}
	data, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return fmt.Errorf("session library: %s: %w", meta.ID, err)
	}
	// The file is as safe to cat as the listing (a URL or a response id
	// may carry bidi or C1 characters).
	data = append(escapeUnsafeJSON(data), '\n')
	if err := l.ensureDir(); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(l.Dir, "."+meta.ID+".json.tmp-*") // 0600
	if err != nil {
		return fmt.Errorf("session library: %w", err)
	}
	tmpName := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmpName, l.metaPath(meta.ID))
	}
	if err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("session library: writing metadata of %s: %w", meta.ID, err)
	}
	return nil
}

// --- reading ----------------------------------------------------------------

// libEntry is one session found on disk.
type libEntry struct {
	meta       SessionMeta
	hasCapture bool
}

// errNotRegular refuses a library entry that is no regular file.
var errNotRegular = errors.New("not a regular file")

// scan reads the library. Hidden files (temporaries), directories and
// names that cannot be session IDs are ignored, and so is anything but a
// regular file (a FIFO, socket, device or symbolic link): it is never
// opened, so a FIFO named like a session cannot hang a listing, an @
// reference or a prune.
func (l *Library) scan() ([]libEntry, error) {
	if err := l.checkDir(); err != nil {
		return nil, err
	}
	des, err := os.ReadDir(l.Dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("session library: %w", err)
	}
	type found struct {
		capture fs.DirEntry
		meta    bool
	}
	byID := make(map[string]*found)
	var order []string
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || strings.HasPrefix(name, ".") {
			continue
		}
		var id string
		isMeta := false
		switch {
		case strings.HasSuffix(name, ".jsonl"):
			id = strings.TrimSuffix(name, ".jsonl")
		case strings.HasSuffix(name, ".json"):
			id, isMeta = strings.TrimSuffix(name, ".json"), true
		default:
			continue
		}
		if !validSessionName(id) {
			continue
		}
		f := byID[id]
		if f == nil {
			f = &found{}
			byID[id] = f
			order = append(order, id)
		}
		if isMeta {
			f.meta = true
		} else {
			f.capture = de
		}
	}
	out := make([]libEntry, 0, len(order))
	for _, id := range order {
		f := byID[id]
		e := libEntry{hasCapture: f.capture != nil}
		var metaErr error
		if f.meta {
			e.meta, metaErr = readSessionMeta(l.metaPath(id))
		}
		if !f.meta || metaErr != nil {
			e.meta = l.unfinishedMeta(id, f.capture)
			if metaErr != nil {
				e.meta.End = endMetaUnreadable + metaErr.Error()
			}
		}
		e.meta.ID = id // the file name is the authority
		e.meta.Capture = id + ".jsonl"
		if e.meta.Turns == nil {
			e.meta.Turns = []TurnSummary{}
		}
		out = append(out, e)
	}
	sortEntries(out)
	return out, nil
}

// maxMetaSize bounds a metadata file (a session with very many turns is
// still far below it).
const maxMetaSize = 64 << 20

func readSessionMeta(path string) (SessionMeta, error) {
	var m SessionMeta
	f, err := openRegular(path)
	if err != nil {
		return m, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMetaSize+1))
	if err != nil {
		return m, err
	}
	if len(data) > maxMetaSize {
		return m, errors.New("file too large")
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, err
	}
	return m, nil
}

// unfinishedMeta learns what it cheaply can about a capture without
// metadata: its size, and URL, method, status and start time from the
// capture's header line (else the start time from the ID, else the file's
// modification time).
func (l *Library) unfinishedMeta(id string, capture fs.DirEntry) SessionMeta {
	m := SessionMeta{ID: id, End: EndUnfinished}
	var modTime time.Time
	if capture != nil {
		if info, err := capture.Info(); err == nil {
			m.Bytes = info.Size()
			modTime = info.ModTime()
		}
		if h, ok := readCaptureHeader(l.capturePath(id)); ok {
			m.URL, m.Method, m.Status, m.StartedAt = h.url, h.method, h.status, h.startedAt
		}
	}
	if m.StartedAt.IsZero() {
		if t, ok := sessionIDTime(id); ok {
			m.StartedAt = t
		} else {
			m.StartedAt = modTime
		}
	}
	return m
}

type captureHeader struct {
	url, method string
	status      int
	startedAt   time.Time
}

// maxHeaderPeek bounds how much of a capture is read for its header line.
const maxHeaderPeek = 64 << 10

// readCaptureHeader parses the first line of a framescope JSONL capture,
// reading at most maxHeaderPeek bytes.
func readCaptureHeader(path string) (captureHeader, bool) {
	var h captureHeader
	f, err := openRegular(path)
	if err != nil {
		return h, false
	}
	defer f.Close()
	// Most header lines fit in 4 KB; a library scan reads every
	// unfinished capture's, so only a longer one reads on, up to the peek.
	buf := make([]byte, 4<<10)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	if n == len(buf) && bytes.IndexByte(buf, '\n') < 0 {
		more := make([]byte, maxHeaderPeek-n)
		m, _ := io.ReadFull(f, more)
		buf = append(buf, more[:m]...)
	}
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		return h, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimPrefix(buf[:i], sessions.UTF8BOM), &obj) != nil {
		return h, false
	}
	if _, ok := obj["framescope_capture"]; !ok {
		return h, false
	}
	str := func(k string) string {
		var s string
		if json.Unmarshal(obj[k], &s) != nil {
			return ""
		}
		return s
	}
	h.url, h.method = str("url"), str("method")
	if json.Unmarshal(obj["status"], &h.status) != nil {
		if n, err := strconv.Atoi(str("status")); err == nil {
			h.status = n
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, str("started_at")); err == nil {
		h.startedAt = t
	}
	return h, true
}

// sortEntries orders sessions newest first (ties: the greater ID first).
func sortEntries(es []libEntry) {
	slices.SortStableFunc(es, func(a, b libEntry) int {
		if c := b.meta.StartedAt.Compare(a.meta.StartedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.meta.ID, a.meta.ID)
	})
}

// List returns the sessions, newest first. A capture without metadata is
// listed with End "unfinished" and what its file tells cheaply. Metadata
// whose capture is gone is listed too (Resolve then fails).
func (l *Library) List() ([]SessionMeta, error) {
	es, err := l.scan()
	if err != nil {
		return nil, err
	}
	out := make([]SessionMeta, len(es))
	for i, e := range es {
		out[i] = e.meta
	}
	return out, nil
}

// Find returns the session a reference names: "@last" (the newest), "@<ID>"
// or "@<unique prefix of an ID>" (the "@" is optional here). An unknown or
// ambiguous reference gives an error that lists candidates.
func (l *Library) Find(ref string) (SessionMeta, error) {
	e, err := l.find(ref)
	return e.meta, err
}

func (l *Library) find(ref string) (libEntry, error) {
	key := strings.TrimPrefix(ref, "@")
	if key == "" {
		return libEntry{}, fmt.Errorf("%s: empty session reference (use @last or @<session ID>)", sessions.Clean(ref))
	}
	es, err := l.scan()
	if err != nil {
		return libEntry{}, err
	}
	if len(es) == 0 {
		return libEntry{}, fmt.Errorf("%s: no sessions recorded yet (library %s)", sessions.Clean(ref), sessions.Clean(l.Dir))
	}
	if key == "last" {
		return es[0], nil
	}
	for _, e := range es {
		if e.meta.ID == key {
			return e, nil
		}
	}
	var matches []libEntry
	lower := strings.ToLower(key)
	for _, e := range es {
		if strings.HasPrefix(strings.ToLower(e.meta.ID), lower) {
			matches = append(matches, e)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		var b strings.Builder
		fmt.Fprintf(&b, "%s: no session with that ID or ID prefix in %s; the newest are:", sessions.Clean(ref), sessions.Clean(l.Dir))
		writeCandidates(&b, es, 5)
		b.WriteString("\n(@last is the newest)")
		return libEntry{}, errors.New(b.String())
	default:
		var b strings.Builder
		fmt.Fprintf(&b, "%s: ambiguous, %d sessions match:", sessions.Clean(ref), len(matches))
		writeCandidates(&b, matches, 10)
		b.WriteString("\ngive more of the ID")
		return libEntry{}, errors.New(b.String())
	}
}

// writeCandidates lists up to limit sessions, one per line.
func writeCandidates(b *strings.Builder, es []libEntry, limit int) {
	for i, e := range es {
		if i == limit {
			fmt.Fprintf(b, "\n  … and %d more", len(es)-limit)
			break
		}
		fmt.Fprintf(b, "\n  @%s  %s", decode.Sanitize(e.meta.ID), startedText(e.meta.StartedAt))
		if l := e.meta.Label(); l != "-" {
			b.WriteString("  ")
			b.WriteString(sessions.CleanShort(l, 60))
		}
	}
}

// Resolve turns "@last", "@<ID>" or "@<unique ID prefix>" into the path of
// the session's capture.
func (l *Library) Resolve(ref string) (string, error) {
	e, err := l.find(ref)
	if err != nil {
		return "", err
	}
	if !e.hasCapture {
		return "", fmt.Errorf("%s: session %s has metadata but its capture %s is missing", sessions.Clean(ref), sessions.Clean(e.meta.ID), sessions.Clean(l.capturePath(e.meta.ID)))
	}
	return l.capturePath(e.meta.ID), nil
}

// Remove deletes a session (its capture and its metadata). The ID must be
// exact (a leading "@" is allowed); an unknown ID is an error, and so is a
// session still being recorded (its recorder holds the capture locked).
func (l *Library) Remove(id string) error {
	if err := l.checkDir(); err != nil {
		return err
	}
	id = strings.TrimPrefix(id, "@")
	if !validSessionName(id) {
		return fmt.Errorf("session library: invalid session ID %s", strconv.Quote(id))
	}
	if recordingLocked(l.capturePath(id)) {
		return fmt.Errorf("session library: session %s is still being recorded; stop its recorder first", sessions.Clean(id))
	}
	removed := false
	for _, p := range []string{l.metaPath(id), l.capturePath(id)} {
		err := os.Remove(p)
		switch {
		case err == nil:
			removed = true
		case errors.Is(err, fs.ErrNotExist):
		default:
			return fmt.Errorf("session library: %w", err)
		}
	}
	if !removed {
		return fmt.Errorf("session library: no session %s in %s", sessions.Clean(id), sessions.Clean(l.Dir))
	}
	return nil
}

// ResolveRef returns name unchanged unless it starts with "@", in which case
// it is a library reference ("@last", "@<ID>", "@<ID prefix>") resolved in
// DefaultLibrary to a capture path. (A file whose name starts with "@" can
// still be opened as ./@name.)
func ResolveRef(name string) (string, error) {
	if !strings.HasPrefix(name, "@") {
		return name, nil
	}
	l, err := DefaultLibrary()
	if err != nil {
		return "", err
	}
	return l.Resolve(name)
}

// --- output -----------------------------------------------------------------

func startedText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func durationText(m SessionMeta) string {
	if !summaryKnown(m) || m.Duration <= 0 {
		return "-"
	}
	d := m.Duration
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	default:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
}

// terminalsText summarises the turns' terminals, run-length compressed
// ("completed×3,error"), plus how the stream ended unless at EOF.
func terminalsText(m SessionMeta) string {
	if m.End == EndUnfinished {
		return "(unfinished)"
	}
	var parts []string
	for i := 0; i < len(m.Turns); {
		name := "none"
		if t := m.Turns[i].Terminal; t != nil && *t != "" {
			name = *t
		}
		j := i + 1
		for j < len(m.Turns) && sameTerminal(m.Turns[i].Terminal, m.Turns[j].Terminal) {
			j++
		}
		if n := j - i; n > 1 {
			name += "×" + strconv.Itoa(n)
		}
		parts = append(parts, name)
		i = j
	}
	s := strings.Join(parts, ",")
	if len(parts) > 6 {
		s = strings.Join(parts[:6], ",") + ",…"
	}
	if m.End != "" && m.End != string(invariants.EndEOF) {
		end := m.End
		if r := []rune(end); len(r) > 40 {
			end = string(r[:39]) + "…"
		}
		if s == "" {
			s = "(" + end + ")"
		} else {
			s += " (" + end + ")"
		}
	}
	if s == "" {
		s = "-"
	}
	return s
}

func sameTerminal(a, b *string) bool {
	as, bs := "", ""
	if a != nil {
		as = *a
	}
	if b != nil {
		bs = *b
	}
	return as == bs
}

// WriteSessionTable writes the sessions as an aligned table: ID, start
// (local time), duration, frames, turns, terminals, alarms (error/warn/
// info) and URL. Every string is sanitized; an empty list writes the
// header only.
func WriteSessionTable(w io.Writer, list []SessionMeta) error {
	rows := [][]string{{"ID", "STARTED", "DURATION", "DIALECT", "FRAMES", "TURNS", "TERMINAL", "ALARMS E/W/I", "URL"}}
	rightAligned := []bool{false, false, true, false, true, true, false, false, false}
	for _, m := range list {
		frames, turns, alarms, dialectName := "-", "-", "-", "-"
		if m.Dialect != "" {
			dialectName = m.Dialect
			if m.Flavor != "" {
				dialectName += " (" + sessions.Clean(m.Flavor) + ")"
			}
		}
		if summaryKnown(m) {
			frames = strconv.Itoa(m.Frames)
			turns = strconv.Itoa(len(m.Turns))
			alarms = fmt.Sprintf("%d/%d/%d", m.Counts.Error, m.Counts.Warn, m.Counts.Info)
		}
		url := m.Label() // a demo by its scenario, not its loopback URL
		rows = append(rows, []string{
			decode.Sanitize(m.ID),
			startedText(m.StartedAt),
			durationText(m),
			decode.Sanitize(dialectName),
			frames,
			turns,
			decode.Sanitize(terminalsText(m)),
			alarms,
			decode.Sanitize(url),
		})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == len(r)-1:
				b.WriteString(c) // the last column is not padded
			case rightAligned[i]:
				b.WriteString(pad + c + "  ")
			default:
				b.WriteString(c + pad + "  ")
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSessionJSON writes the sessions as a JSON array (newest first as
// given). Strings keep their values but every rune that could drive a
// terminal is written as a \u escape.
func WriteSessionJSON(w io.Writer, list []SessionMeta) error {
	if list == nil {
		list = []SessionMeta{}
	}
	out := make([]SessionMeta, len(list))
	for i, m := range list {
		if m.Turns == nil {
			m.Turns = []TurnSummary{}
		}
		out[i] = m
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(escapeUnsafeJSON(buf.Bytes()))
	return err
}

// escapeUnsafeJSON rewrites runes that encoding/json leaves raw but a
// terminal could act on (DEL, C1 controls, bidi and invisible characters)
// as \u escapes. They can only occur inside strings, so the JSON value is
// unchanged.
func escapeUnsafeJSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if decode.UnsafeRune(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+64)
			}
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
