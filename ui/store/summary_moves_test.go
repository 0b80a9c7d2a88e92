package store

import (
	"strings"
	"testing"

	"framescope/decode"
)

// TestMovesSummaryOfDataThatIsNoObject: data a dialect carries as no JSON
// object by design (langgraph's arrays and null, MCP's endpoint path and
// empty priming event) is shown as it is, not labelled "not JSON".
func TestMovesSummaryOfDataThatIsNoObject(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{``, "(empty data)"},
		{`null`, "null"},
		{`[{"content":"hi"},{"langgraph_node":"agent"}]`, `[{"content":"hi"},{"langgraph_node":"agent"}]`},
		{`/messages/?session_id=9f2c`, "text: /messages/?session_id=9f2c"},
	} {
		var d decode.Decoder
		fr := d.Decode(&decode.Event{Data: []byte(tc.data), HasData: true}, 0, false)
		if got := movesSummary(fr); got != tc.want {
			t.Errorf("%q: summary %q, want %q", tc.data, got, tc.want)
		}
	}
}

// TestMovesSummaryLeadsWithText: an Ollama line leads with its text (the
// generate endpoint's "response"), not the model and time every line
// repeats.
func TestMovesSummaryLeadsWithText(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"model":"gpt-oss:120b","created_at":"2025-08-21T09:55:17Z","response":"Fl","done":false}`, `"Fl"  done=false`},
		{`{"model":"m","created_at":"t","message":{"role":"assistant","content":"Hi"},"done":false}`, `"Hi"  role="assistant"  done=false`},
	} {
		var d decode.Decoder
		fr := d.Decode(&decode.Event{Data: []byte(tc.data), HasData: true}, 0, false)
		if got := movesSummary(fr); got != tc.want {
			t.Errorf("%s: summary %q, want %q", tc.data, got, tc.want)
		}
	}
}

// TestMovesSummaryQuotesTextOnce: a delta's text is quoted as JSON would
// show it, once: a newline reads \n (it read \\n, the sanitizer's escape
// escaped again, indistinguishable from a backslash and an n), and what a
// terminal would act on (ESC, a bidi override) stays escaped.
func TestMovesSummaryQuotesTextOnce(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"delta":"\n"}`, `"\n"`},
		{`{"delta":"a\\nb"}`, `"a\\nb"`},
		{`{"delta":"tab\there"}`, `"tab\there"`},
		{`{"delta":"\u001b[31mred\u001b]0;t\u0007"}`, `"\x1b[31mred\x1b]0;t\a"`},
		{`{"delta":"a\u202eb"}`, `"a\u202eb"`},
		{`{"delta":"café ✓"}`, `"café ✓"`},
		{`{"status":"in\nprogress"}`, `status="in\nprogress"`},
	} {
		var d decode.Decoder
		fr := d.Decode(&decode.Event{Data: []byte(tc.data), HasData: true}, 0, false)
		if got := movesSummary(fr); got != tc.want {
			t.Errorf("%s: summary %s, want %s", tc.data, got, tc.want)
		}
	}
}

// TestMovesSummarySanitizesKeys: a key is frame text like a value; one
// that carries escapes or a bidi override is drawn escaped, nested or not,
// and a key the summary sorts by name still sorts.
func TestMovesSummarySanitizesKeys(t *testing.T) {
	const key = `\u001b[31mRED\u001b[2J\u202eBIDI`
	for _, data := range []string{
		`{"` + key + `":1}`,
		`{"a":{"` + key + `":"v"}}`,
		`{"a":[{"` + key + `":true}],"name":"tool"}`,
	} {
		var d decode.Decoder
		fr := d.Decode(&decode.Event{Data: []byte(data), HasData: true}, 0, false)
		got := movesSummary(fr)
		if got != decode.Sanitize(got) || strings.ContainsAny(got, "\x1b\u202e") {
			t.Errorf("%s: summary %q is not terminal-safe", data, got)
		}
		if !strings.Contains(got, "RED") || !strings.Contains(got, "BIDI") {
			t.Errorf("%s: summary %q does not show the key", data, got)
		}
	}
}
