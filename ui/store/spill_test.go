package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// TestSpillReadsBackWhatWasWritten: blocks written at their offsets read
// back exactly, from memory and, past spillMemMax, from the file, with
// reads that straddle the two; gaps read as holes.
func TestSpillReadsBackWhatWasWritten(t *testing.T) {
	sp := newSpill()
	want := make([]byte, 0, spillMemMax+spillMemMax/2)
	block := []byte(strings.Repeat("data: 0123456789abcdef\n", 40) + "\n")
	for off := int64(0); len(want) < cap(want)-len(block); {
		if len(want) == 1000*len(block) {
			// A gap (an oversized event's bytes were not kept).
			want = append(want, make([]byte, 100)...)
			off += 100
		}
		sp.write(off, block)
		want = append(want, block...)
		off += int64(len(block))
		block[6]++
	}
	if sp.f == nil {
		t.Fatalf("the spill should have moved to a file past %d bytes", spillMemMax)
	}
	for _, tc := range []struct {
		name    string
		off, n  int64
		wantErr bool
	}{
		{"start", 0, 1000, false},
		{"the gap", int64(1000*len(block)) - 10, 120, false},
		{"straddling file and memory", sp.flushed - 500, 1000, false},
		{"in memory", sp.flushed + 10, 100, false},
		{"the last byte", int64(len(want)) - 1, 1, false},
		{"past the end", int64(len(want)) - 1, 2, true},
	} {
		got := make([]byte, tc.n)
		n, err := sp.ReadAt(got, tc.off)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%s: no error", tc.name)
			}
			continue
		}
		if err != nil || int64(n) != tc.n || !bytes.Equal(got, want[tc.off:tc.off+tc.n]) {
			t.Errorf("%s: %d bytes, err %v, equal %v", tc.name, n, err, bytes.Equal(got[:n], want[tc.off:tc.off+int64(n)]))
		}
	}
	// Out of order bytes are not kept (they would land on others).
	sp.write(0, []byte("xx"))
	got := make([]byte, 2)
	if _, err := sp.ReadAt(got, 0); err != nil || !bytes.Equal(got, want[:2]) {
		t.Errorf("an out-of-order write changed the spill: %q", got)
	}
}

// streamBlocks runs a capture through the pipeline alone and returns every
// block's bytes by offset.
func streamBlocks(t *testing.T, c sessions.Capture) map[int64][]byte {
	t.Helper()
	blocks := map[int64][]byte{}
	_, err := pipeline.Run(c, invariants.Options{}, pipeline.Handler{OnItem: func(it *pipeline.Item) {
		if it.Event.Raw != nil {
			blocks[it.Event.Offset] = bytes.Clone(it.Event.Raw)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// TestRowBytesAreTheStreamBytes: whatever holds them (the capture file,
// the spill of a JSONL capture or of a reader), a row's bytes read back
// are exactly its SSE block, and a frame's data is its data buffer.
func TestRowBytesAreTheStreamBytes(t *testing.T) {
	happySSE := filepath.Join(examples, "example-happy.sse")
	broken := filepath.Join(examples, "example-broken.sse")
	brokenBytes, err := os.ReadFile(broken)
	if err != nil {
		t.Fatal(err)
	}
	open := func(path string) sessions.Capture {
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	for _, tc := range []struct {
		name     string
		src      func() sessions.Capture
		fromFile bool // read back from the capture file (no spill)
	}{
		{"sse file", func() sessions.Capture { return open(broken) }, true},
		{"jsonl", func() sessions.Capture { return open(filepath.Join(examples, "example-happy.jsonl")) }, false},
		{"stdin", func() sessions.Capture {
			c, err := capture.Open("-", capture.OpenOptions{Entry: -1, Stdin: bytes.NewReader(brokenBytes)})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}, false},
		// A reader under the name of another file: that file's bytes must
		// not be shown.
		{"reader named after another file", func() sessions.Capture {
			c, err := capture.OpenReader(happySSE, bytes.NewReader(brokenBytes), capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := streamBlocks(t, tc.src())
			st := storeOf(t, captureSource(tc.name, tc.src(), invariants.Options{}))
			if _, isSpill := st.src.(*spill); isSpill == tc.fromFile {
				t.Errorf("bytes kept in %T", st.src)
			}
			checked := 0
			for i := 0; i < st.Len(); i++ {
				r := st.Row(i)
				raw := st.RowRaw(i)
				if !r.HasRaw {
					if raw != nil {
						t.Errorf("row %d (kind %d) has bytes %q", i, r.Kind, raw)
					}
					continue
				}
				if !bytes.Equal(raw, want[r.Offset]) {
					t.Errorf("row %d at %d: %q, want %q", i, r.Offset, raw, want[r.Offset])
				}
				if r.Kind == RowFrame {
					fr := st.RowFrame(i)
					if !bytes.Equal(st.RowData(i), fr.Data) || fr.Offset != r.Offset {
						t.Errorf("frame row %d: data %q", i, st.RowData(i))
					}
				}
				checked++
			}
			if checked < 5 {
				t.Errorf("only %d rows with bytes", checked)
			}
		})
	}
}

// TestSpillFailureIsSaid: when the spill file cannot be created (here: no
// temp directory), the session says so once in a note, and every frame is
// still listed and checked — only the detail of later frames lacks bytes.
func TestSpillFailureIsSaid(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var b strings.Builder
	b.WriteString(frame("response_id", "r", 0, ""))
	n := 1
	for b.Len() < spillMemMax+(1<<20) {
		b.WriteString(frame("text", "r", n, `,"chunk":"`+strings.Repeat("x", 200)+`"`))
		n++
	}
	st := storeOf(t, readerSource(t, "-", b.String()))
	if st.Frames != n {
		t.Fatalf("%d frames listed, want %d", st.Frames, n)
	}
	notes := 0
	for _, s := range st.Notes {
		if strings.Contains(s, "frame bytes can no longer be kept") {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("%d notes about the spill, want 1: %q", notes, st.Notes)
	}
	if st.RowRaw(st.RowOfFrame(1)) == nil || st.RowRaw(st.RowOfFrame(n-1)) != nil {
		t.Errorf("early frames keep their bytes, late ones cannot")
	}
}
