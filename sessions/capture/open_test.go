package capture

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

func openString(t testing.TB, s string, opts OpenOptions) (sessions.Capture, error) {
	t.Helper()
	return OpenReader("in", strings.NewReader(s), opts)
}

func mustOpen(t testing.TB, name string, opts OpenOptions) sessions.Capture {
	t.Helper()
	c, err := Open(name, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", name, err)
	}
	return c
}

func TestSniffFiles(t *testing.T) {
	cases := map[string]sessions.Kind{
		"../testdata/happy.sse":          sessions.KindSSE,
		"../testdata/garbage-start.sse":  sessions.KindSSE,
		"../testdata/happy.jsonl":        sessions.KindJSONL,
		"../testdata/truncated.jsonl":    sessions.KindJSONL,
		"../testdata/multi.har":          sessions.KindHAR,
		"../testdata/frames.ndjson":      sessions.KindNDJSON,
		"../testdata/dump.ndjson":        sessions.KindNDJSON,
		"../testdata/defects.jsonl":      sessions.KindJSONL,
		"../testdata/oneline.har.txt":    sessions.KindHAR,
		"../testdata/bom-crlf.sse.jsonl": sessions.KindSSE, // the extension is not looked at
	}
	for name, want := range cases {
		c := mustOpen(t, name, OpenOptions{Entry: -1})
		if got := c.Meta().Kind; got != want {
			t.Errorf("%s: kind %q, want %q", name, got, want)
		}
		if got := c.Meta().Name; got != name {
			t.Errorf("%s: Meta.Name %q", name, got)
		}
		sessiontest.Drain(t, c)
	}
}

func TestSniffContent(t *testing.T) {
	long := strings.Repeat("x", 70<<10)
	cases := []struct {
		name, in string
		want     sessions.Kind
	}{
		{"data line", "data: {}\n\n", sessions.KindSSE},
		{"event line", "event: text\ndata: {}\n\n", sessions.KindSSE},
		{"id alone", "id\ndata: x\n\n", sessions.KindSSE},
		{"retry", "retry: 3000\n\n", sessions.KindSSE},
		{"comment", ": keep-alive\n\n", sessions.KindSSE},
		{"data no newline", "data", sessions.KindSSE},
		{"CR line ends", "event: a\rdata: b\r\r", sessions.KindSSE},
		{"bom and blank lines", "\ufeff\n\r\n\ndata: x\n\n", sessions.KindSSE},
		{"garbage then sse", "ta\": 1}\n\nevent: text\ndata: {}\n\n", sessions.KindSSE},
		{"json garbage then sse", "{\"chunk\":\"half a fr\"}\n\nevent: text\ndata: {}\n\n", sessions.KindSSE},
		{"broken json then sse", "{\"chunk\":\"half\n\ndata: {}\n\n", sessions.KindSSE},
		{"jsonl", `{"framescope_capture":1}` + "\n" + `{"t":0,"end":"eof"}` + "\n", sessions.KindJSONL},
		{"jsonl bom", "\ufeff" + `{"status":200,"framescope_capture":1}` + "\n", sessions.KindJSONL},
		{"jsonl broken header", `{"framescope_capture":1,"url":` + "\n" + `{"t":0,"end":"eof"}` + "\n", sessions.KindJSONL},
		{"ndjson frame", `{"event_type":"text","version":"0.5"}` + "\n", sessions.KindNDJSON},
		{"ndjson dump", `{"index":0,"event":"text","data":"{}"}` + "\n", sessions.KindNDJSON},
		{"ndjson long first line", `{"event_type":"text","chunk":"` + long + `"}` + "\n", sessions.KindNDJSON},
		{"ndjson dump long", `{"index":0,"data":"` + long + `"}` + "\n", sessions.KindNDJSON},
		{"har pretty", "{\n  \"log\": {\n    \"entries\": [\n{\"response\":{\"content\":{\"mimeType\":\"text/event-stream\",\"text\":\"data: 1\\n\\n\"}}}]}}\n", sessions.KindHAR},
		{"har log late", `{"comment":"` + long + `","log":{"entries":[{"response":{"content":{"mimeType":"text/event-stream","text":"data: 1\n\n"}}}]}}`, sessions.KindHAR},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := openString(t, tc.in, OpenOptions{Entry: -1})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			if got := c.Meta().Kind; got != tc.want {
				t.Fatalf("kind %q, want %q", got, tc.want)
			}
			d := sessiontest.Drain(t, c)
			if tc.want == sessions.KindSSE && !bytes.Equal(d.Data, []byte(tc.in)) {
				t.Errorf("raw SSE bytes changed: %q", d.Data)
			}
		})
	}
}

