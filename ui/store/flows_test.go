package store

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// TestFlowStreamOpenedLate: a stream's rows are kept from its first item
// while no screen shows it; a screen that attaches mid-stream gets the
// rest as batches, and ends with the same rows and alarms as the
// inspector reading the whole capture.
func TestFlowStreamOpenedLate(t *testing.T) {
	path := filepath.Join(examples, "example-broken.sse")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := storeOf(t, openSource(t, path))

	meta := sessions.Meta{Name: "http://up/api/chat", Kind: sessions.KindSSE, URL: "http://up/api/chat?api_key=SECRET",
		Method: "POST", HTTP: true, Status: 200, ContentType: "text/event-stream",
		RequestHeaders: map[string]string{"Authorization": "Bearer SECRET"}}
	fs, h := NewFlowStream(meta, time.Millisecond)
	pr, pw := io.Pipe()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		c, err := capture.OpenReader("flow", pr, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Error(err)
			return
		}
		pipeline.Run(c, invariants.Options{}, h)
	}()
	half := len(data) / 2
	rest := make(chan struct{})
	go func() {
		pw.Write(data[:half])
		<-rest
		pw.Write(data[half:])
		pw.Close()
	}()
	// Detached: the feeder applies the batches itself.
	waitFor(t, func() bool {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		return fs.st.Len() > 0
	})

	woke := make(chan struct{}, 1)
	st := fs.Attach(func() {
		select {
		case woke <- struct{}{}:
		default:
		}
	})
	before := st.Len()
	close(rest)
	<-ran
	fs.End("", time.Second)
	for st.End == nil {
		select {
		case <-woke:
		case <-time.After(10 * time.Second):
			t.Fatal("no batch after the attach")
		}
		for _, b := range fs.Take() {
			st.Apply(b)
		}
	}
	if before == 0 || before >= want.Len() {
		t.Errorf("rows before the attach %d of %d: want some, not all", before, want.Len())
	}
	if st.Len() != want.Len() || st.Counts != want.Counts || st.Frames != want.Frames {
		t.Errorf("rows %d frames %d alarms %+v, want %d %d %+v", st.Len(), st.Frames, st.Counts, want.Len(), want.Frames, want.Counts)
	}
	if st.End.Kind != "eof" {
		t.Errorf("end %+v", st.End)
	}
	r := st.Response
	if r == nil || r.Status != 200 || r.RequestHeaders["Authorization"] == "Bearer SECRET" || r.URL == meta.URL {
		t.Errorf("response %+v: want the status, secrets redacted", r)
	}
}

// TestFlowStreamDetachKeepsOrder: batches a screen had not taken when it
// let go are applied, in order, before the ones after.
func TestFlowStreamDetachKeepsOrder(t *testing.T) {
	fs := &FlowStream{st: NewStore()}
	fs.Attach(func() {})
	fs.receive(&Batch{Rows: []Ingest{{Row: Row{Kind: RowNote, Summary: "one"}}}})
	fs.receive(&Batch{Rows: []Ingest{{Row: Row{Kind: RowNote, Summary: "two"}}}})
	if fs.st.Len() != 0 {
		t.Fatal("attached: the feeder must not touch the store")
	}
	fs.Detach()
	fs.receive(&Batch{Rows: []Ingest{{Row: Row{Kind: RowNote, Summary: "three"}}}})
	if fs.st.Len() != 3 || fs.st.Summary(0) != "one" || fs.st.Summary(2) != "three" {
		t.Errorf("rows %d: %q %q", fs.st.Len(), fs.st.Summary(0), fs.st.Summary(2))
	}
}

// TestFlowStreamsKeepBound: past KeepEnded ended streams the oldest is
// dropped, never the one a screen shows nor an open one.
func TestFlowStreamsKeepBound(t *testing.T) {
	s := NewFlowStreams(2, time.Millisecond)
	for id := int64(1); id <= 4; id++ {
		s.Start(id, sessions.Meta{HTTP: true, Status: 200})
	}
	s.Pin(1)
	s.Ended(1, "", 0)
	s.Ended(2, "", 0)
	s.Ended(3, "cancelled", 0)
	s.Ended(3, "cancelled", 0) // twice: counted once
	for id, kept := range map[int64]bool{1: true, 2: false, 3: true, 4: true} {
		if _, ok := s.Get(id); ok != kept {
			t.Errorf("flow %d kept %v, want %v", id, ok, kept)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}
