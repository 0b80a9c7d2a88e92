package library

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"7d", 7 * 24 * time.Hour, ""},
		{"7", 7 * 24 * time.Hour, ""},
		{"24h", 24 * time.Hour, ""},
		{"90m", 90 * time.Minute, ""},
		{"1d12h", 36 * time.Hour, ""},
		{"1.5h", 90 * time.Minute, ""},
		{" 2D ", 48 * time.Hour, ""},
		{"", 0, "want an age"},
		{"7w", 0, "want an age"},
		{"h", 0, "want an age"},
		{"0d", 0, "more than zero"},
		{"-3d", 0, "want an age"},
		{"999999d", 0, "hundred years"},
	}
	for _, tt := range tests {
		got, err := ParseAge(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseAge(%q) = %v, %v; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// The cap removes the oldest first, never the protected session nor one
// that may still be recording.
func TestPruneCapProtects(t *testing.T) {
	l := &Library{Dir: t.TempDir()}
	now := time.Now()
	var ids []string
	for i := range 4 {
		started := now.Add(-time.Duration(10-i) * time.Hour)
		id, f, err := l.Create(started)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(strings.Repeat("x", 1000))
		f.Close()
		if i != 1 { // session 1 has no metadata and was just written: recording
			if err := l.Finish(SessionMeta{ID: id, StartedAt: started, End: "eof"}); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, id)
	}
	res, err := l.Prune(PruneOptions{Keep: -1, MaxBytes: 1, Protect: ids[0]})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 2 || res.Removed[0].Meta.ID != ids[2] || res.Removed[1].Meta.ID != ids[3] || res.Freed < 2000 || res.Left != 2 {
		t.Fatalf("removed %+v, left %d", res.Removed, res.Left)
	}
	for _, id := range ids[:2] {
		if _, err := os.Stat(l.capturePath(id)); err != nil {
			t.Errorf("%s was removed: %v", id, err)
		}
	}
	// Dry: nothing goes. No criterion: refused.
	if res, _ := l.Prune(PruneOptions{Keep: 0, DryRun: true}); len(res.Removed) != 1 || res.Removed[0].Meta.ID != ids[0] {
		t.Errorf("dry run: %+v", res.Removed)
	}
	if _, err := os.Stat(l.capturePath(ids[0])); err != nil {
		t.Errorf("dry run removed: %v", err)
	}
	if _, err := l.Prune(PruneOptions{Keep: -1}); err == nil {
		t.Error("a prune with no criterion ran")
	}
}

func TestLibraryMax(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want int64
		err  bool
	}{{"", DefaultLibraryMax, false}, {"0", 0, false}, {"2MB", 2e6, false}, {"1GiB", 1 << 30, false}, {"lots", 0, true}} {
		got, err := LibraryMax(func(string) string { return tt.env })
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("%q: %d, %v", tt.env, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), LibraryMaxEnv) {
			t.Errorf("%q: error does not name the variable: %v", tt.env, err)
		}
	}
}