func TestSniffErrors(t *testing.T) {
	const notRec = "in: not a recognised capture (expected raw SSE, framescope JSONL, HAR, NDJSON or JSON values)"
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i*7 + i/13)
	}
	cases := []struct {
		name, in, want string
	}{
		{"html", "<!DOCTYPE html>\n<html><body>data: not at line start</body></html>\n", notRec},
		{"text", "hello world\nthis is not\na capture\n", notRec},
		{"binary", string(bin), notRec},
		{"json array", "[1,2,3]\n", notRec},
		// (A line holding another JSON object is a raw NDJSON body, and a
		// value printed over lines a JSON sequence: read_raw_ndjson_test.go,
		// read_json_seq_test.go.)
		{"pretty broken json", "{\n \"foo\": [1,\n 2\n}\n", notRec},
		{"field-like words", "database: x\nidentity: y\nretrying\n", notRec},
		{"har without entries", `{"log":{"version":"1.2"}}`, "in: HAR without a log.entries array"},
		{"har truncated", "{\n \"log\": {\n  \"entries\": [\n", "in: invalid JSON in HAR: it ends too early (truncated?)"},
		{"har bad json", "{\n \"log\": {\n  \"entries\": [\n  }\n", "in:4: invalid JSON in HAR: invalid character '}'"},
		{"har no sse", `{"log":{"entries":[{"request":{"method":"GET","url":"http://x/"},"response":{"status":200,"content":{"mimeType":"text/html","text":"<p>"}}}]}}`,
			"in: no SSE entry in the HAR (1 entries;"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := openString(t, tc.in, OpenOptions{Entry: -1})
			if err == nil {
				t.Fatalf("no error; kind %q", c.Meta().Kind)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %q, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestOpenFileErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(filepath.Join(dir, "missing.sse"), OpenOptions{})
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.sse: ") {
		t.Errorf("missing file: %v", err)
	}
	_, err = Open(dir, OpenOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), dir+": ") {
		t.Errorf("directory: %v", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	if c, err := Open(empty, OpenOptions{}); err != nil || c.Meta().Kind != sessions.KindSSE {
		t.Errorf("empty: %v (an empty capture is an empty SSE stream)", err)
	} else {
		c.Close()
	}
	odd := filepath.Join(dir, "a\x1b[31mb")
	_, err = Open(odd, OpenOptions{})
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("control characters in a name must be quoted: %q", err)
	}
	_, err = Open("-", OpenOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "-: ") {
		t.Errorf("stdin without a reader: %v", err)
	}
}

func TestReaderErrorDuringSniff(t *testing.T) {
	r := iotest.ErrReader(errors.New("disk on fire"))
	_, err := OpenReader("x.sse", r, OpenOptions{})
	if err == nil || err.Error() != "x.sse: read error: disk on fire" {
		t.Fatalf("got %v", err)
	}
}

// A live pipe: Open must decide on the first line, not wait for 64 KiB or EOF.
func TestStdinPipeDoesNotBlock(t *testing.T) {
	pr, pw := io.Pipe()
	defer pr.Close()
	go pw.Write([]byte("event: text\ndata: {\"event_type\":\"text\"}\n\n"))

	type result struct {
		c   sessions.Capture
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := Open("-", OpenOptions{Stdin: pr, Entry: -1})
		done <- result{c, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		pw.Close()
		t.Fatal("Open blocked on a live pipe")
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	c := res.c
	if c.Meta().Kind != sessions.KindSSE || c.Meta().Name != "-" {
		t.Fatalf("meta %+v", c.Meta())
	}
	ch, err := c.Next()
	if err != nil || !bytes.HasPrefix(ch.Data, []byte("event: text\n")) {
		t.Fatalf("first chunk %q, %v", ch.Data, err)
	}
	go func() {
		pw.Write([]byte("data: [DONE]\n\n"))
		pw.Close()
	}()
	d := sessiontest.Drain(t, c)
	if string(d.Data) != "data: [DONE]\n\n" || d.End.Kind != invariants.EndEOF {
		t.Fatalf("rest %q, end %+v", d.Data, d.End)
	}
}

// The same for a JSONL capture and an NDJSON stream.
func TestStdinPipeLineFormats(t *testing.T) {
	for _, first := range []string{
		`{"framescope_capture":1,"status":200}` + "\n",
		`{"event_type":"text","version":"0.5"}` + "\n",
	} {
		pr, pw := io.Pipe()
		go pw.Write([]byte(first))
		done := make(chan error, 1)
		go func() {
			_, err := Open("-", OpenOptions{Stdin: pr})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Open blocked on a live pipe after %q", first)
		}
		pw.Close()
		pr.Close()
	}
}

// Sniffing through a reader that returns one byte at a time.
func TestSniffOneByteReads(t *testing.T) {
	for name, want := range map[string]sessions.Kind{
		"../testdata/happy.sse":     sessions.KindSSE,
		"../testdata/happy.jsonl":   sessions.KindJSONL,
		"../testdata/multi.har":     sessions.KindHAR,
		"../testdata/frames.ndjson": sessions.KindNDJSON,
	} {
		in := sessiontest.ReadFile(t, name)
		c, err := OpenReader(name, iotest.OneByteReader(bytes.NewReader(in)), OpenOptions{Entry: -1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Meta().Kind != want {
			t.Errorf("%s: kind %q", name, c.Meta().Kind)
		}
		d := sessiontest.Drain(t, c)
		if want == sessions.KindSSE && !bytes.Equal(d.Data, in) {
			t.Errorf("%s: bytes differ", name)
		}
	}
}

func TestProblemCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"framescope_capture":1}` + "\n")
	for i := 0; i < sessions.MaxProblems+50; i++ {
		b.WriteString("not json\n")
	}
	b.WriteString(`{"t":1,"end":"eof"}` + "\n")
	c, err := openString(t, b.String(), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := sessiontest.Drain(t, c)
	if len(d.Probs) != sessions.MaxProblems+1 {
		t.Fatalf("%d problems", len(d.Probs))
	}
	if last := d.Probs[len(d.Probs)-1].Message; !strings.HasPrefix(last, "50 more problems not reported") {
		t.Errorf("last problem %q", last)
	}
	if d.End.Kind != invariants.EndEOF {
		t.Errorf("end %+v", d.End)
	}
}
