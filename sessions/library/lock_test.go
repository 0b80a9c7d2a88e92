//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package library

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test (instead of hanging it) when f has not
// returned after d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v (blocked on a FIFO?)", what, d)
	}
}

// Issue 24 item 11: a FIFO named like a session file (capture or
// metadata) is skipped, never opened: listing, @last and prune return
// promptly and list only the real sessions.
func TestFIFOInLibraryIsSkipped(t *testing.T) {
	l := &Library{Dir: t.TempDir()}
	now := time.Now()
	old := CreateSession(t, l, now.Add(-3*time.Hour), "x\n", &SessionMeta{StartedAt: now.Add(-3 * time.Hour), End: "eof"})
	newest := CreateSession(t, l, now.Add(-time.Hour), "x\n", &SessionMeta{StartedAt: now.Add(-time.Hour), End: "eof"})
	// Newer than both by their IDs: were they listed, @last would be one.
	for _, name := range []string{"20990101-000000-ffff.jsonl", "20990101-000001-eeee.json", "20990101-000002-dddd.jsonl", "20990101-000002-dddd.json"} {
		if err := syscall.Mkfifo(filepath.Join(l.Dir, name), 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	// A symbolic link is no session file either.
	if err := os.Symlink(filepath.Join(l.Dir, "20990101-000000-ffff.jsonl"), filepath.Join(l.Dir, "20990101-000003-cccc.jsonl")); err != nil {
		t.Fatal(err)
	}
	const limit = 10 * time.Second
	within(t, limit, "List", func() {
		list, err := l.List()
		if err != nil {
			t.Error(err)
			return
		}
		var ids []string
		for _, m := range list {
			ids = append(ids, m.ID)
		}
		if got, want := strings.Join(ids, " "), newest+" "+old; got != want {
			t.Errorf("List = %s, want %s", got, want)
		}
	})
	within(t, limit, "Resolve @last", func() {
		p, err := l.Resolve("@last")
		if err != nil || p != l.capturePath(newest) {
			t.Errorf("Resolve(@last) = %q, %v; want %s", p, err, l.capturePath(newest))
		}
	})
	within(t, limit, "Prune", func() {
		res, err := l.Prune(PruneOptions{Keep: 1})
		if err != nil {
			t.Error(err)
			return
		}
		if len(res.Removed) != 1 || res.Removed[0].Meta.ID != old || res.Left != 1 {
			t.Errorf("Prune(keep 1) = %+v; want %s removed, 1 left", res, old)
		}
	})
	for _, name := range []string{"20990101-000000-ffff.jsonl", "20990101-000001-eeee.json"} {
		if info, err := os.Lstat(filepath.Join(l.Dir, name)); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: %v, %v; want the FIFO left alone", name, info, err)
		}
	}
}

// Issue 24 item 6: a recording quiet for longer than the grace (its
// capture's mtime 10 minutes back) is never removed by prune or the size
// cap while its recorder holds the capture open; once it is closed,
// prune may remove it.
func TestLockedRecordingSurvivesPrune(t *testing.T) {
	l := &Library{Dir: t.TempDir()}
	now := time.Now()
	finished := CreateSession(t, l, now.Add(-2*time.Hour), strings.Repeat("x", 100), &SessionMeta{StartedAt: now.Add(-2 * time.Hour), End: "eof"})
	started := now.Add(-time.Hour)
	id, f, err := l.Create(started) // as live.RunLive does
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Repeat("y", 1000)); err != nil {
		t.Fatal(err)
	}
	quiet := now.Add(-10 * time.Minute)
	if err := os.Chtimes(l.capturePath(id), quiet, quiet); err != nil {
		t.Fatal(err)
	}
	t.Setenv(LibraryMaxEnv, "1")
	prunes := []struct {
		name string
		run  func() (PruneResult, error)
	}{
		{"keep 0", func() (PruneResult, error) { return l.Prune(PruneOptions{Keep: 0}) }},
		{"older-than 1m", func() (PruneResult, error) { return l.Prune(PruneOptions{Keep: -1, OlderThan: time.Minute}) }},
		{"max 1 byte", func() (PruneResult, error) { return l.Prune(PruneOptions{Keep: -1, MaxBytes: 1}) }},
		{"size cap", func() (PruneResult, error) { return l.EnforceCap(finished) }},
	}
	for _, p := range prunes {
		res, err := p.run()
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		for _, r := range res.Removed {
			if r.Meta.ID == id {
				t.Errorf("%s removed the session being recorded", p.name)
			}
		}
		if _, err := os.Lstat(l.capturePath(id)); err != nil {
			t.Fatalf("%s: the recording's capture is gone: %v", p.name, err)
		}
	}
	if err := l.Remove(id); err == nil || !strings.Contains(err.Error(), "still being recorded") {
		t.Errorf("sessions rm of the session being recorded: %v, want a refusal", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(l.capturePath(id), quiet, quiet); err != nil {
		t.Fatal(err)
	}
	res, err := l.Prune(PruneOptions{Keep: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 1 || res.Removed[0].Meta.ID != id {
		t.Errorf("Prune(keep 0) after the recorder closed = %+v; want %s removed", res, id)
	}
}
