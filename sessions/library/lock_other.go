//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package library

import "os"

// Without flock(2) a recording is not locked; the recent-mtime grace is
// the only thing that spares it from prune and the size cap.
func lockRecording(*os.File) {}

func recordingLocked(string) bool { return false }

// openRegular opens path for reading only if it is a regular file (the
// name was already checked with Lstat; this re-checks the opened file).
func openRegular(path string) (*os.File, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errNotRegular
		}
		return nil, err
	}
	return f, nil
}
