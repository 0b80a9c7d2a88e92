package proxy

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCADirOthersMayWrite (item 16): a CA directory its group or others
// may write to is refused, saying how to fix it; it was used as it was.
func TestCADirOthersMayWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix modes")
	}
	for _, mode := range []os.FileMode{0o777, 0o775, 0o722} {
		dir := filepath.Join(t.TempDir(), "ca")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, mode)
		_, _, err := LoadOrCreateCA(dir)
		if err == nil || !strings.Contains(err.Error(), "writable by others") || !strings.Contains(err.Error(), "chmod go-w "+dir) {
			t.Errorf("mode %04o: %v, want a refusal naming chmod", mode, err)
		}
		if _, serr := os.Stat(filepath.Join(dir, CAKeyFile)); serr == nil {
			t.Errorf("mode %04o: a key was written into the refused directory", mode)
		}
		os.Chmod(dir, 0o700)
		if _, _, err := LoadOrCreateCA(dir); err != nil {
			t.Errorf("after chmod 700: %v", err)
		}
	}
}

// TestCATempNotThroughLink (item 16): a link planted at the certificate's
// old temp name is not written through (its target was overwritten).
func TestCATempNotThroughLink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ca")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, CACertFile+".tmp")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateCA(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the link's target was overwritten: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, CACertFile)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the certificate: %v %v", fi, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}
