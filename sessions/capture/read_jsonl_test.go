package capture

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

func TestJSONLHappy(t *testing.T) {
	c := mustOpen(t, "../testdata/happy.jsonl", OpenOptions{})
	m := c.Meta()
	if m.Kind != sessions.KindJSONL || !m.Timed || !m.HTTP || m.Synthetic {
		t.Errorf("meta flags %+v", m)
	}
	if m.URL != "http://127.0.0.1:9090/v1/turn" || m.Method != "POST" || m.Status != 200 {
		t.Errorf("meta request %+v", m)
	}
	if m.ContentType != "text/event-stream; charset=utf-8" {
		t.Errorf("content type %q (must be found case-insensitively)", m.ContentType)
	}
	if m.RequestHeaders["Authorization"] != "[redacted]" || m.ResponseHeaders["Cache-Control"] != "no-cache" {
		t.Errorf("headers %v %v", m.RequestHeaders, m.ResponseHeaders)
	}
	if want := time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC); !m.StartedAt.Equal(want) {
		t.Errorf("started %v", m.StartedAt)
	}
	d := sessiontest.Drain(t, c)
	if want := sessiontest.ReadFile(t, "../testdata/happy.sse"); !bytes.Equal(d.Data, want) {
		t.Errorf("bytes differ from the raw capture:\n%s", d.Data)
	}
	if len(d.Chunks) != 9 || len(d.Probs) != 0 {
		t.Fatalf("%d chunks, problems %v", len(d.Chunks), d.Probs)
	}
	var prev time.Duration
	for i, ch := range d.Chunks {
		if !ch.HasTime || ch.T < prev || ch.Line != i+2 {
			t.Errorf("chunk %d: T %v HasTime %v Line %d", i, ch.T, ch.HasTime, ch.Line)
		}
		prev = ch.T
	}
	if d.Chunks[0].T != 12*time.Millisecond {
		t.Errorf("first chunk T %v", d.Chunks[0].T)
	}
	if d.End.Kind != invariants.EndEOF || !d.End.HasTime || d.End.At < prev {
		t.Errorf("end %+v", d.End)
	}
}

func TestJSONLDefectsFile(t *testing.T) {
	d := sessiontest.Drain(t, mustOpen(t, "../testdata/defects.jsonl", OpenOptions{}))
	want := map[int]string{
		3:  "invalid JSON",
		4:  "\"b64\" is not valid base64",
		5:  "missing \"t\"",
		6:  "\"t\" goes back in time (0.001 after 0.03)",
		7:  "unknown line shape",
		11: "line after the end line (line 10)",
	}
	got := map[int]string{}
	for _, p := range d.Probs {
		got[p.Line] = p.Message
	}
	for line, sub := range want {
		if !strings.Contains(got[line], sub) {
			t.Errorf("line %d: problem %q, want %q", line, got[line], sub)
		}
	}
	if len(d.Probs) != len(want) {
		t.Errorf("problems: %v", d.Probs)
	}
	// Everything readable still comes through, in order.
	for _, s := range []string{"resp_d2", "untimed", "early", "completed", "[DONE]"} {
		if !bytes.Contains(d.Data, []byte(s)) {
			t.Errorf("data lost: %q missing", s)
		}
	}
	for _, ch := range d.Chunks {
		if (ch.Line == 5 || ch.Line == 6) == ch.HasTime {
			t.Errorf("line %d: HasTime %v", ch.Line, ch.HasTime)
		}
	}
	if d.End.Kind != invariants.EndEOF || d.End.At != 70*time.Millisecond {
		t.Errorf("end %+v", d.End)
	}
}

