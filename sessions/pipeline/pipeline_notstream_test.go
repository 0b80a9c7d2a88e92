package pipeline_test

import (
	"strings"
	"testing"
)

// TestNotAStream: a file of JSON values holding one value that made no
// turn raises not-a-stream (error) naming what it looks like; a stream of
// several values, a lone value its dialect made a turn of, a broken value
// (frame-json says it) and SSE of one frame do not.
func TestNotAStream(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, msg string
	}{
		{"request body", `{"model":"gpt-4o","messages":[],"stream":true}` + "\n", "not-a-stream@-1",
			"a single JSON object with keys model, messages, stream: it looks like a request body"},
		{"pretty config", "{\n  \"name\": \"app\",\n  \"version\": \"1\"\n}\n", "not-a-stream@-1", "a single JSON object with keys name, version;"},
		{"whole response", `{"id":"c","object":"chat.completion","choices":[]}`, "not-a-stream@-1", "it looks like a whole response, not streamed"},
		{"many keys", `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1}`, "not-a-stream@-1", "keys a, b, c, d, e, f, g, h (and 2 more)"},
		{"two values", `{"a":1}` + "\n" + `{"a":2}` + "\n", "", ""},
		{"ollama whole", `{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi"},"done":true,"done_reason":"stop"}` + "\n", "", ""},
		{"sse one frame", "data: {\"model\":\"m\",\"messages\":[]}\n\n", "", ""},
	} {
		rep := checkString(t, tc.name, tc.in)
		if got := rules(rep); got != tc.want {
			t.Errorf("%s: alarms %s, want %q", tc.name, got, tc.want)
			continue
		}
		if tc.msg != "" && !strings.Contains(rep.Alarms[0].Message, tc.msg) {
			t.Errorf("%s: message %q, want it to say %q", tc.name, rep.Alarms[0].Message, tc.msg)
		}
		if tc.want != "" && rep.Counts.Error != 1 {
			t.Errorf("%s: counts %+v, want one error", tc.name, rep.Counts)
		}
	}
}
