package sessions

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// `framescope dump --format ndjson` output reads back as the same frames.
func TestNDJSONDumpRoundTrip(t *testing.T) {
	src := "\ufeff: hello\nretry: 2500\nid: 7\nevent: text\ndata: {\"event_type\":\"text\",\"chunk\":\"caf\xe9\"}\n\n" +
		"data: line one\ndata:line two\n\n" +
		"event: status\nid:\ndata: {\"event_type\":\"status\"}\n\n" +
		string(readFile(t, "testdata/happy.sse"))
	dumpOf := func(c Capture) string {
		var b bytes.Buffer
		if _, err := Dump(c, &b, true, ""); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	c, err := OpenReader("in", strings.NewReader(src), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first := dumpOf(c)
	c2, err := OpenReader("in", strings.NewReader(first), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c2.Meta().Kind != KindNDJSON {
		t.Fatalf("dump output sniffed as %s", c2.Meta().Kind)
	}
	second := dumpOf(c2)
	strip := regexp.MustCompile(`"offset":\d+,"size":\d+,`)
	if a, b := strip.ReplaceAllString(first, ""), strip.ReplaceAllString(second, ""); a != b {
		t.Errorf("frames differ after a round trip:\n%s\n---\n%s", a, b)
	}
	if n := strings.Count(first, "\n"); n != 12 {
		t.Errorf("%d frames:\n%s", n, first)
	}
}
