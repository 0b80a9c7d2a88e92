package live

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

// recordTarget is the -o file, opened before connecting. An existing
// file is only truncated once a response arrived (a failed connection
// leaves it as it was); a file created for nothing is removed.
type recordTarget struct {
	path    string
	f       *os.File
	created bool
}

// openRecordTarget opens (or creates, 0600) the file a recording goes to,
// without truncating it yet.
func openRecordTarget(path string) (*recordTarget, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	created := err == nil
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_WRONLY, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("recording to %s: %w", sessions.Clean(path), unwrapPath(err))
	}
	return &recordTarget{path: path, f: f, created: created}, nil
}

// start empties an existing regular file and makes it private (captures
// can hold private data); a device or a pipe is written as it is.
func (t *recordTarget) start() error {
	fi, err := t.f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if err := t.f.Truncate(0); err != nil {
		return fmt.Errorf("recording to %s: %w", sessions.Clean(t.path), unwrapPath(err))
	}
	if fi.Mode().Perm() != 0o600 {
		t.f.Chmod(0o600)
	}
	return nil
}

// abandon closes the file of a session that never started, removing it if
// it was created for the session.
func (t *recordTarget) abandon() {
	t.f.Close()
	if t.created {
		os.Remove(t.path)
	}
}

// RecordError is a recording that lost data: the capture (the -o file or
// the library's copy) is incomplete. The stream itself was read and
// checked to its end.
type RecordError struct {
	What   string // "recording to turn.jsonl", "session library"
	Chunks int    // chunks written before the failure
	Err    error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%s: writing the capture failed after %s: %s (the capture is incomplete)", e.What, invariants.Plural(e.Chunks, "chunk"), sessions.Clean(unwrapPath(e.Err).Error()))
}

func (e *RecordError) Unwrap() error { return e.Err }

// recordFailure is the RecordError of a recording (nil when every write
// and the close succeeded).
func recordFailure(what string, rec sessions.Capture, closeErr error) error {
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
	return &RecordError{What: what, Chunks: n, Err: err}
}

// libraryWriter wraps the library's capture file; tests swap it for a
// writer that fails (a full disk cannot be had on demand).
var libraryWriter = func(f *os.File) io.Writer { return f }
