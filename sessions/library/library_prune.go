package library

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"framescope/sessions"
)

// Pruning the session library: `framescope sessions prune` removes sessions
// by count or age, and a size cap (LibraryMaxEnv, default
// DefaultLibraryMax) is enforced each time a live session is saved.

// LibraryMaxEnv names the environment variable that sets the library's
// size cap: a size (500MB, 2GiB, 800m; see ParseSize), or 0 for no cap.
const LibraryMaxEnv = "FRAMESCOPE_LIBRARY_MAX"

// DefaultLibraryMax is the library's size cap when LibraryMaxEnv is unset.
const DefaultLibraryMax = 500 * 1000 * 1000 // 500 MB

// recordingGrace: a session without metadata whose capture changed this
// recently may still be recording in another process; pruning skips it.
// A recording is also spared however long it has been quiet while its
// capture holds the recording lock (Create).
const recordingGrace = 2 * time.Minute

// Label names a session for people: "demo <scenario>" for a demo (its
// loopback URL changes every run), else its URL ("-" when unknown). It is
// not sanitized.
func (m SessionMeta) Label() string {
	if sc, ok := strings.CutPrefix(m.Source, "demo:"); ok && sc != "" {
		return "demo " + sc
	}
	if m.URL == "" {
		return "-"
	}
	return m.URL
}

// PrunedSession is one session a prune removed (or, dry, would remove).
type PrunedSession struct {
	Meta SessionMeta
	Size int64 // bytes on disk: capture plus metadata
}

// PruneResult says what a prune removed and what is left.
type PruneResult struct {
	Removed   []PrunedSession // oldest first
	Freed     int64           // bytes of the removed sessions' files
	Left      int             // sessions left
	LeftBytes int64           // bytes of the sessions left
	DryRun    bool
}

// PruneOptions chooses the sessions a prune removes. Keep < 0 and
// OlderThan == 0 leave that criterion out; with both, a session goes
// when it is older than OlderThan and not among the Keep newest.
type PruneOptions struct {
	Keep      int           // keep this many of the newest sessions (-1: no count)
	OlderThan time.Duration // remove sessions that started longer ago than this (0: no age)
	MaxBytes  int64         // then remove the oldest until the library is at most this size (0: no cap)
	Protect   string        // a session ID never removed (the one being saved)
	DryRun    bool          // say what would go, remove nothing
	Now       time.Time     // zero: time.Now()
}

type sizedEntry struct {
	libEntry
	size    int64
	modTime time.Time
}

// sized adds each session's size on disk and its capture's modification time.
func (l *Library) sized(es []libEntry) []sizedEntry {
	out := make([]sizedEntry, len(es))
	for i, e := range es {
		out[i].libEntry = e
		for _, p := range []string{l.capturePath(e.meta.ID), l.metaPath(e.meta.ID)} {
			if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
				out[i].size += info.Size()
				if p == l.capturePath(e.meta.ID) {
					out[i].modTime = info.ModTime()
				}
			}
		}
	}
	return out
}

// Prune removes the sessions opts chooses, oldest first, and says which
// and how many bytes that freed. A session that may still be recording
// (no metadata, and its capture written in the last two minutes or
// locked by its recorder) and opts.Protect are never removed.
func (l *Library) Prune(opts PruneOptions) (PruneResult, error) {
	res := PruneResult{DryRun: opts.DryRun}
	if opts.Keep < 0 && opts.OlderThan <= 0 && opts.MaxBytes <= 0 {
		return res, errors.New("sessions prune: nothing chosen (give --keep N, --older-than D or both)")
	}
	es, err := l.scan()
	if err != nil {
		return res, err
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	all := l.sized(es) // newest first
	// Whether each unfinished session is still being recorded, asked once
	// (the lock is checked, not taken).
	locked := make([]bool, len(all))
	for i, e := range all {
		if e.meta.End == EndUnfinished && e.hasCapture {
			locked[i] = recordingLocked(l.capturePath(e.meta.ID))
		}
	}
	spared := func(i int) bool {
		e := all[i]
		if e.meta.ID == opts.Protect {
			return true
		}
		if e.meta.End != EndUnfinished || !e.hasCapture {
			return false
		}
		if !e.modTime.IsZero() && now.Sub(e.modTime) < recordingGrace {
			return true
		}
		return locked[i]
	}
	remove := make([]bool, len(all))
	if opts.Keep >= 0 || opts.OlderThan > 0 {
		for i, e := range all {
			old := opts.OlderThan <= 0 || (!e.meta.StartedAt.IsZero() && now.Sub(e.meta.StartedAt) > opts.OlderThan)
			beyond := opts.Keep < 0 || i >= opts.Keep
			remove[i] = old && beyond && !spared(i)
		}
	}
	var total int64
	for i, e := range all {
		if !remove[i] {
			total += e.size
		}
	}
	if opts.MaxBytes > 0 {
		for i := len(all) - 1; i >= 0 && total > opts.MaxBytes; i-- {
			if !remove[i] && !spared(i) {
				remove[i] = true
				total -= all[i].size
			}
		}
	}
	res.LeftBytes = total
	var errs []error
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		if !remove[i] {
			res.Left++
			continue
		}
		if !opts.DryRun {
			if err := l.Remove(e.meta.ID); err != nil {
				errs = append(errs, err)
				res.Left++
				res.LeftBytes += e.size
				continue
			}
		}
		res.Removed = append(res.Removed, PrunedSession{Meta: e.meta, Size: e.size})
		res.Freed += e.size
	}
	return res, errors.Join(errs...)
}

