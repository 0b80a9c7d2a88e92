package cli

import (
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

// expandFolders replaces each folder argument by the captures below it,
// sorted by path, so a report names every file it read. A folder without
// one stays as given: checkOne then says so. Links to folders are not
// followed (no cycles); non-regular files are skipped.
func expandFolders(args []string) []string {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || strings.HasPrefix(a, "@") || err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		_ = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable subfolder: skipped, the rest still read
			}
			if d.Type().IsRegular() && isCaptureName(d.Name()) {
				found = append(found, p)
			}
			return nil
		})
		if len(found) == 0 {
			out = append(out, a)
			continue
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out
}

// emptyFolder is the error for a folder argument that held no capture
// (nil for anything else).
func emptyFolder(name string) error {
	if st, err := os.Stat(name); err != nil || !st.IsDir() || name == "-" {
		return nil
	}
	return fmt.Errorf("%s: a folder with no capture below it (looked for %s, also .gz)", sessions.Clean(name), strings.Join(captureExts, ", "))
}