// Each case: lines after the header; a defect on one line gives a problem
// naming that line (header = line 1), and the chunk after it is still read.
func TestJSONLLineDefects(t *testing.T) {
	after := `{"t":9,"data":"data: after\n\n"}`
	end := `{"t":10,"end":"eof"}`
	cases := []struct {
		name string
		line string
		want string
	}{
		{"not json", `hello`, "invalid JSON"},
		{"truncated json", `{"t":1,"data":"abc`, "invalid JSON"},
		{"array", `[1,2]`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"missing t", `{"data":"x"}`, `missing "t"`},
		{"string t", `{"t":"1.5","data":"x"}`, `"t" is a string`},
		{"null t", `{"t":null,"data":"x"}`, `"t" is null`},
		{"negative t", `{"t":-1,"data":"x"}`, `"t" is negative`},
		{"huge t", `{"t":1e300,"data":"x"}`, `out of range`},
		{"overflow t", `{"t":1e999,"data":"x"}`, `out of range`},
		{"bad base64", `{"t":1,"b64":"!!!"}`, `"b64" is not valid base64`},
		{"b64 not string", `{"t":1,"b64":12}`, `"b64" is not a string`},
		{"data not string", `{"t":1,"data":{"a":1}}`, `"data" is not a string`},
		{"data and b64", `{"t":1,"data":"x","b64":"eA=="}`, `both "data" and "b64"`},
		{"unknown shape", `{"t":1,"chunk":"x"}`, `unknown line shape`},
		{"empty object", `{}`, `unknown line shape`},
		{"end not string", `{"t":1,"end":3}`, `"end" is not a string`},
		{"second header", sessiontest.JSONLHeader, `a second capture header`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := sessiontest.JSONLHeader + "\n" + `{"t":0.5,"data":"data: before\n\n"}` + "\n" + tc.line + "\n" + after + "\n" + end + "\n"
			c, err := openString(t, in, OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			d := sessiontest.Drain(t, c)
			if len(d.Probs) == 0 || d.Probs[0].Line != 3 || !strings.Contains(d.Probs[0].Message, tc.want) {
				t.Fatalf("problems %v, want line 3 %q", d.Probs, tc.want)
			}
			if !bytes.HasPrefix(d.Data, []byte("data: before\n\n")) || !bytes.HasSuffix(d.Data, []byte("data: after\n\n")) {
				t.Errorf("data %q", d.Data)
			}
			if d.End.Kind != invariants.EndEOF {
				t.Errorf("end %+v", d.End)
			}
		})
	}
}

func TestJSONLHeaderDefects(t *testing.T) {
	cases := []struct {
		name, header, want string
		http               bool
	}{
		{"unknown version", `{"framescope_capture":3,"status":200}`, "unknown capture version 3", true},
		{"string status", `{"framescope_capture":1,"status":"503"}`, `"status" is a string`, true},
		{"bad status", `{"framescope_capture":1,"status":true}`, `"status" true is not an HTTP status code`, false},
		{"bad started_at", `{"framescope_capture":1,"started_at":"yesterday"}`, `"started_at" "yesterday" is not an RFC 3339 time`, false},
		{"headers not object", `{"framescope_capture":1,"response_headers":"text/event-stream"}`, `"response_headers" is not an object`, false},
		{"header value not string", `{"framescope_capture":1,"request_headers":{"X-N":5}}`, `header "X-N" has a value that is not a string`, false},
		{"url not string", `{"framescope_capture":1,"url":5}`, `"url" is not a string`, false},
		{"broken header", `{"framescope_capture":1,"url":`, `capture header: invalid JSON`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.header + "\n" + `{"t":0,"data":"data: x\n\n"}` + "\n" + `{"t":1,"end":"eof"}` + "\n"
			c, err := openString(t, in, OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.Meta().HTTP != tc.http {
				t.Errorf("HTTP %v", c.Meta().HTTP)
			}
			d := sessiontest.Drain(t, c)
			if len(d.Probs) != 1 || d.Probs[0].Line != 1 || !strings.Contains(d.Probs[0].Message, tc.want) {
				t.Fatalf("problems %v, want line 1 %q", d.Probs, tc.want)
			}
			if string(d.Data) != "data: x\n\n" {
				t.Errorf("data %q", d.Data)
			}
		})
	}
}