// LibraryMax returns the library's size cap from LibraryMaxEnv (default
// DefaultLibraryMax; 0 = no cap). A value that is no size is an error
// naming the variable.
func LibraryMax(getenv func(string) string) (int64, error) {
	v := strings.TrimSpace(getenv(LibraryMaxEnv))
	if v == "" {
		return DefaultLibraryMax, nil
	}
	n, err := sessions.ParseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", LibraryMaxEnv, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("%s=%s: want a size such as 500MB, 2GiB or 0 for no cap", LibraryMaxEnv, strconv.Quote(v))
	}
	return n, nil
}

// EnforceCap removes the oldest sessions until the library is within its
// size cap (LibraryMaxEnv), never the session saved (keep). No cap, or a
// library within it, removes nothing.
func (l *Library) EnforceCap(keep string) (PruneResult, error) {
	limit, err := LibraryMax(os.Getenv)
	if err != nil {
		return PruneResult{}, fmt.Errorf("session library size cap not enforced: %w", err)
	}
	if limit == 0 {
		return PruneResult{}, nil
	}
	return l.Prune(PruneOptions{Keep: -1, MaxBytes: limit, Protect: keep})
}

// ParseAge reads --older-than: a number and a unit, d (days), h, m or s
// ("7d", "24h", "90m", "1d12h"); a bare number is days.
func ParseAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	bad := fmt.Errorf("%s: want an age such as 7d, 24h or 90m (a bare number is days)", strconv.Quote(s))
	if t == "" {
		return 0, bad
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		t += "d" // a bare number is days
	}
	var total time.Duration
	for t != "" {
		i := 0
		for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
			i++
		}
		j := i
		for j < len(t) && t[j] >= 'a' && t[j] <= 'z' {
			j++
		}
		if i == 0 || j == i {
			return 0, bad
		}
		n, err := strconv.ParseFloat(t[:i], 64)
		if err != nil {
			return 0, bad
		}
		var unit time.Duration
		switch t[i:j] {
		case "d":
			unit = 24 * time.Hour
		case "h":
			unit = time.Hour
		case "m":
			unit = time.Minute
		case "s":
			unit = time.Second
		default:
			return 0, bad
		}
		if n*float64(unit) > float64(100*365*24*time.Hour) {
			return 0, fmt.Errorf("%s: longer than a hundred years", strconv.Quote(s))
		}
		total += time.Duration(n * float64(unit))
		t = t[j:]
	}
	if total <= 0 {
		return 0, fmt.Errorf("%s: must be more than zero", strconv.Quote(s))
	}
	return total, nil
}

// FindAll resolves several references as Find does (@last, @ID, ID
// prefixes), each once; any unknown or ambiguous reference is an error
// and nothing is returned.
func (l *Library) FindAll(refs []string) ([]SessionMeta, error) {
	var out []SessionMeta
	var errs []error
	for _, r := range refs {
		m, err := l.Find(r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !slices.ContainsFunc(out, func(o SessionMeta) bool { return o.ID == m.ID }) {
			out = append(out, m)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// SessionIDs lists the library's session IDs, newest first, with a short
// description each (for shell completion). An unreadable library has none.
func (l *Library) SessionIDs() (ids, descs []string) {
	es, err := l.scan()
	if err != nil {
		return nil, nil
	}
	for _, e := range es {
		ids = append(ids, e.meta.ID)
		descs = append(descs, startedText(e.meta.StartedAt)+" "+sessions.CleanShort(e.meta.Label(), 50))
	}
	return ids, descs
}

// SizeText writes a byte count for people: 812 B, 3.4 KB, 512.0 MB.
func SizeText(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000*1000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " KB"
	case n < 1000*1000*1000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
	return strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64) + " GB"
}
