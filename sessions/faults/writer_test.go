package faults

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// TestWriterBurstTapGzip: burst holds whole frames, the tap sees them
// uncompressed as they are released, every write is flushed, and a clean
// Finish ends the gzip stream (an unclean one leaves it open).
func TestWriterBurstTapGzip(t *testing.T) {
	for _, clean := range []bool{true, false} {
		var resp, tapped bytes.Buffer
		flushes := 0
		f := None()
		f.Burst, f.Gzip = 2, true
		w := NewWriter(&resp, f, Out{Tap: func(p []byte) { tapped.Write(p) }, Flush: func() error { flushes++; return nil }})
		sent := 0
		for _, frame := range []string{"data: 1\n\n", "data: 2\n\n", "data: 3\n\n"} {
			s, err := w.Send([]byte(frame), 1)
			if err != nil {
				t.Fatal(err)
			}
			if s {
				sent++
			}
		}
		if sent != 1 || tapped.String() != "data: 1\n\ndata: 2\n\n" {
			t.Fatalf("before Finish: %d sends, tapped %q", sent, tapped.String())
		}
		if err := w.Finish(clean); err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(&resp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if string(got) != "data: 1\n\ndata: 2\n\ndata: 3\n\n" || (err == nil) != clean {
			t.Errorf("clean %v: decoded %q, %v", clean, got, err)
		}
		if want := map[bool]int{true: 3, false: 2}[clean]; flushes != want {
			t.Errorf("clean %v: %d flushes, want %d", clean, flushes, want)
		}
	}
}
