package proxy

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestStreamWhileTheAppStillSends: the upstream answers (and streams)
// before it has read the app's request body, as a streaming upload or a
// fast server does. An HTTP/1 server stops a request body once the
// response starts unless full duplex is on: the upstream then lost the
// rest of the body and the app lost the rest of the stream (flaky "unexpected
// EOF", about one run in thirty before the fix).
func TestStreamWhileTheAppStillSends(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex() // this upstream reads while it answers
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"first\":true}\n\n")
		w.(http.Flusher).Flush()
		got, err := io.ReadAll(r.Body)
		if err != nil || string(got) != "part one, part two" {
			io.WriteString(w, "data: {\"body\":\"lost\"}\n\n")
			return
		}
		io.WriteString(w, "data: {\"body\":\"whole\"}\n\n")
	}))
	t.Cleanup(up.Close)
	u, _ := url.Parse(up.URL)
	_, px := startProxy(t, Options{Upstream: u})

	pr, pw := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // fail, never hang
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", px.URL+"/upload", pr)
	done := make(chan *http.Response, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			close(done)
			return
		}
		done <- resp
	}()
	io.WriteString(pw, "part one, ")
	resp := <-done // the answer starts before the body is whole
	if resp == nil {
		return
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "first") {
		t.Fatalf("first event %q, %v", line, err)
	}
	io.WriteString(pw, "part two")
	pw.Close()
	rest, err := io.ReadAll(br)
	if err != nil || !strings.Contains(string(rest), `"whole"`) {
		t.Fatalf("rest %q, %v: the upstream lost the app's body", rest, err)
	}
}
