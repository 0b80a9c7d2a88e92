package capture

import (
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// events is everything a capture's chunks carry, joined.
func events(t *testing.T, c sessions.Capture) (string, sessiontest.Drained) {
	t.Helper()
	d := sessiontest.Drain(t, c)
	var got []byte
	for _, ch := range d.Chunks {
		got = append(got, ch.Data...)
	}
	return string(got), d
}

// TestJSONSeqSniff: values printed over several lines (`curl -N | jq .`)
// and RS-framed values (RFC 7464) are a JSON sequence; one-line values stay
// raw NDJSON, and text that is neither stays unrecognised.
func TestJSONSeqSniff(t *testing.T) {
	pretty := "{\n  \"model\": \"m\",\n  \"response\": \"Hi\",\n  \"done\": false\n}\n"
	for name, tc := range map[string]struct {
		in   string
		want sessions.Kind
	}{
		"jq output":           {pretty + pretty, sessions.KindJSONSeq},
		"jq output, crlf":     {strings.ReplaceAll(pretty, "\n", "\r\n"), sessions.KindJSONSeq},
		"bom and blank":       {"\ufeff\n\n" + pretty, sessions.KindJSONSeq},
		"an array over lines": {"[\n  1,\n  2\n]\n", sessions.KindJSONSeq},
		"rfc 7464":            {"\x1e{\"a\":1}\n\x1e{\"b\":2}\n", sessions.KindJSONSeq},
		"one-line values":     {"{\"a\":1}\n{\"b\":2}\n", sessions.KindRawNDJSON},
		"inner one-liner":     {"{\n  \"message\": {\"role\": \"assistant\"},\n  \"done\": false\n}\n", sessions.KindJSONSeq},
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
	for _, in := range []string{"{\n \"a\": 1,\n", "{\n \"a\": ,\n}\n", "hello\n{\n}\n"} {
		if c, err := openString(t, in, OpenOptions{}); err == nil {
			t.Errorf("%q: opened as %s, want not recognised", in, c.Meta().Kind)
		}
	}
}

// TestJSONSeqFrames: each value is one SSE event, its text as printed
// (line breaks inside kept as data lines), with the line it starts on;
// brackets and quotes inside strings do not end a value; a value left
// open is handed on broken where the next starts at column 0 or at the
// end; text between values is a frame of its own.
func TestJSONSeqFrames(t *testing.T) {
	in := "{\n  \"a\": \"}{\\\"]\",\n  \"b\": [1, {\"c\": 2}]\n}\n" + // 1–4
		"\x1e{\"d\":1} {\"e\":2}\n" + // 5: two values on a line, RS-framed
		"oops not json\n" + // 6
		"{\n  \"cut\": [1,\n" + // 7–8: never closed
		"{\n  \"f\": 3\n}\n" + // 9–11
		"{\n  \"end\": true" // 12–13: cut by the end
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Meta(); !m.Synthetic || m.Timed || m.Kind != sessions.KindJSONSeq {
		t.Errorf("meta %+v", m)
	}
	got, d := events(t, c)
	want := "data: {\ndata:   \"a\": \"}{\\\"]\",\ndata:   \"b\": [1, {\"c\": 2}]\ndata: }\n\n" +
		"data: {\"d\":1}\n\n" + "data: {\"e\":2}\n\n" +
		"data: oops not json\n\n" +
		"data: {\ndata:   \"cut\": [1,\n\n" +
		"data: {\ndata:   \"f\": 3\ndata: }\n\n" +
		"data: {\ndata:   \"end\": true\n\n"
	if got != want {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
	if len(d.Chunks) == 0 || d.Chunks[0].Line != 1 {
		t.Errorf("first chunk's line: %+v", d.Chunks)
	}
	if d.End.Kind != invariants.EndEOF || len(d.Probs) != 0 {
		t.Errorf("end %+v problems %+v", d.End, d.Probs)
	}
}

// TestJSONSeqLongValue: a value over maxLineSize, spread over lines each
// under it, is dropped and reported as lost bytes at its first line; the
// values around it are read.
func TestJSONSeqLongValue(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 64 MiB value")
	}
	line := "  \"" + strings.Repeat("z", 1<<20) + "\",\n"
	in := "{\n  \"a\": 1\n}\n" + "[\n" + strings.Repeat(line, maxLineSize>>20+1) + "  0\n]\n" + "{\n  \"b\": 2\n}\n"
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, d := events(t, c)
	if got != "data: {\ndata:   \"a\": 1\ndata: }\n\n"+"data: {\ndata:   \"b\": 2\ndata: }\n\n" {
		t.Fatalf("events %q", got[:min(len(got), 300)])
	}
	if len(d.Probs) != 1 || !d.Probs[0].Lost || d.Probs[0].Line != 4 {
		t.Errorf("problems %+v, want one lost-bytes problem on line 4", d.Probs)
	}
}
