package capture

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

func TestHARAutomaticEntry(t *testing.T) {
	c := mustOpen(t, "../testdata/multi.har", OpenOptions{Entry: -1})
	m := c.Meta()
	if m.Kind != sessions.KindHAR || !m.HTTP || m.Timed || m.Synthetic {
		t.Errorf("meta flags %+v", m)
	}
	if m.Method != "POST" || m.URL != "https://app.example.test/api/turn" || m.Status != 200 || m.ContentType != "text/event-stream" || m.HAREntry != 1 {
		t.Errorf("meta %+v", m)
	}
	if want := time.Date(2026, 3, 2, 9, 15, 0, 250e6, time.UTC); !m.StartedAt.Equal(want) {
		t.Errorf("started %v", m.StartedAt)
	}
	if v, ok := sessions.HeaderLookup(m.RequestHeaders, "Accept"); !ok || !strings.Contains(v, "text/event-stream") {
		t.Errorf("request headers %v", m.RequestHeaders)
	}
	d := sessiontest.Drain(t, c)
	if !bytes.Equal(d.Data, sessiontest.ReadFile(t, "../testdata/happy.sse")) || len(d.Chunks) != 1 {
		t.Errorf("body differs (%d chunks)", len(d.Chunks))
	}
	if d.Chunks[0].HasTime {
		t.Error("HAR chunks have no arrival time")
	}
	if len(d.Probs) != 1 || !strings.Contains(d.Probs[0].Message, "3 SSE entries; showing entries[1] (POST https://app.example.test/api/turn); choose another with --entry N") {
		t.Errorf("problems %v", d.Probs)
	}
	if d.End.Kind != invariants.EndEOF {
		t.Errorf("end %+v", d.End)
	}
}

func TestHARChosenEntries(t *testing.T) {
	// Entry 3 (log.entries[3], the HAR's second SSE entry): a failed SSE
	// request (500, HTML body), found by its Accept header.
	c := mustOpen(t, "../testdata/multi.har", OpenOptions{Entry: 3})
	m := c.Meta()
	if m.Status != 500 || m.ContentType != "text/html; charset=utf-8" || !m.HTTP || m.HAREntry != 3 {
		t.Errorf("meta %+v", m)
	}
	d := sessiontest.Drain(t, c)
	if !bytes.HasPrefix(d.Data, []byte("<!DOCTYPE html>")) || len(d.Probs) != 0 {
		t.Errorf("data %q problems %v", d.Data, d.Probs)
	}

	// Entry 4: base64 body, mixed-case mime type.
	c = mustOpen(t, "../testdata/multi.har", OpenOptions{Entry: 4})
	if c.Meta().URL != "https://relay.example.test/api/turn" || c.Meta().HAREntry != 4 {
		t.Errorf("meta %+v", c.Meta())
	}
	d = sessiontest.Drain(t, c)
	if !bytes.Equal(d.Data, sessiontest.ReadFile(t, "../testdata/happy.sse")) || len(d.Probs) != 0 {
		t.Errorf("base64 body differs; problems %v", d.Probs)
	}
	if hc, ok := c.(*harCapture); !ok || len(hc.Entries()) != 3 {
		t.Errorf("Entries on the capture")
	}
}

// TestHAREntryOutOfRange: an entry the HAR does not have, or one that is
// no SSE entry, is an error listing the SSE entries by their place in
// log.entries.
func TestHAREntryOutOfRange(t *testing.T) {
	for entry, head := range map[int]string{
		5:  "../testdata/multi.har: entry 5 is out of range: the HAR has 5 entries (log.entries[0] to [4]), 3 of them SSE:",
		17: "../testdata/multi.har: entry 17 is out of range",
		-2: "../testdata/multi.har: entry -2 is out of range",
		0:  "../testdata/multi.har: entries[0] is not an SSE entry (no text/event-stream response, no Accept: text/event-stream request); the HAR's 3 SSE entries are:",
		2:  "../testdata/multi.har: entries[2] is not an SSE entry",
	} {
		_, err := Open("../testdata/multi.har", OpenOptions{Entry: entry})
		var ee *EntryError
		if !errors.As(err, &ee) {
			t.Fatalf("entry %d: %v", entry, err)
		}
		if len(ee.Entries) != 3 || ee.Entry != entry || ee.Total != 5 {
			t.Errorf("%+v", ee)
		}
		msg := err.Error()
		for _, want := range []string{
			head,
			"\n  entries[1]  POST https://app.example.test/api/turn  200",
			"\n  entries[3]  POST https://app.example.test/api/turn  500",
			"\n  entries[4]  POST https://relay.example.test/api/turn  200",
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("message %q lacks %q", msg, want)
			}
		}
	}
}

