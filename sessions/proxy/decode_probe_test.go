package proxy

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"framescope/sessions/library"
)

// TestUndecodableBodyRecordedAsItCame (item 12): plain bytes labelled
// gzip, and six stacked codings, are recorded and checked as they came
// (no decoded_from), the failure named in an error alarm and the end
// line; the recording held 0 body bytes before. A gzip body cut short is
// recorded decoded as before.
func TestUndecodableBodyRecordedAsItCame(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("data: {\"x\":1}\n\n"))
	zw.Close()
	plain := []byte("data: {\"choices\":[]}\n\ndata: [DONE]\n\n")
	for _, c := range []struct {
		name, enc string
		body      []byte
		want      string
	}{
		{"plain labelled gzip", "gzip", plain, "gzip: invalid header"},
		{"stacked 6", "gzip, gzip, gzip, gzip, gzip, gzip", gz.Bytes(), "stacks 6 codings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", c.enc)
				w.Write(c.body)
			}))
			defer up.Close()
			u, _ := url.Parse(up.URL)
			lib := &library.Library{Dir: t.TempDir()}
			p, px := startProxy(t, Options{Upstream: u, Library: lib})
			if got := rawGet(t, px.URL); !bytes.Equal(got, c.body) {
				t.Fatal("the app's bytes changed")
			}
			f := waitDone(t, p, 1)[0]
			rec := recordedOne(t, lib)
			if bytes.Contains(rec, []byte("decoded_from")) {
				t.Errorf("the recording says it is decoded:\n%s", rec)
			}
			var body int
			for _, line := range strings.Split(string(rec), "\n") {
				if strings.HasPrefix(line, `{"t":`) && !strings.Contains(line, `"end":`) {
					body++
				}
			}
			if body == 0 {
				t.Errorf("the recording holds no body line:\n%s", rec)
			}
			if l := lastLine(rec); !strings.Contains(l, `"end":"error: `) || !strings.Contains(l, c.want) {
				t.Errorf("end line %q, want the failure named", l)
			}
			if !strings.Contains(rules(f), "capture-corrupt") || !strings.Contains(f.Err, c.want) {
				t.Errorf("alarms %s, err %q: want capture-corrupt and the failure", rules(f), f.Err)
			}
			t.Logf("%d-byte body: recording %d bytes, %d body lines; %s", len(c.body), len(rec), body, lastLine(rec))
		})
	}
}
