package capture

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// fuzzMaxInput bounds the inputs the capture fuzz targets look at; a
// longer one is cut (see decode's fuzzMaxInput: min adds no coverage edge
// for the engine's minimizer to stall on, where an early return would). A
// few lines reach every reader's paths.
const fuzzMaxInput = 1 << 10

// fuzzCapture opens arbitrary bytes and reads them to the end: errors and
// problems are fine, panics and hangs are not, and no message may carry a
// raw control character.
func fuzzCapture(t *testing.T, in []byte, entry int) {
	in = in[:min(len(in), fuzzMaxInput)]
	c, err := OpenReader("fuzz", bytes.NewReader(in), OpenOptions{Entry: entry})
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "fuzz: ") && !strings.HasPrefix(msg, "fuzz:") {
			t.Fatalf("error does not name the input: %q", msg)
		}
		checkText(t, msg)
		return
	}
	total := 0
	for i := 0; ; i++ {
		ch, err := c.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if i > len(in)+2 {
			t.Fatalf("more chunks (%d) than input bytes", i)
		}
		total += len(ch.Data)
		for _, p := range c.TakeProblems() {
			checkText(t, p.Message)
		}
	}
	for _, p := range c.TakeProblems() {
		checkText(t, p.Message)
	}
	if _, err := c.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after EOF: %v", err)
	}
	end := c.End()
	switch end.Kind {
	case invariants.EndEOF, invariants.EndCancelled, invariants.EndError:
	default:
		t.Fatalf("end kind %q", end.Kind)
	}
	if c.Meta().Kind == sessions.KindSSE && total != len(in) {
		t.Fatalf("raw SSE: %d bytes out of %d", total, len(in))
	}
	c.Close()
}

func checkText(t *testing.T, s string) {
	for _, r := range s {
		if r != '\n' && (unicode.IsControl(r) || r == '\u202e') {
			t.Fatalf("raw control character %U in %q", r, s)
		}
	}
}

func FuzzOpenJSONL(f *testing.F) {
	f.Add([]byte(sessiontest.JSONLHeader + "\n" + `{"t":0.1,"data":"data: x\n\n"}` + "\n" + `{"t":0.2,"end":"eof"}` + "\n"))
	f.Add([]byte(`{"framescope_capture":1}` + "\n" + `{"t":0.1,"b64":"//79"}` + "\n"))
	f.Add([]byte(`{"framescope_capture":3,"status":"x"}` + "\n" + `{"t":-1,"end":"error: boom"}` + "\n{}\n[]\n"))
	f.Add([]byte(`{"framescope_capture":1,"url":"\u001b]0;x\u0007"}` + "\n" + `{"t":1e400}` + "\n" + `{"t":1,"data":` + "\n"))
	f.Add([]byte(`{"t":1,"data":"a\u00e9\ud83d\ude00\ud800\n\/\"","end":"x"}` + "\n" + `{ "t" : -0.5e+3 , "b64" : "eA==" }`))
	f.Fuzz(func(t *testing.T, in []byte) {
		in = in[:min(len(in), fuzzMaxInput)]
		fuzzCapture(t, in, -1)
		for _, line := range bytes.Split(in, []byte("\n")) {
			checkFastJSONL(t, line)
		}
	})
}

// checkFastJSONL: when the fast line decoder answers, encoding/json agrees.
func checkFastJSONL(t *testing.T, line []byte) {
	fast, _, ok := fastJSONLLine(line, nil)
	if !ok {
		return
	}
	var c jsonlCapture
	slow, ok := c.slowJSONLLine(1, line)
	if !ok {
		t.Fatalf("fast decoder accepted %q; encoding/json: %v", line, c.probs.Take())
	}
	if !bytes.Equal(fast.t, slow.t) ||
		fast.hasData != slow.hasData || fast.dataOK != slow.dataOK || !bytes.Equal(fast.data, slow.data) ||
		fast.hasB64 != slow.hasB64 || fast.b64OK != slow.b64OK || !bytes.Equal(fast.b64, slow.b64) ||
		fast.hasEnd != slow.hasEnd || fast.endOK != slow.endOK || !bytes.Equal(fast.end, slow.end) {
		t.Fatalf("%q: fast %+v, encoding/json %+v", line, fast, slow)
	}
}

func FuzzOpenHAR(f *testing.F) {
	f.Add([]byte(harWith(`{"request":{"method":"GET","url":"http://h/"},"response":{"status":200,"content":{"mimeType":"text/event-stream","text":"data: 1\n\n"}}}`)), 0)
	f.Add([]byte(harWith(`{"response":{"content":{"mimeType":"text/event-stream","text":"ZGF0YTogMQoK","encoding":"base64"}}}`)), -1)
	f.Add([]byte("{\n \"log\": {\"entries\": [1, {\"request\": {\"headers\": [{\"name\":\"accept\",\"value\":\"text/event-stream\"}]}}]}}"), 3)
	f.Add([]byte("{\n \"log\": {\"entries\": ["), -1)
	f.Fuzz(func(t *testing.T, in []byte, entry int) { fuzzCapture(t, in, entry) })
}

func FuzzOpenNDJSON(f *testing.F) {
	f.Add([]byte(`{"event_type":"text","version":"0.5","chunk":"hi"}` + "\n[DONE]\n"))
	f.Add([]byte(`{"index":0,"event":"text","data":"{}\n{}","t":0.5}` + "\nnot json\n\r\n"))
	f.Add([]byte(`{"index":0,"offset":3,"size":9,"arrival":0.25,"event":"t","id":"7","retry":25,"comments":[" hi"],"data":"caf\ufffd","data_b64":"Y2Fm6Q=="}` + "\n"))
	f.Add([]byte(`{"index":1,"event":{"x":1},"data":"","arrival":-3}` + "\n" + `{"index":2,"data":"x","arrival":1e999}`))
	f.Fuzz(func(t *testing.T, in []byte) { fuzzCapture(t, in, -1) })
}

func FuzzOpenSSE(f *testing.F) {
	f.Add([]byte("event: text\ndata: {\"event_type\":\"text\"}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("\ufeff\r\n: ping\r\nretry: 10\r\n"))
	f.Add([]byte("garbage\x00\xff\nid\n"))
	f.Add([]byte(""))
	f.Add([]byte("<html>\n"))
	f.Fuzz(func(t *testing.T, in []byte) { fuzzCapture(t, in, -1) })
}

func FuzzOpenJSONSeq(f *testing.F) {
	f.Add([]byte("{\n  \"model\": \"m\",\n  \"response\": \"}{\\\"\",\n  \"done\": false\n}\n{\n  \"done\": true\n}\n"))
	f.Add([]byte("\x1e{\"a\":1}\n\x1e[1,\n2]\n\x1eoops\n"))
	f.Add([]byte("[\n{\n\"a\": [\n]]]]}\n{\n\"x\n"))
	f.Fuzz(func(t *testing.T, in []byte) { fuzzCapture(t, in, -1) })
}
