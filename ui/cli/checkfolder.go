package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"framescope/sessions"
)

// captureExts are the file names `check FOLDER` reads: the formats
// capture.Open sniffs, plain or gzip-compressed (.json: JSON values, as a
// single .json file named on the command line is read). Inside a folder
// the extension decides (a folder of tickets holds notes and screenshots
// too); a file named on the command line is sniffed whatever its name.
var captureExts = []string{".sse", ".jsonl", ".har", ".ndjson", ".jsonlines", ".json", ".events"}

// isCaptureName reports whether a file name inside a folder is a capture.
func isCaptureName(name string) bool {
	n := strings.ToLower(name)
	n = strings.TrimSuffix(n, ".gz")
	for _, e := range captureExts {
		if strings.HasSuffix(n, e) {
			return true
		}
	}
	return false
}

// folderInput is one input a folder argument expands to: a capture, or a
// subfolder that could not be read (err: reported as an unreadable input).
type folderInput struct {
	path string
	err  error
}

// readDir lists a folder (a variable: a test makes one unreadable, which
// root's tests cannot do with permissions).
var readDir = os.ReadDir

// expandFolders replaces each folder argument by the captures below it,
// sorted by path, so a report names every file it read. A folder without
// one stays as given: checkOne then says so. A link is followed: to a
// capture, it is read under the link's name (a dangling one is an
// unreadable input); to a folder, it is walked once (a folder already
// walked, a loop, is not walked again). A subfolder that cannot be read
// is an unreadable input named in the report, never skipped in silence.
// Other non-regular files (FIFOs, devices) are skipped.
func expandFolders(args []string) []folderInput {
	var out []folderInput
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || strings.HasPrefix(a, "@") || err != nil || !st.IsDir() {
			out = append(out, folderInput{path: a})
			continue
		}
		w := folderWalk{seen: map[string]bool{}}
		w.walk(a)
		if len(w.found) == 0 {
			out = append(out, folderInput{path: a})
			continue
		}
		sort.Slice(w.found, func(i, j int) bool { return w.found[i].path < w.found[j].path })
		out = append(out, w.found...)
	}
	return out
}

// folderWalk collects the captures below one folder argument.
type folderWalk struct {
	found []folderInput
	seen  map[string]bool // the real paths of the folders walked
}

// walk adds the captures below dir (a folder, or a link to one).
func (w *folderWalk) walk(dir string) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		if w.seen[real] {
			return // walked already: a loop, or two links to one folder
		}
		w.seen[real] = true
	}
	entries, err := readDir(dir)
	if err != nil {
		w.found = append(w.found, folderInput{path: dir, err: unreadableFolder(dir, err)})
	}
	for _, d := range entries {
		p := filepath.Join(dir, d.Name())
		switch t := d.Type(); {
		case t.IsDir():
			w.walk(p)
		case t.IsRegular():
			if isCaptureName(d.Name()) {
				w.found = append(w.found, folderInput{path: p})
			}
		case t&fs.ModeSymlink != 0:
			st, err := os.Stat(p)
			switch {
			case err != nil:
				if isCaptureName(d.Name()) {
					w.found = append(w.found, folderInput{path: p}) // dangling: opening it says why
				}
			case st.IsDir():
				w.walk(p)
			case st.Mode().IsRegular() && isCaptureName(d.Name()):
				w.found = append(w.found, folderInput{path: p})
			}
		}
	}
}

// unreadableFolder is the error of a folder below a folder argument that
// could not be listed.
func unreadableFolder(dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: a folder that cannot be read: %v (its captures are not checked)", sessions.Clean(dir), err)
}

// emptyFolder is the error for a folder argument that held no capture
// (nil for anything else).
func emptyFolder(name string) error {
	if st, err := os.Stat(name); err != nil || !st.IsDir() || name == "-" {
		return nil
	}
	return fmt.Errorf("%s: a folder with no capture below it (looked for %s, also .gz)", sessions.Clean(name), strings.Join(captureExts, ", "))
}
