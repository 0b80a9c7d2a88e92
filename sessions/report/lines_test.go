package report

import (
	"testing"

	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// TestCaptureLines: a raw SSE stream's lines are counted from its line
// endings (LF, CRLF, CR, across chunks); a JSONL capture's chunks name
// their own line; a HAR has none.
func TestCaptureLines(t *testing.T) {
	raw := &sessiontest.FakeCapture{Info: sessions.Meta{Kind: sessions.KindSSE}, Chunks: []sessions.Chunk{
		{Data: []byte("data: a\n\ndata: b\r")}, {Data: []byte("\n\r\ndata: c\r\rdata: d\n\n")},
	}}
	// offsets: "data: a" 0 (line 1), "data: b" 9 (line 3), "data: c" 21 (line 5), "data: d" 30 (line 7)
	got := CaptureLines(raw, []int64{30, 0, 9, 21, 9, 999})
	want := map[int64]int{0: 1, 9: 3, 21: 5, 30: 7}
	if len(got) != len(want) {
		t.Errorf("raw lines %v, want %v", got, want)
	}
	for o, l := range want {
		if got[o] != l {
			t.Errorf("raw offset %d: line %d, want %d", o, got[o], l)
		}
	}
	jl := &sessiontest.FakeCapture{Info: sessions.Meta{Kind: sessions.KindJSONL}, Chunks: []sessions.Chunk{
		{Data: []byte("data: a\n\n"), Line: 2}, {Data: []byte("data: b\n\n"), Line: 3},
	}}
	if got := CaptureLines(jl, []int64{9, 0}); got[0] != 2 || got[9] != 3 {
		t.Errorf("jsonl lines %v", got)
	}
	har := &sessiontest.FakeCapture{Info: sessions.Meta{Kind: sessions.KindHAR}, Chunks: jl.Chunks}
	if got := CaptureLines(har, []int64{0}); got != nil {
		t.Errorf("har lines %v", got)
	}
}
