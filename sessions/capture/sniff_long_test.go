package capture

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// TestSniffLongFirstValue: a raw NDJSON or JSON-values input whose first
// value is longer than the sniff window (64 KiB) is read as such, from a
// reader of short reads too; a HAR whose log comes after a long
// comment stays a HAR.
func TestSniffLongFirstValue(t *testing.T) {
	long := strings.Repeat("x", 70<<10)
	chat := func(content string) string {
		return `{"model":"m","created_at":"t","message":{"role":"assistant","content":"` + content + `"},"done":false}`
	}
	pretty := "{\n  \"model\": \"m\",\n  \"message\": {\n    \"content\": \"" + long + "\"\n  },\n  \"done\": false\n}\n{\n  \"model\": \"m\",\n  \"done\": true\n}\n"
	cases := []struct {
		name, in string
		want     sessions.Kind
		frames   int
	}{
		{"ndjson 63 KiB", chat(long[:63<<10]) + "\n" + chat("") + "\n", sessions.KindRawNDJSON, 2},
		{"ndjson 70 KiB", chat(long) + "\n" + chat("") + "\n", sessions.KindRawNDJSON, 2},
		{"ndjson 70 KiB alone", chat(long), sessions.KindRawNDJSON, 1},
		{"ndjson long first key", `{"response":"` + long + `","done":true}` + "\n", sessions.KindRawNDJSON, 1},
		{"json values 70 KiB", pretty, sessions.KindJSONSeq, 2},
		{"har comment first", `{"comment":"` + long + `","log":{"entries":[{"response":{"content":{"mimeType":"text/event-stream","text":"data: 1\n\n"}}}]}}`, sessions.KindHAR, -1},
		{"har custom first", `{"_exporter":"` + long + `","log":{"entries":[{"response":{"content":{"mimeType":"text/event-stream","text":"data: 1\n\n"}}}]}}`, sessions.KindHAR, -1},
	}
	for _, tc := range cases {
		// In reads of 1000 bytes, as a pipe gives them.
		c, err := OpenReader("in", &shortReader{strings.NewReader(tc.in), 1000}, OpenOptions{Entry: -1})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := c.Meta().Kind; got != tc.want {
			t.Errorf("%s: kind %s, want %s", tc.name, got, tc.want)
			continue
		}
		if tc.frames < 0 {
			continue
		}
		d := sessiontest.Drain(t, c)
		if n := bytes.Count(d.Data, []byte("\n\n")); n != tc.frames || len(d.Probs) != 0 {
			t.Errorf("%s: %d frames (want %d), problems %+v", tc.name, n, tc.frames, d.Probs)
		}
	}
}

// shortReader reads at most n bytes a call.
type shortReader struct {
	r io.Reader
	n int
}

func (s *shortReader) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }
