package reference

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCreateExclusive pins the kit's one way of writing a file: created
// with O_EXCL, an existing regular file replaced only with force, a link or
// a directory never written through or replaced (issue 24 item 8).
func TestCreateExclusive(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, dir string) // makes DIR/target
		force   bool
		wantErr string // "" = written
	}{
		{name: "new", setup: func(*testing.T, string) {}},
		{name: "new force", setup: func(*testing.T, string) {}, force: true},
		{name: "existing", setup: regular, wantErr: "already exists (--force replaces"},
		{name: "existing force", setup: regular, force: true},
		{name: "link", setup: link, wantErr: "is a symbolic link"},
		{name: "link force", setup: link, force: true, wantErr: "is a symbolic link"},
		{name: "dangling link force", setup: func(t *testing.T, dir string) {
			if err := os.Symlink(filepath.Join(dir, "..", "nowhere"), filepath.Join(dir, "target")); err != nil {
				t.Fatal(err)
			}
		}, force: true, wantErr: "is a symbolic link"},
		{name: "directory force", setup: func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "target"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, force: true, wantErr: "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			dir := filepath.Join(top, "kit")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(top, "victim")
			if err := os.WriteFile(victim, []byte("victim"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, dir)
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			err = createExclusive(root, "target", "kit/target", []byte("kit"), tc.force)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, "target")); string(b) != "kit" {
					t.Errorf("target holds %q", b)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "kit/target") {
				t.Errorf("error %v, want one naming kit/target with %q", err, tc.wantErr)
			}
			if b, _ := os.ReadFile(victim); string(b) != "victim" {
				t.Errorf("victim written through: %q", b)
			}
			if _, err := os.Stat(filepath.Join(top, "nowhere")); err == nil {
				t.Error("a dangling link was followed")
			}
		})
	}
}

func regular(t *testing.T, dir string) {
	if err := os.WriteFile(filepath.Join(dir, "target"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, dir string) {
	if err := os.Symlink(filepath.Join("..", "victim"), filepath.Join(dir, "target")); err != nil {
		t.Fatal(err)
	}
}

// TestWriteKitRefusesBeforeWriting: a refusal anywhere in the kit writes
// none of it.
func TestWriteKitRefusesBeforeWriting(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	top := t.TempDir()
	dir := filepath.Join(top, "kit")
	if err := os.MkdirAll(filepath.Join(dir, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "victim"), []byte("victim"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "victim"), filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	files := []kitFile{{"cases/g/a.sse", []byte("a")}, {"index.json", []byte("{}")}, {"README.md", []byte("r")}}
	for _, force := range []bool{false, true} {
		if err := writeKit(dir, files, force); err == nil {
			t.Fatalf("force=%v: written", force)
		}
		for _, p := range []string{"cases/g", "index.json"} {
			if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
				t.Errorf("force=%v: %s written before the refusal", force, p)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(top, "victim")); string(b) != "victim" {
		t.Errorf("victim written through: %q", b)
	}
	// A directory link on the way into the kit is refused too.
	if err := os.Remove(filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "cases")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(top, "elsewhere"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "elsewhere"), filepath.Join(dir, "cases")); err != nil {
		t.Fatal(err)
	}
	err := writeKit(dir, files, true)
	if err == nil || !strings.Contains(err.Error(), "cases is a symbolic link") {
		t.Errorf("linked cases/: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(top, "elsewhere")); len(ents) != 0 {
		t.Errorf("written through cases/: %v", ents)
	}
	// Duplicate targets are a bug, not a silent overwrite.
	if err := writeKit(filepath.Join(top, "dup"), []kitFile{{"a", nil}, {"a", nil}}, false); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate: %v", err)
	}
}

// TestNoLinkComponents: every component of DIR as given is checked.
func TestNoLinkComponents(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(top, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{
		{"a/b/new/deeper", ""},
		{"a/./b", ""},
		{"l", "l is a symbolic link"},
		{"l/b/kit", "l (in " + filepath.Join(top, "l/b/kit") + ") is a symbolic link"},
		{"f/kit", "f is not a directory"},
	} {
		err := noLinkComponents(filepath.Join(top, tc.dir))
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.dir, err, tc.want)
		}
	}
}
