package pipeline

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
)

// `framescope dump --format ndjson` output reads back as the same frames.
func TestNDJSONDumpRoundTrip(t *testing.T) {
	src := "\ufeff: hello\nretry: 2500\nid: 7\nevent: text\ndata: {\"event_type\":\"text\",\"chunk\":\"caf\xe9\"}\n\n" +
		"data: line one\ndata:line two\n\n" +
		"event: status\nid:\ndata: {\"event_type\":\"status\"}\n\n" +
		string(sessiontest.ReadFile(t, "../testdata/happy.sse"))
	dumpOf := func(c sessions.Capture) string {
		var b bytes.Buffer
		if _, err := Dump(c, &b, true, ""); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	c, err := capture.OpenReader("in", strings.NewReader(src), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first := dumpOf(c)
	c2, err := capture.OpenReader("in", strings.NewReader(first), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c2.Meta().Kind != sessions.KindNDJSON {
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
