package record

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"framescope/invariants"
	"framescope/sessions"
)

// A turn request is one-shot: once sent, the turn is consumed. So where a
// live session writes — the -o file and the session library — is opened
// before the request goes out, and a bad path fails with nothing sent.

// Target is the -o file, opened before connecting. An existing file is
// only truncated once a response arrived (a failed connection leaves it as
// it was); a file created for nothing is removed.
type Target struct {
	path    string
	F       *os.File
	created bool
}

// OpenTarget opens (or creates, 0600) the file a recording goes to,
// without truncating it yet.
func OpenTarget(path string) (*Target, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	created := err == nil
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_WRONLY, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("recording to %s: %w", sessions.Clean(path), unwrapPath(err))
	}
	return &Target{path: path, F: f, created: created}, nil
}

// Start empties an existing regular file and makes it private (captures
// can hold private data); a device or a pipe is written as it is.
func (t *Target) Start() error {
	fi, err := t.F.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if err := t.F.Truncate(0); err != nil {
		return fmt.Errorf("recording to %s: %w", sessions.Clean(t.path), unwrapPath(err))
	}
	if fi.Mode().Perm() != 0o600 {
		t.F.Chmod(0o600)
	}
	return nil
}

// Abandon closes the file of a session that never started, removing it if
// it was created for the session.
func (t *Target) Abandon() {
	t.F.Close()
	if t.created {
		os.Remove(t.path)
	}
}

// Error is a recording that lost data: the capture (the -o file or
// the library's copy) is incomplete. The stream itself was read and
// checked to its end.
type Error struct {
	What   string // "recording to turn.jsonl", "session library"
	Chunks int    // chunks written before the failure
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: writing the capture failed after %s: %s (the capture is incomplete)", e.What, invariants.Plural(e.Chunks, "chunk"), sessions.Clean(unwrapPath(e.Err).Error()))
}

func (e *Error) Unwrap() error { return e.Err }

// Failure is the Error of a recording (nil when every write and the
// close succeeded; rec not a Recorder: nil).
func Failure(what string, rec sessions.Capture, closeErr error) error {
	r, _ := rec.(*Recorder)
	if r == nil {
		return nil
	}
	err := r.Err()
	if err == nil {
		err = closeErr
	}
	if err == nil {
		return nil
	}
	r.mu.Lock()
	n := r.chunks
	r.mu.Unlock()
	return &Error{What: what, Chunks: n, Err: err}
}

// File creates (or truncates) the file a recording goes to, readable
// and writable by its owner only: captures can hold private data.
func File(path string) (io.WriteCloser, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("recording to %s: %w", sessions.Clean(path), unwrapPath(err))
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() != 0o600 {
		f.Chmod(0o600) // an existing file keeps its mode otherwise
	}
	return f, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