func TestHAREntries(t *testing.T) {
	list, err := HAREntries("../testdata/multi.har", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []HAREntry{
		{0, 1, "POST", "https://app.example.test/api/turn", 200},
		{1, 3, "POST", "https://app.example.test/api/turn", 500},
		{2, 4, "POST", "https://relay.example.test/api/turn", 200},
	}
	if len(list) != len(want) {
		t.Fatalf("%v", list)
	}
	for i := range want {
		if list[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, list[i], want[i])
		}
	}
	f, err := os.Open("../testdata/multi.har")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if l, err := HAREntries("-", OpenOptions{Stdin: f}); err != nil || len(l) != 3 {
		t.Errorf("stdin: %v %v", l, err)
	}
	if _, err := HAREntries("../testdata/happy.sse", OpenOptions{}); err == nil || !strings.Contains(err.Error(), "not a HAR file") {
		t.Errorf("not a HAR: %v", err)
	}
}

func harWith(entries string) string {
	return `{"log":{"version":"1.2","entries":[` + entries + `]}}`
}

func TestHARDefects(t *testing.T) {
	sse := `{"startedDateTime":"2026-03-02T09:15:00Z","request":{"method":"GET","url":"http://h/ev","headers":[]},"response":{"status":200,"headers":[{"name":"CONTENT-TYPE","value":"text/event-stream"}],"content":{"mimeType":"text/event-stream"%s}}}`
	cases := []struct {
		name    string
		in      string
		errWant string // error prefix, or
		probs   []string
		data    string
	}{
		{name: "bad base64", in: harWith(strings.Replace(sse, "%s", `,"text":"***","encoding":"base64"`, 1)),
			errWant: "in: entries[0] (GET http://h/ev): response body is not valid base64"},
		{name: "no body", in: harWith(strings.Replace(sse, "%s", ``, 1)),
			probs: []string{"entries[0] (GET http://h/ev) has no response body in the HAR"}},
		{name: "empty body", in: harWith(strings.Replace(sse, "%s", `,"text":""`, 1))},
		{name: "odd encoding", in: harWith(strings.Replace(sse, "%s", `,"text":"data: 1\n\n","encoding":"gzip"`, 1)),
			probs: []string{"unknown content encoding gzip"}, data: "data: 1\n\n"},
		{name: "bad time", in: harWith(strings.Replace(strings.Replace(sse, "%s", `,"text":"data: 1\n\n"`, 1), "2026-03-02T09:15:00Z", "noon", 1)),
			probs: []string{"startedDateTime noon is not an RFC 3339 time"}, data: "data: 1\n\n"},
		{name: "wrong type field", in: harWith(strings.Replace(strings.Replace(sse, "%s", `,"text":"data: 1\n\n"`, 1), `"status":200`, `"status":"200"`, 1)),
			probs: []string{"a field has an unexpected type"}, data: "data: 1\n\n"},
		{name: "odd entries skipped", in: harWith(`3, "x", null, ` + strings.Replace(sse, "%s", `,"text":"data: 2\n\n"`, 1)), data: "data: 2\n\n"},
		{name: "control chars in url", in: harWith(strings.Replace(strings.Replace(sse, "%s", ``, 1), "http://h/ev", `http://h/\u001b[2J`, 1)),
			probs: []string{`"http://h/\x1b[2J"`}},
		{name: "bom", in: "\ufeff" + harWith(strings.Replace(sse, "%s", `,"text":"data: 3\n\n"`, 1)), data: "data: 3\n\n"},
		{name: "entries not array", in: `{"log":{"entries":{}}}`, errWant: "in: HAR without a log.entries array"},
		{name: "accept list", in: harWith(`{"request":{"method":"POST","url":"http://h/a","headers":[{"name":"ACCEPT","value":"application/json;q=0.5, TEXT/EVENT-STREAM"}]},"response":{"status":502,"content":{"mimeType":"text/plain","text":"bad gateway"}}}`),
			data: "bad gateway"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := openString(t, tc.in, OpenOptions{Entry: -1})
			if tc.errWant != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.errWant) {
					t.Fatalf("error %v, want %q", err, tc.errWant)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := sessiontest.Drain(t, c)
			if string(d.Data) != tc.data {
				t.Errorf("data %q", d.Data)
			}
			if len(d.Probs) != len(tc.probs) {
				t.Fatalf("problems %v", d.Probs)
			}
			for i, p := range tc.probs {
				if !strings.Contains(d.Probs[i].Message, p) {
					t.Errorf("problem %q lacks %q", d.Probs[i].Message, p)
				}
				if strings.ContainsRune(d.Probs[i].Message, 0x1b) {
					t.Errorf("raw ESC in %q", d.Probs[i].Message)
				}
			}
		})
	}
}

func TestHAROneLine(t *testing.T) {
	c := mustOpen(t, "../testdata/oneline.har.txt", OpenOptions{Entry: -1})
	d := sessiontest.Drain(t, c)
	if c.Meta().Kind != sessions.KindHAR || !bytes.Equal(d.Data, sessiontest.ReadFile(t, "../testdata/happy.sse")) || len(d.Probs) != 0 {
		t.Errorf("kind %s problems %v", c.Meta().Kind, d.Probs)
	}
}
