package proxy

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"framescope/sessions"
)

// The CA's directory holds the key that lets whoever has it impersonate
// any site to whoever trusts the CA: one that others may write to is
// refused (they could replace the CA or plant a link), and files are
// written there through a temp file made exclusively (os.CreateTemp:
// O_EXCL, a fresh random name), never through a name someone planted
// (a link at framescope-ca.pem.tmp made `proxy ca` overwrite the link's
// target).

// checkCADir makes dir (0700) when missing, and refuses one that is not
// a directory or that its group or others may write to (Unix modes).
func checkCADir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("certificate authority: %s is not a directory", sessions.Clean(dir))
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("certificate authority: %s is writable by others (mode %04o): anyone who can write there could replace the CA; fix it with: chmod go-w %s",
			sessions.Clean(dir), perm, sessions.Clean(dir))
	}
	return nil
}

// writeExclusive writes data to path through a temp file created
// exclusively in dir and renamed over path.
func writeExclusive(dir, path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
