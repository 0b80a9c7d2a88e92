package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsCaptureName: inside a folder, the extensions check reads (.json
// too, plain or .gz, any case); notes and screenshots are left alone.
func TestIsCaptureName(t *testing.T) {
	for name, want := range map[string]bool{
		"a.sse": true, "a.jsonl": true, "a.har": true, "a.ndjson": true, "a.jsonlines": true, "a.events": true,
		"a.json": true, "A.JSON": true, "a.json.gz": true, "a.har.gz": true,
		"notes.txt": false, "shot.png": false, "a.json.bak": false, "json": false,
	} {
		if got := isCaptureName(name); got != want {
			t.Errorf("isCaptureName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestExpandFoldersUnreadable: a subfolder that cannot be listed is an
// input of its own with the reason (exit 2 in check), sorted among the
// captures; the rest of the folder is still read. (Root reads a mode-000
// folder, so the error is injected.)
func TestExpandFoldersUnreadable(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.sse", "locked/x.sse", "z.sse"} {
		mustWrite(t, filepath.Join(dir, p), "data: {}\n\n")
	}
	locked := filepath.Join(dir, "locked")
	defer func(f func(string) ([]fs.DirEntry, error)) { readDir = f }(readDir)
	readDir = func(d string) ([]fs.DirEntry, error) {
		if d == locked {
			return nil, &fs.PathError{Op: "open", Path: d, Err: fs.ErrPermission}
		}
		return os.ReadDir(d)
	}
	got := expandFolders([]string{dir})
	if len(got) != 3 || got[0].path != filepath.Join(dir, "a.sse") || got[1].path != locked || got[2].path != filepath.Join(dir, "z.sse") {
		t.Fatalf("inputs %+v", got)
	}
	if got[0].err != nil || got[2].err != nil || got[1].err == nil ||
		!strings.Contains(got[1].err.Error(), "locked: a folder that cannot be read: permission denied") {
		t.Errorf("errors %v / %v / %v", got[0].err, got[1].err, got[2].err)
	}
	// check reads it as unreadable: exit 2, naming the folder.
	var out, errb strings.Builder
	o := &checkOptions{ioStreams: ioStreams{stdout: &out, stderr: &errb}, inputs: []string{dir}, format: "text", failOn: "error", minSev: "info", entry: -1}
	err := checkRun(o)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(errb.String(), "locked: a folder that cannot be read") {
		t.Errorf("checkRun: %v, stderr %q", err, errb.String())
	}
}

// TestExpandFoldersLinks: a link to a capture is read under its own name,
// a dangling one is an input (its open says why), a link to a folder is
// walked once, and a link back up the tree is no loop.
func TestExpandFoldersLinks(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "real/a.sse"), "data: {}\n\n")
	mustWrite(t, filepath.Join(dir, "other/b.sse"), "data: {}\n\n")
	top := filepath.Join(dir, "top")
	for link, target := range map[string]string{
		"top/link.sse":      "../real/a.sse",
		"top/gone.sse":      "../real/nothere.sse",
		"top/gone.txt":      "../real/nothere.txt",
		"top/sub":           "../other",
		"top/sub2":          "../other",
		"top/loop":          ".",
		"top/deeper/up":     "..",
		"top/notes-link.md": "../real/a.sse",
	} {
		p := filepath.Join(dir, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, in := range expandFolders([]string{top}) {
		rel, _ := filepath.Rel(top, in.path)
		got = append(got, rel)
	}
	want := "gone.sse link.sse sub/b.sse"
	if strings.Join(got, " ") != want {
		t.Errorf("inputs %q, want %q", strings.Join(got, " "), want)
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
