package pipeline

import (
	"bytes"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// TestRunNonSuccessStatus: the pipeline reads a non-2xx body without
// framing it, whatever the dialect: no item, only the HTTP alarms (and
// damage to the capture file itself), the first ErrorBodyMax bytes handed
// on with whether there was more. A 2xx stream is framed as ever.
func TestRunNonSuccessStatus(t *testing.T) {
	sse := []byte("event: response_id\ndata: {\"type\":\"response_id\",\"data\":{\"response_id\":\"r\"}}\n\ndata: {\"type\":\"te")
	big := bytes.Repeat([]byte("<p>oops</p>\n"), 7000) // 84 KB
	tests := []struct {
		name, dialect string
		status        int
		ct            string
		chunks        [][]byte
		probs         []sessions.Problem
		want          []string // rule names, in order
		body          []byte
		more          bool
	}{
		{"500 html", "", 500, "text/html", [][]byte{[]byte("<h1>down</h1>")}, nil, []string{"http-status", "content-type"}, []byte("<h1>down</h1>"), false},
		{"502 sse-looking, pc3", "pc3", 502, "text/event-stream", [][]byte{sse}, nil, []string{"http-status"}, sse, false},
		{"404 json, openai-chat", "openai-chat", 404, "application/json", [][]byte{[]byte(`{"error":`), []byte(`"nope"}`)}, nil, []string{"http-status", "content-type"}, []byte(`{"error":"nope"}`), false},
		{"big body cut", "", 503, "text/html", [][]byte{big[:40000], big[40000:]}, nil, []string{"http-status", "content-type"}, big[:ErrorBodyMax], true},
		{"empty body", "", 401, "text/event-stream", nil, nil, []string{"http-status"}, []byte{}, false},
		{"damaged capture", "", 500, "text/event-stream", [][]byte{[]byte("x")}, []sessions.Problem{{Line: 3, Message: "broken line"}, {Message: "a note", Note: true}}, []string{"http-status", "capture-corrupt"}, []byte("x"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &sessiontest.FakeCapture{Info: sessions.Meta{Name: "c.jsonl", HTTP: true, Status: tc.status, ContentType: tc.ct}, Ending: invariants.End{Kind: invariants.EndEOF}, Probs: tc.probs}
			for _, c := range tc.chunks {
				f.Chunks = append(f.Chunks, sessions.Chunk{Data: c})
			}
			var rules []string
			var gotBody []byte
			var gotMore, called bool
			items, notes := 0, 0
			res, err := Run(f, invariants.Options{Dialect: tc.dialect}, Handler{
				OnItem: func(*Item) { items++ },
				OnAlarms: func(as []invariants.Alarm) {
					for _, a := range as {
						rules = append(rules, a.Rule)
					}
				},
				OnNote:      func(string) { notes++ },
				OnErrorBody: func(b []byte, more bool) { gotBody, gotMore, called = append([]byte(nil), b...), more, true },
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rules, " ") != strings.Join(tc.want, " ") || items != 0 || res.Frames != 0 || len(res.Turns) != 0 {
				t.Errorf("alarms %v, %d items, %d frames, %d turns; want %v and nothing framed", rules, items, res.Frames, len(res.Turns), tc.want)
			}
			if !called || !bytes.Equal(gotBody, tc.body) || gotMore != tc.more || !bytes.Equal(res.ErrorBody, tc.body) || res.ErrorBodyTruncated != tc.more {
				t.Errorf("body %d bytes (more %v, called %v), result %d bytes; want %d bytes, more %v", len(gotBody), gotMore, called, len(res.ErrorBody), len(tc.body), tc.more)
			}
			if n := int64(0); true {
				for _, c := range tc.chunks {
					n += int64(len(c))
				}
				if res.Bytes != n || res.End.Kind != invariants.EndEOF {
					t.Errorf("bytes %d end %v, want %d eof", res.Bytes, res.End, n)
				}
			}
			if notes != len(tc.probs)/2 {
				t.Errorf("%d notes", notes)
			}
			if res.Counts.Error != 1 {
				t.Errorf("counts %+v", res.Counts)
			}
		})
	}

	// 2xx: framed as ever (the truncated tail is reported).
	f := &sessiontest.FakeCapture{Info: sessions.Meta{HTTP: true, Status: 200, ContentType: "text/event-stream"}, Chunks: []sessions.Chunk{{Data: sse}}, Ending: invariants.End{Kind: invariants.EndEOF}}
	items := 0
	res, err := Run(f, invariants.Options{}, Handler{OnItem: func(*Item) { items++ }})
	if err != nil || items != 2 || res.Frames != 1 || res.ErrorBody != nil {
		t.Errorf("2xx: %d items, %d frames, body %q, err %v", items, res.Frames, res.ErrorBody, err)
	}
	// Status 0 (a HAR's request in flight or aborted): no HTTP status, so
	// the body is read as a stream; http-status still fires.
	f = &sessiontest.FakeCapture{Info: sessions.Meta{HTTP: true, Status: 0, ContentType: "text/event-stream"}, Chunks: []sessions.Chunk{{Data: sse}}, Ending: invariants.End{Kind: invariants.EndEOF}}
	items = 0
	var rules []string
	res, err = Run(f, invariants.Options{}, Handler{OnItem: func(*Item) { items++ }, OnAlarms: func(as []invariants.Alarm) {
		for _, a := range as {
			rules = append(rules, a.Rule)
		}
	}})
	if err != nil || items != 2 || res.Frames != 1 || res.ErrorBody != nil || len(rules) == 0 || rules[0] != "http-status" {
		t.Errorf("status 0: %d items, %d frames, body %q, alarms %v, err %v", items, res.Frames, res.ErrorBody, rules, err)
	}
}
