//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package library

import (
	"errors"
	"os"
	"syscall"
)

// Recording locks (issue 24 item 6): Create takes an exclusive flock(2)
// on the capture it returns, held as long as the recorder keeps the file
// open. The kernel drops it when the file is closed or the process dies,
// so a crashed recorder leaves no stale lock behind. Prune and the size
// cap never remove a session whose capture is locked.

// lockRecording marks f (a capture just created) as being recorded. A
// file system without flock support records unlocked: the recent-mtime
// grace still spares the session.
func lockRecording(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// recordingLocked says whether another open file (in any process) holds
// the recording lock on the capture at path. A path that is not a regular
// file is never opened for long: O_NONBLOCK keeps a FIFO from blocking
// the open.
func recordingLocked(path string) bool {
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN)
}

// openRegular opens path for reading only if it is a regular file: the
// open never blocks (O_NONBLOCK: a FIFO put there does not wait for a
// writer), and anything but a regular file is closed again and refused.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}
