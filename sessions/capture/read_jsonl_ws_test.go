package capture

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"framescope/sessions"
)

const wsHeader = `{"framescope_capture":2,"transport":"websocket","url":"wss://h/rt","method":"GET","status":101}`

// frames reads a capture to its end: each chunk as "from op payload".
func frames(t *testing.T, c sessions.Capture) (out []string, probs []string) {
	t.Helper()
	for {
		ch, err := c.Next()
		for _, p := range c.TakeProblems() {
			probs = append(probs, p.Message)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s := ch.From.String() + " " + ch.Op.String() + " " + string(ch.Payload)
		if ch.Op == sessions.OpClose {
			s += " " + strings.TrimSpace(string(ch.Data))
		}
		out = append(out, s)
	}
	return out, probs
}

func TestJSONLWebSocket(t *testing.T) {
	in := wsHeader + "\n" +
		`{"t":0.1,"data":"{\"type\":\"a\"}"}` + "\n" +
		`{"t":0.2,"from":"client","data":"{\"type\":\"b\"}"}` + "\n" +
		`{"t":0.3,"op":"ping"}` + "\n" +
		`{"t":0.35,"op":"binary","b64":"AAEC"}` + "\n" +
		`{"t":0.36,"b64":"/w=="}` + "\n" +
		`{"t":0.4,"op":"close"}` + "\n" +
		`{"t":0.5,"end":"eof"}` + "\n"
	c, err := OpenReader("ws.jsonl", strings.NewReader(in), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Meta()
	if m.Transport != sessions.TransportWebSocket || m.HTTP || !m.Synthetic {
		t.Errorf("meta %+v", m)
	}
	got, probs := frames(t, c)
	want := []string{`server text {"type":"a"}`, `client text {"type":"b"}`, "server ping ", "server binary \x00\x01\x02",
		"server text \xff", "server close  : websocket close"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("frames\n got %q\nwant %q", got, want)
	}
	if len(probs) != 1 || !strings.Contains(probs[0], "not valid UTF-8") {
		t.Errorf("problems %q", probs)
	}
}

// A version 1 capture with the keys of version 2 reads as before: they are
// ignored and the data is the body's bytes.
func TestJSONLVersion1IgnoresFrameKeys(t *testing.T) {
	in := `{"framescope_capture":1}` + "\n" + `{"t":0.1,"from":"client","data":"data: x\n\n"}` + "\n"
	c, err := OpenReader("v1.jsonl", strings.NewReader(in), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := c.Next()
	if err != nil || string(ch.Data) != "data: x\n\n" || ch.From != sessions.FromServer {
		t.Errorf("chunk %+v, %v", ch, err)
	}
}

func TestJSONLWebSocketBadLines(t *testing.T) {
	in := wsHeader + "\n" + `{"t":0.1,"from":"nobody","data":"x"}` + "\n" + `{"t":0.2,"op":"shout"}` + "\n" +
		`{"t":0.3,"op":"close","code":"x"}` + "\n" + `{"t":0.4,"op":"close","code":1011,"reason":"boom"}` + "\n"
	c, err := OpenReader("bad.jsonl", strings.NewReader(in), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, probs := frames(t, c)
	if len(got) != 2 || !strings.HasSuffix(got[1], ": websocket close 1011 boom") {
		t.Errorf("frames %q", got)
	}
	if len(probs) < 3 {
		t.Errorf("problems %q", probs)
	}
}

func TestHARWebSocketMessages(t *testing.T) {
	doc := harWith(`{"startedDateTime":"2026-12-01T10:00:00.000Z","_resourceType":"websocket","request":{"method":"GET","url":"wss://h/rt"},"response":{"status":101},
"_webSocketMessages":[{"type":"receive","time":1796119200.5,"opcode":1,"data":"{\"type\":\"session.created\"}"},
{"type":"send","time":1796119201,"opcode":1,"data":"{\"type\":\"response.create\"}"},
{"type":"receive","time":1796119201.25,"opcode":2,"data":"AAE="},
{"type":"other","time":1796119202,"opcode":1,"data":"x"}]}`)
	c, err := OpenReader("rt.har", strings.NewReader(doc), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Meta().Transport != sessions.TransportWebSocket {
		t.Fatalf("meta %+v", c.Meta())
	}
	var ts []float64
	var got []string
	for {
		ch, err := c.Next()
		if err != nil {
			break
		}
		got = append(got, ch.From.String()+" "+ch.Op.String())
		ts = append(ts, ch.T.Seconds())
	}
	if strings.Join(got, ",") != "server text,client text,server binary" {
		t.Errorf("frames %q", got)
	}
	if len(ts) != 3 || ts[0] != 0.5 || ts[1] != 1 || ts[2] != 1.25 {
		t.Errorf("times %v", ts)
	}
	if p := c.TakeProblems(); len(p) != 1 {
		t.Errorf("problems %+v", p)
	}
}

func FuzzOpenJSONLWebSocket(f *testing.F) {
	f.Add([]byte(wsHeader + "\n" + `{"t":0.1,"from":"client","data":"{}"}` + "\n" + `{"t":0.2,"op":"close","code":1000,"reason":"x"}` + "\n"))
	f.Add([]byte(wsHeader + "\n" + `{"t":0.1,"op":"ping"}` + "\n" + `{"from":1,"op":2,"code":1e9}` + "\n" + `{"t":1,"b64":"//8=","op":"text"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzCapture(t, in, -1)
		for _, line := range bytes.Split(in, []byte("\n")) {
			checkFastJSONL(t, line)
		}
	})
}

func FuzzOpenHARWebSocket(f *testing.F) {
	f.Add([]byte(harWith(`{"_resourceType":"websocket","request":{"url":"wss://h/"},"response":{"status":101},"_webSocketMessages":[{"type":"send","time":1,"opcode":1,"data":"{}"},{"type":"receive","time":0.5,"opcode":2,"data":"!!"}]}`)), -1)
	f.Add([]byte(harWith(`{"_webSocketMessages":[{"type":"receive","opcode":9},{"type":"receive","opcode":1,"data":"\ud800"}]}`)), 0)
	f.Fuzz(func(t *testing.T, in []byte, entry int) { fuzzCapture(t, in, entry) })
}
