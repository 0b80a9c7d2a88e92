package library_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/library"
	"framescope/sessions/record"
	"framescope/sessions/report"
)

// TestLibraryEndToEnd records a real capture, checks it through a library
// reference and lists the finished session.
func TestLibraryEndToEnd(t *testing.T) {
	l := library.NewTestLibrary(t)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "happy.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC)
	id := library.CreateSession(t, l, start, string(data), nil)
	path, err := l.Resolve("@last")
	if err != nil {
		t.Fatal(err)
	}
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Check(c, invariants.Options{})
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	meta := library.SessionMeta{ID: id, URL: c.Meta().URL, Method: c.Meta().Method, Source: "record", StartedAt: start, Bytes: int64(len(data)), Status: c.Meta().Status}
	record.Summarize(&meta, rep)
	if err := l.Finish(meta); err != nil {
		t.Fatal(err)
	}
	list, err := l.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	got := list[0]
	if got.Frames != rep.Frames || got.Frames == 0 || len(got.Turns) != len(rep.Turns) || got.End != "eof" || got.URL != "http://127.0.0.1:9090/v1/turn" {
		t.Errorf("finished session: %+v (report: %d frames, %d turns)", got, rep.Frames, len(rep.Turns))
	}
}