func TestJSONLNoStatusIsNotHTTP(t *testing.T) {
	c, err := openString(t, `{"framescope_capture":1,"url":"http://h/"}`+"\n"+`{"t":0,"end":"eof"}`+"\n", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Meta().HTTP || c.Meta().Status != 0 {
		t.Errorf("meta %+v", c.Meta())
	}
	if d := sessiontest.Drain(t, c); len(d.Chunks) != 0 || len(d.Probs) != 0 {
		t.Errorf("%+v", d)
	}
}

func TestJSONLEnds(t *testing.T) {
	cases := []struct {
		end  string
		want invariants.End
	}{
		{`"eof"`, invariants.End{Kind: invariants.EndEOF, At: 2 * time.Second, HasTime: true}},
		{`"cancelled"`, invariants.End{Kind: invariants.EndCancelled, At: 2 * time.Second, HasTime: true}},
		{`"error: unexpected EOF"`, invariants.End{Kind: invariants.EndError, Detail: "unexpected EOF", At: 2 * time.Second, HasTime: true}},
		{`"stream reset by peer"`, invariants.End{Kind: invariants.EndError, Detail: "stream reset by peer", At: 2 * time.Second, HasTime: true}},
	}
	for _, tc := range cases {
		c, err := openString(t, sessiontest.JSONLHeader+"\n"+`{"t":2,"end":`+tc.end+"}\n", OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d := sessiontest.Drain(t, c)
		if d.End != tc.want || len(d.Probs) != 0 {
			t.Errorf("%s: end %+v problems %v", tc.end, d.End, d.Probs)
		}
	}
}

func TestJSONLTruncated(t *testing.T) {
	d := sessiontest.Drain(t, mustOpen(t, "../testdata/truncated.jsonl", OpenOptions{}))
	if d.End.Kind != invariants.EndError || d.End.Detail != "capture ended without an end line (truncated?)" {
		t.Errorf("end %+v", d.End)
	}
	if len(d.Probs) != 1 || d.Probs[0].Line != 5 || !strings.Contains(d.Probs[0].Message, "without an end line") {
		t.Errorf("problems %v", d.Probs)
	}
	if len(d.Chunks) != 4 {
		t.Errorf("%d chunks", len(d.Chunks))
	}

	// Cut in the middle of a line, without a final newline.
	in := sessiontest.JSONLHeader + "\n" + `{"t":0.1,"data":"data: 1\n\n"}` + "\n" + `{"t":0.2,"data":"data: 2`
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d = sessiontest.Drain(t, c)
	if string(d.Data) != "data: 1\n\n" || d.End.Kind != invariants.EndError || len(d.Probs) != 2 || d.Probs[0].Line != 3 {
		t.Errorf("data %q end %+v problems %v", d.Data, d.End, d.Probs)
	}
}

// b64 chunks carry bytes that are not valid UTF-8, exactly.
func TestJSONLBase64Bytes(t *testing.T) {
	raw := []byte("data: {\"chunk\":\"caf\xe9 \xff\xfe\x00\x80\"}\n\n")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		in := sessiontest.JSONLHeader + "\n" + fmt.Sprintf(`{"t":0.25,"b64":%q}`, enc.EncodeToString(raw)) + "\n" + `{"t":1,"end":"eof"}` + "\n"
		c, err := openString(t, in, OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d := sessiontest.Drain(t, c)
		if !bytes.Equal(d.Data, raw) || len(d.Probs) != 0 {
			t.Errorf("got %q problems %v", d.Data, d.Probs)
		}
		if d.Chunks[0].T != 250*time.Millisecond || d.Chunks[0].Line != 2 {
			t.Errorf("chunk %+v", d.Chunks[0])
		}
	}
}

// Lines far longer than any buffer, CRLF endings, a BOM and blank lines.
func TestJSONLLongLinesAndEndings(t *testing.T) {
	big := "data: " + strings.Repeat("0123456789abcdef", 5<<16) + "\n\n" // 5 MiB
	line, _ := json.Marshal(map[string]any{"t": 0.5, "data": big})
	in := "\ufeff\r\n" + sessiontest.JSONLHeader + "\r\n" + string(line) + "\r\n\r\n" + `{"t":1,"data":"data: small\n\n"}` + "\r\n" + `{"t":2,"end":"eof"}`
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Meta().Status != 200 {
		t.Errorf("header not read: %+v", c.Meta())
	}
	d := sessiontest.Drain(t, c)
	if len(d.Probs) != 0 {
		t.Fatalf("problems %v", d.Probs)
	}
	if string(d.Data) != big+"data: small\n\n" {
		t.Errorf("data differs (%d bytes)", len(d.Data))
	}
	if d.Chunks[0].Line != 3 || d.Chunks[1].Line != 5 || d.End.Kind != invariants.EndEOF {
		t.Errorf("lines %d %d end %+v", d.Chunks[0].Line, d.Chunks[1].Line, d.End)
	}
}

func TestJSONLEndLineCarryingData(t *testing.T) {
	in := sessiontest.JSONLHeader + "\n" + `{"t":1,"end":"eof","data":"data: late\n\n"}` + "\n" + `{"t":2,"end":"cancelled"}` + "\n"
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := sessiontest.Drain(t, c)
	if string(d.Data) != "data: late\n\n" || d.End.Kind != invariants.EndEOF {
		t.Errorf("data %q end %+v", d.Data, d.End)
	}
	if len(d.Probs) != 2 || d.Probs[0].Line != 2 || d.Probs[1].Line != 3 {
		t.Errorf("problems %v", d.Probs)
	}
}

// A capture whose header line was lost is still read, with a problem.
func TestJSONLMissingHeader(t *testing.T) {
	in := "\n" + `{"t":0.1,"data":"data: 1\n\n"}` + "\n" + `{"t":0.2,"data":"data: 2\n\n"}` + "\n" + `{"t":0.3,"end":"cancelled"}` + "\n"
	c, err := openString(t, in, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Meta(); m.Kind != sessions.KindJSONL || m.HTTP || !m.Timed {
		t.Errorf("meta %+v", m)
	}
	d := sessiontest.Drain(t, c)
	if string(d.Data) != "data: 1\n\ndata: 2\n\n" || d.End.Kind != invariants.EndCancelled {
		t.Errorf("data %q end %+v", d.Data, d.End)
	}
	if len(d.Probs) != 1 || d.Probs[0].Line != 2 || !strings.Contains(d.Probs[0].Message, "no capture header") {
		t.Errorf("problems %v", d.Probs)
	}
	if d.Chunks[0].Line != 2 || d.Chunks[0].T != 100*time.Millisecond {
		t.Errorf("first chunk %+v", d.Chunks[0])
	}
}

func TestFastJSONLLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`{"t":0.5,"data":"event: x\ndata: {\"a\":\"\u00e9\"}\n\n"}`, true},
		{` { "t" : 1e-3 , "end" : "error: boom" } `, true},
		{`{"b64":"eA==","t":0}`, true},
		{`{"t":1,"data":"\ud83d\ude00 \/ \b\f\r\t"}`, true},
		{`{"t":1,"data":"lone \ud800"}`, false},
		{`{"t":1,"data":"x","data":"y"}`, false},
		{`{"t":1,"data":"x","extra":1}`, false},
		{`{"t":01,"data":"x"}`, false},
		{`{"t":1,"data":null}`, false},
		{`{"t":1}`, false},
		{`{"t":1,"data":"x"} trailing`, false},
		{"{\"t\":1,\"data\":\"bad \xff utf8\"}", false},
		{`{"t":1,"data":"x"`, false},
	} {
		_, _, ok := fastJSONLLine([]byte(tc.line), nil)
		if ok != tc.ok {
			t.Errorf("%s: ok %v", tc.line, ok)
		}
		checkFastJSONL(t, []byte(tc.line))
	}
}
