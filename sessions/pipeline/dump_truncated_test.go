package pipeline

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
)

// ruleList runs the check pipeline over c and lists the rules it raised.
func ruleList(t *testing.T, c sessions.Capture) []string {
	t.Helper()
	var rules []string
	add := func(as []invariants.Alarm) {
		for _, a := range as {
			rules = append(rules, a.Rule)
		}
	}
	if _, err := Run(c, invariants.Options{}, Handler{OnItem: func(it *Item) { add(it.Alarms) }, OnAlarms: add}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(rules)
	return rules
}

func ndjsonDump(t *testing.T, c sessions.Capture) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := Dump(c, &b, true, ""); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestNDJSONDumpKeepsTruncatedTail: `dump --format ndjson` used to drop
// the event a stream ended in (no blank line), so `check` on the dump
// lost sse-truncated. Now the tail is a record — its bytes exact, invalid
// UTF-8 included — that the NDJSON reader puts back at the end of the
// stream: the dump checks like the capture, and dumps again the same.
func TestNDJSONDumpKeepsTruncatedTail(t *testing.T) {
	src := string(sessiontest.ReadFile(t, "../testdata/happy.sse")) +
		"event: text\nid: 9\ndata: {\"event_type\":\"text\",\"chunk\":\"caf\xe9 \x1b[31m\u202e"
	c, err := capture.OpenReader("in", strings.NewReader(src), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := ruleList(t, c)
	if !slices.Contains(want, "sse-truncated") {
		t.Fatalf("the capture itself raises %v", want)
	}
	c, _ = capture.OpenReader("in", strings.NewReader(src), capture.OpenOptions{})
	first := ndjsonDump(t, c)
	lines := strings.Split(strings.TrimSuffix(first, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, `{"truncated":true,`) || !strings.Contains(last, `"raw_b64":`) ||
		strings.ContainsAny(last, "\x1b\u202e") {
		t.Fatalf("the dump's last record: %s", last)
	}

	back, err := capture.OpenReader("in", strings.NewReader(first), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Meta().Kind != sessions.KindNDJSON {
		t.Fatalf("the dump sniffed as %s", back.Meta().Kind)
	}
	if got := ruleList(t, back); !slices.Equal(got, want) {
		t.Errorf("check on the dump: %v\nthe capture: %v", got, want)
	}
	back, _ = capture.OpenReader("in", strings.NewReader(first), capture.OpenOptions{})
	second := ndjsonDump(t, back)
	strip := regexp.MustCompile(`"offset":\d+,"size":\d+,`)
	if a, b := strip.ReplaceAllString(first, ""), strip.ReplaceAllString(second, ""); a != b {
		t.Errorf("the dump changed on a round trip:\n%s\n---\n%s", a, b)
	}
}

// TestNDJSONTruncatedRecordAlone: a dump that is only its truncated tail
// is still read as NDJSON; an oversized tail (bytes not kept) still ends
// the stream inside an event; a record after the tail ends it there, with
// a problem naming the line.
func TestNDJSONTruncatedRecordAlone(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"alone", `{"truncated":true,"offset":0,"size":9,"arrival":null,"raw":"data: {\"a"}` + "\n", []string{"sse-truncated"}},
		{"oversized", `{"truncated":true,"offset":0,"size":70000000,"arrival":null,"raw":null,"oversized":true}` + "\n", []string{"sse-truncated"}},
		{"followed", `{"truncated":true,"offset":0,"size":9,"arrival":null,"raw":"data: x"}` + "\n" +
			`{"index":1,"offset":9,"size":9,"arrival":null,"event":null,"id":null,"data":"y"}` + "\n", []string{"capture-corrupt"}},
	} {
		c, err := capture.OpenReader("in", strings.NewReader(tc.in), capture.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Meta().Kind != sessions.KindNDJSON {
			t.Fatalf("%s: sniffed as %s", tc.name, c.Meta().Kind)
		}
		got := ruleList(t, c)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %v, want %s", tc.name, got, w)
			}
		}
		if tc.name == "followed" && slices.Contains(got, "sse-truncated") {
			t.Errorf("%s: the tail was not ended: %v", tc.name, got)
		}
	}
}
