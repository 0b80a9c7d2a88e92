package reference

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Writing the conformance kit safely (docs/security.md, "The conformance
// kit export (item 8)"). DIR is often a shared or freshly cloned folder, so:
//
//   - DIR, and every component of DIR as given, must not be a symbolic link;
//   - DIR must be empty or absent, unless --force;
//   - every file is created with O_CREATE|O_EXCL through an os.Root opened
//     on DIR, so no write follows a link or leaves DIR;
//   - with --force, only a regular file the kit itself writes is removed
//     and created afresh; a link or a directory in its place is refused;
//   - all of this is checked before the first byte is written, so a
//     refusal writes nothing.

// kitFile is one file of the kit: its slash path under DIR and its bytes.
type kitFile struct {
	rel  string
	data []byte
}

// checkKitDir refuses a DIR that is (or passes through) a symbolic link or
// is not a directory, and a non-empty DIR unless force.
func checkKitDir(dir string, force bool) error {
	if dir == "" {
		return errors.New("no directory given")
	}
	if err := noLinkComponents(dir); err != nil {
		return err
	}
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // created by writeKit
	}
	if err != nil {
		return err
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if len(names) > 0 && !force {
		return fmt.Errorf("%s is not empty (it holds %s); give an empty or new directory, or --force to replace the kit's own files in it", dir, names[0])
	}
	return nil
}

// noLinkComponents walks dir as given, component by component, and refuses
// a symbolic link or a non-directory among those that exist.
func noLinkComponents(dir string) error {
	clean := filepath.Clean(dir)
	vol := filepath.VolumeName(clean)
	rest := clean[len(vol):]
	cur := vol
	if strings.HasPrefix(rest, string(filepath.Separator)) {
		cur += string(filepath.Separator)
		rest = rest[1:]
	}
	for _, part := range strings.Split(rest, string(filepath.Separator)) {
		if part == "" || part == "." {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // the rest is created
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if cur == clean {
				return fmt.Errorf("%s is a symbolic link; the kit is never written through a link (give the directory it points to)", cur)
			}
			return fmt.Errorf("%s (in %s) is a symbolic link; the kit is never written through a link (give the real path)", cur, dir)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", cur)
		}
	}
	return nil
}

// writeKit writes files into dir: first every target is checked (no link,
// no directory, no existing file unless force, no file twice), then each
// is created exclusively.
func writeKit(dir string, files []kitFile, force bool) error {
	if err := checkKitDir(dir, force); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Again: a link planted while the cases were computed is refused too.
	if err := noLinkComponents(dir); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	name := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	seen := map[string]bool{}
	var dirs []string
	for _, f := range files {
		if seen[f.rel] {
			return fmt.Errorf("%s: the kit would write it twice", name(f.rel))
		}
		seen[f.rel] = true
		for d := path.Dir(f.rel); d != "."; d = path.Dir(d) {
			if !seen[d+"/"] {
				seen[d+"/"] = true
				dirs = append(dirs, d)
			}
		}
	}
	// Parents before children: sort by depth.
	for i := 1; i < len(dirs); i++ {
		for j := i; j > 0 && strings.Count(dirs[j], "/") < strings.Count(dirs[j-1], "/"); j-- {
			dirs[j], dirs[j-1] = dirs[j-1], dirs[j]
		}
	}
	for _, d := range dirs {
		fi, err := root.Lstat(filepath.FromSlash(d))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; the kit is never written through a link", name(d))
		case !fi.IsDir():
			return fmt.Errorf("%s is in the way of a directory the kit writes", name(d))
		}
	}
	for _, f := range files {
		if err := checkKitTarget(root, f.rel, name(f.rel), force); err != nil {
			return err
		}
	}
	for _, d := range dirs {
		if err := root.Mkdir(filepath.FromSlash(d), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	for _, f := range files {
		if err := createExclusive(root, f.rel, name(f.rel), f.data, force); err != nil {
			return err
		}
	}
	return nil
}

// checkKitTarget refuses a target that is a link, a directory or anything
// but a regular file, and an existing regular file unless force.
func checkKitTarget(root *os.Root, rel, shown string, force bool) error {
	fi, err := root.Lstat(filepath.FromSlash(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; the kit is never written through a link (remove it)", shown)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory where the kit writes a file", shown)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s); the kit does not replace it", shown, fi.Mode().Type())
	case !force:
		return fmt.Errorf("%s already exists (--force replaces the kit's own files)", shown)
	}
	return nil
}

// createExclusive writes data to rel under root with O_CREATE|O_EXCL, so
// it never follows a link nor truncates a file it did not create. With
// force an existing regular file (only) is removed first.
func createExclusive(root *os.Root, rel, shown string, data []byte, force bool) error {
	if err := checkKitTarget(root, rel, shown, force); err != nil {
		return err
	}
	p := filepath.FromSlash(rel)
	if force {
		if err := root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	f, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s appeared while the kit was written; not replaced", shown)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", shown, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", shown, err)
	}
	return nil
}
