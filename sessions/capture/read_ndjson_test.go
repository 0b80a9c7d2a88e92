package capture

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

func TestNDJSONFrames(t *testing.T) {
	c := mustOpen(t, "../testdata/frames.ndjson", OpenOptions{})
	m := c.Meta()
	if m.Kind != sessions.KindNDJSON || !m.Synthetic || m.Timed || m.HTTP {
		t.Errorf("meta %+v", m)
	}
	d := sessiontest.Drain(t, c)
	lines := readLines(t, "../testdata/frames.ndjson")
	if len(d.Chunks) != len(lines) || len(d.Probs) != 0 {
		t.Fatalf("%d chunks for %d lines; problems %v", len(d.Chunks), len(lines), d.Probs)
	}
	for i, ch := range d.Chunks {
		want := "data: " + lines[i] + "\n\n"
		if lines[i] == "[DONE]" {
			want = "data: [DONE]\n\n"
		}
		if string(ch.Data) != want || ch.Line != i+1 || ch.HasTime {
			t.Errorf("chunk %d: %q line %d", i, ch.Data, ch.Line)
		}
	}
	if d.End.Kind != invariants.EndEOF {
		t.Errorf("end %+v", d.End)
	}
}

// `framescope dump --format ndjson` records rebuild the original SSE bytes.
func TestNDJSONDumpRecords(t *testing.T) {
	c := mustOpen(t, "../testdata/dump.ndjson", OpenOptions{})
	if !c.Meta().Timed || !c.Meta().Synthetic {
		t.Errorf("meta %+v", c.Meta())
	}
	d := sessiontest.Drain(t, c)
	if !bytes.Equal(d.Data, sessiontest.ReadFile(t, "../testdata/happy.sse")) {
		t.Errorf("rebuilt bytes differ:\n%s", d.Data)
	}
	if len(d.Probs) != 0 {
		t.Errorf("problems %v", d.Probs)
	}
	if ch := d.Chunks[2]; !ch.HasTime || ch.T != 20*time.Millisecond {
		t.Errorf("chunk 2 time %+v", ch)
	}
}

func TestNDJSONLines(t *testing.T) {
	cases := []struct {
		name, line, want, prob string
	}{
		{"done", "[DONE]", "data: [DONE]\n\n", ""},
		{"sse done", "data: [DONE]", "data: [DONE]\n\n", ""},
		{"frame", `{"event_type":"text","chunk":"hi"}`, "data: {\"event_type\":\"text\",\"chunk\":\"hi\"}\n\n", ""},
		{"frame spaces", "  {\"event_type\":\"text\"}\t", "data: {\"event_type\":\"text\"}\n\n", ""},
		{"frame with CR whitespace", "{\"a\":1,\r\"b\":2}", "data: {\"a\":1,\ndata: \"b\":2}\n\n", ""},
		{"dump multi-line data", `{"index":3,"event":"text","data":"a\nb\r\nc"}`, "event: text\ndata: a\ndata: b\ndata: c\n\n", ""},
		{"dump empty data", `{"index":3,"data":""}`, "data: \n\n", ""},
		{"dump null event", `{"index":3,"event":null,"data":"x"}`, "data: x\n\n", ""},
		{"dump event with newline", `{"index":3,"event":"a\nb","data":"x"}`, "event: a b\ndata: x\n\n", "line break"},
		{"dump event not string", `{"index":3,"event":7,"data":"x"}`, "event: 7\ndata: x\n\n", `"event" is not a string`},
		{"index but data not string", `{"index":3,"data":{"k":1}}`, "data: {\"index\":3,\"data\":{\"k\":1}}\n\n", ""},
		{"not json", `{"event_type":"text","chunk":"cut`, "data: {\"event_type\":\"text\",\"chunk\":\"cut\n\n", "invalid JSON"},
		{"plain text", "hello there", "data: hello there\n\n", "invalid JSON"},
		{"json array", "[1,2]", "data: [1,2]\n\n", "not a JSON object"},
		{"json null", "null", "data: null\n\n", "not a JSON object"},
		{"negative t", `{"event_type":"x","t":-2}`, "data: {\"event_type\":\"x\",\"t\":-2}\n\n", `"t": "t" is negative`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first := `{"event_type":"response_id","version":"0.5"}`
			in := first + "\n\n" + tc.line + "\n" + `{"event_type":"completed"}` + "\n"
			c, err := openString(t, in, OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			d := sessiontest.Drain(t, c)
			if len(d.Chunks) != 3 {
				t.Fatalf("%d chunks: %q", len(d.Chunks), d.Data)
			}
			if got := string(d.Chunks[1].Data); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if d.Chunks[1].Line != 3 || d.Chunks[2].Line != 4 {
				t.Errorf("lines %d %d", d.Chunks[1].Line, d.Chunks[2].Line)
			}
			if tc.prob == "" {
				if len(d.Probs) != 0 {
					t.Errorf("problems %v", d.Probs)
				}
			} else if len(d.Probs) != 1 || d.Probs[0].Line != 3 || !strings.Contains(d.Probs[0].Message, tc.prob) {
				t.Errorf("problems %v, want line 3 %q", d.Probs, tc.prob)
			}
		})
	}
}

func TestNDJSONTimes(t *testing.T) {
	in := `{"index":0,"data":"a","t":0.5}` + "\n" + `{"index":1,"data":"b","t":0.25}` + "\n" + `{"index":2,"data":"c","arrival":1}` + "\n" + `{"index":3,"data":"d"}` + "\n"
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Meta().Timed {
		t.Error("not timed")
	}
	d := sessiontest.Drain(t, c)
	want := []struct {
		has bool
		t   time.Duration
	}{{true, 500 * time.Millisecond}, {false, 0}, {true, time.Second}, {false, 0}}
	for i, w := range want {
		if d.Chunks[i].HasTime != w.has || d.Chunks[i].T != w.t {
			t.Errorf("chunk %d: %+v", i, d.Chunks[i])
		}
	}
	if len(d.Probs) != 1 || d.Probs[0].Line != 2 || !strings.Contains(d.Probs[0].Message, "goes back in time") {
		t.Errorf("problems %v", d.Probs)
	}
}

func TestNDJSONLongLine(t *testing.T) {
	big := strings.Repeat("z", 3<<20)
	in := `{"event_type":"text","chunk":"` + big + `"}` + "\r\n" + "[DONE]"
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := sessiontest.Drain(t, c)
	if len(d.Chunks) != 2 || len(d.Chunks[0].Data) != len(big)+len(`data: {"event_type":"text","chunk":""}`)+2 {
		t.Fatalf("%d chunks", len(d.Chunks))
	}
	if string(d.Chunks[1].Data) != "data: [DONE]\n\n" {
		t.Errorf("%q", d.Chunks[1].Data)
	}
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}
