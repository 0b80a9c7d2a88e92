package capture

import (
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// TestRawNDJSONSniff: a body of JSON object lines (Ollama's
// application/x-ndjson) is raw NDJSON; framescope's own NDJSON dumps, SSE
// and JSONL captures keep their kinds, and text that is none stays
// unrecognised.
func TestRawNDJSONSniff(t *testing.T) {
	chat := `{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi"},"done":false}`
	for name, tc := range map[string]struct {
		in   string
		want sessions.Kind
	}{
		"ollama chat":           {chat + "\n" + chat + "\n", sessions.KindRawNDJSON},
		"one object":            {`{"foo":1}` + "\n", sessions.KindRawNDJSON},
		"crlf and bom":          {"\ufeff" + chat + "\r\n" + chat + "\r\n", sessions.KindRawNDJSON},
		"broken first line":     {`{"model":"m",` + "\n" + chat + "\n", sessions.KindRawNDJSON},
		"blank lines first":     {"\n\n" + chat, sessions.KindRawNDJSON},
		"dump record":           {`{"index":0,"data":"{}"}` + "\n", sessions.KindNDJSON},
		"pc3 frame object":      {`{"event_type":"text","version":"0.5"}` + "\n", sessions.KindNDJSON},
		"sse after a json line": {chat + "\ndata: {}\n\n", sessions.KindSSE},
	} {
		c, err := openString(t, tc.in, OpenOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if c.Meta().Kind != tc.want {
			t.Errorf("%s: kind %s, want %s", name, c.Meta().Kind, tc.want)
		}
	}
	// (A value printed over several lines is a JSON sequence: read_json_seq_test.go.)
	for _, in := range []string{"hello\n{\"a\":1}\n", "[1,2]\n"} {
		if c, err := openString(t, in, OpenOptions{}); err == nil {
			t.Errorf("%q: opened as %s, want not recognised", in, c.Meta().Kind)
		}
	}
}

// TestRawNDJSONFrames: each line is one SSE event with its line number;
// blank lines are skipped, a line that is not JSON or not UTF-8 is handed
// on, the last line needs no LF, and the framing is synthetic.
func TestRawNDJSONFrames(t *testing.T) {
	in := `{"a":1}` + "\r\n\n  \n" + "not json\n" + "{\"b\":\"\xff\"}\n" + `{"c":3}`
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Meta(); !m.Synthetic || m.Timed || m.Kind != sessions.KindRawNDJSON {
		t.Errorf("meta %+v", m)
	}
	d := sessiontest.Drain(t, c)
	var got []byte
	for _, ch := range d.Chunks {
		got = append(got, ch.Data...)
	}
	want := "data: {\"a\":1}\n\n" + "data: not json\n\n" + "data: {\"b\":\"\xff\"}\n\n" + "data: {\"c\":3}\n\n"
	if string(got) != want || len(d.Chunks) == 0 || d.Chunks[0].Line != 1 {
		t.Errorf("events %q, want %q", got, want)
	}
	if d.End.Kind != invariants.EndEOF || len(d.Probs) != 0 {
		t.Errorf("end %+v problems %+v", d.End, d.Probs)
	}
}

// TestRawNDJSONLongLine: a line over maxLineSize is dropped and reported
// as lost bytes (capture-corrupt, error); the lines around it are read.
func TestRawNDJSONLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 64 MiB line")
	}
	in := `{"a":1}` + "\n" + `{"x":"` + strings.Repeat("z", maxLineSize) + `"}` + "\n" + `{"b":2}` + "\n"
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := sessiontest.Drain(t, c)
	var got []byte
	for _, ch := range d.Chunks {
		got = append(got, ch.Data...)
	}
	if string(got) != "data: {\"a\":1}\n\n"+"data: {\"b\":2}\n\n" {
		t.Fatalf("events %q", got)
	}
	if len(d.Probs) != 1 || !d.Probs[0].Lost || d.Probs[0].Line != 2 {
		t.Errorf("problems %+v, want one lost-bytes problem on line 2", d.Probs)
	}
}
