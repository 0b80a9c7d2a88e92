package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsServer is a loopback WebSocket server: it answers each client text
// message with answer(msg), after sending hello, and closes as end says.
type wsServer struct {
	hello  []string
	answer func(msg string) []string
	// end: "close" (1000), "abrupt" (no close frame), "code" (1011), "none" (wait)
	end    string
	header http.Header // the handshake's headers, as received
	proto  string
}

func (s *wsServer) start(t *testing.T) string {
	t.Helper()
	got := make(chan http.Header, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- r.Header.Clone():
		default:
		}
		var protos []string
		if s.proto != "" {
			protos = []string{s.proto}
		}
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: protos})
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		for _, m := range s.hello {
			c.Write(ctx, websocket.MessageText, []byte(m))
		}
		if s.answer != nil {
			for {
				_, b, err := c.Read(ctx)
				if err != nil {
					return
				}
				out := s.answer(string(b))
				for _, m := range out {
					if m == "<end>" {
						goto end
					}
					c.Write(ctx, websocket.MessageText, []byte(m))
				}
			}
		}
	end:
		switch s.end {
		case "abrupt":
			c.CloseNow()
		case "code":
			c.Close(websocket.StatusInternalError, "boom")
		default:
			c.Close(websocket.StatusNormalClosure, "bye")
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case s.header = <-got:
		default:
		}
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// connect → record → check: a two-way session through the binary; the
// client's messages are sent in order, each after the server's answer,
// recorded with their direction, and the capture checks as the live run.
func TestWebSocketRecordAndCheck(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	n := 0
	// No hello: with --send-after-each the answer to a message is the next
	// server message after it (docs/websocket.md), and a greeting racing
	// the first message would count as its answer.
	s := &wsServer{
		answer: func(m string) []string {
			n++
			if n == 2 {
				return []string{`{"type":"answer","n":2}`, "<end>"}
			}
			return []string{`{"type":"answer","n":1}`}
		},
	}
	url := s.start(t)
	dir := t.TempDir()
	msgs := filepath.Join(dir, "msgs.jsonl")
	os.WriteFile(msgs, []byte("{\"type\":\"one\"}\n\n{\"type\":\"two\",\"api_key\":\"sk-secret\"}\n"), 0o600)
	out := filepath.Join(dir, "ws.jsonl")
	r := runCLI(t, "", "record", url+"/v1?key=topsecret", "--send", "@"+msgs, "--send-after-each", "-H", "Sec-WebSocket-Protocol: realtime, openai-insecure-api-key.sk-abc123", "-o", out)
	if r.code != 0 {
		t.Fatalf("record: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, _ := os.ReadFile(out)
	capt := string(data)
	for _, want := range []string{`"framescope_capture":2`, `"transport":"websocket"`, `"from":"client"`, `"op":"close","code":1000,"reason":"bye"`, `openai-insecure-api-key.[redacted]`, `"end":"eof"`} {
		if !strings.Contains(capt, want) {
			t.Errorf("capture lacks %s:\n%s", want, capt)
		}
	}
	for _, secret := range []string{"sk-secret", "sk-abc123", "topsecret"} {
		if strings.Contains(capt, secret) {
			t.Errorf("capture holds the secret %s:\n%s", secret, capt)
		}
	}
	// The order: one, answer 1, two, answer 2, close (the server's hello
	// races the first message: it may come before or after it).
	order := []string{`\"one\"`, `\"n\":1`, `\"two\"`, `\"n\":2`, `"op":"close"`}
	at := 0
	for _, o := range order {
		i := strings.Index(capt[at:], o)
		if i < 0 {
			t.Fatalf("capture out of order at %s:\n%s", o, capt)
		}
		at += i
	}
	d := runCLI(t, "", "dump", out)
	if !strings.Contains(d.stdout, "from=client") || !strings.Contains(d.stdout, ": websocket close 1000 bye") {
		t.Errorf("dump:\n%s", d.stdout)
	}
	c := runCLI(t, "", "check", "@last")
	if c.code != 0 || !strings.Contains(c.stdout, "4 frames") {
		t.Errorf("check @last: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
}

// A connection that ends without a close frame is truncated, and says so
// (stream-error, exit 1, as an SSE stream cut by a transport error).
func TestWebSocketAbnormalEnd(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	s := &wsServer{hello: []string{`{"type":"hello"}`}, end: "abrupt"}
	url := s.start(t)
	r := runCLI(t, "", "connect", "--headless", "--no-save", url)
	if !strings.Contains(r.stdout+r.stderr, "without a close frame") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r.code != 1 || !strings.Contains(r.stdout, "stream-error") {
		t.Errorf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// --send is refused for an HTTP URL; -d for a WebSocket one.
func TestWebSocketFlagsRefused(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	r := runCLI(t, "", "connect", "--headless", "--no-save", "--send", "x", "http://127.0.0.1:1/")
	if r.code == 0 || !strings.Contains(r.stderr, "ws://") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, "", "connect", "--headless", "--no-save", "-d", "x", "ws://127.0.0.1:1/")
	if r.code == 0 || !strings.Contains(r.stderr, "--send") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
}
