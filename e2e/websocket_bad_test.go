package e2e

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsScript starts a loopback WebSocket server that runs script on each
// connection, and returns its ws:// URL.
func wsScript(t *testing.T, script func(ctx context.Context, c *websocket.Conn, w http.ResponseWriter)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
		defer cancel()
		script(ctx, c, w)
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// Bad input over a live connection: each is a clear message, no panic,
// the exit status an SSE stream would have.
func TestWebSocketBadInput(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	for _, tc := range []struct {
		name   string
		script func(ctx context.Context, c *websocket.Conn, w http.ResponseWriter)
		args   []string
		want   []string
		code   int
	}{
		{"invalid UTF-8 in a text frame", func(ctx context.Context, c *websocket.Conn, _ http.ResponseWriter) {
			c.Write(ctx, websocket.MessageText, []byte("{\"type\":\"a\xff\"}"))
			c.Close(websocket.StatusNormalClosure, "")
		}, nil, []string{"server text message 1 is not valid UTF-8", "frame-utf8"}, 1},
		{"fragmented message", func(ctx context.Context, c *websocket.Conn, _ http.ResponseWriter) {
			wr, _ := c.Writer(ctx, websocket.MessageText)
			wr.Write([]byte(`{"type":`))
			wr.Write([]byte(`"whole"}`))
			wr.Close()
			c.Close(websocket.StatusNormalClosure, "")
		}, nil, []string{`{"type":"whole"}`, "1 frame"}, 0},
		{"close without status", func(ctx context.Context, c *websocket.Conn, _ http.ResponseWriter) {
			c.Write(ctx, websocket.MessageText, []byte(`{"a":1}`))
			c.Close(websocket.StatusNoStatusRcvd, "")
		}, nil, []string{": websocket close", "ended eof"}, 0},
		{"close with an error status", func(ctx context.Context, c *websocket.Conn, _ http.ResponseWriter) {
			c.Write(ctx, websocket.MessageText, []byte(`{"a":1}`))
			c.Close(websocket.StatusInternalError, "boom")
		}, nil, []string{"closed the WebSocket with status 1011 boom", "stream-error"}, 1},
		{"abnormal end", func(ctx context.Context, c *websocket.Conn, w http.ResponseWriter) {
			c.Write(ctx, websocket.MessageText, []byte(`{"a":1}`))
			c.CloseNow()
		}, nil, []string{"without a close frame", "truncated"}, 1},
		{"a message over the bound", func(ctx context.Context, c *websocket.Conn, _ http.ResponseWriter) {
			big := strings.Repeat("x", 20<<20)
			c.Write(ctx, websocket.MessageText, []byte(`{"type":"big","pad":"`+big+`"}`))
			c.Write(ctx, websocket.MessageText, []byte(`{"type":"after"}`))
			c.Close(websocket.StatusNormalClosure, "")
		}, nil, []string{"server message 1 is 20 MiB, over the 16 MiB kept", `{"type":"after"}`}, 1},
		{"100k tiny messages, stopped by --max-frames", func(ctx context.Context, c *websocket.Conn, _ http.ResponseWriter) {
			for i := 0; i < 100000; i++ {
				if c.Write(ctx, websocket.MessageText, []byte(`{}`)) != nil {
					return
				}
			}
			c.Close(websocket.StatusNormalClosure, "")
		}, []string{"--max-frames", "50000"}, []string{"--max-frames 50000 reached"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := wsScript(t, tc.script)
			out := filepath.Join(t.TempDir(), "c.jsonl")
			args := append([]string{"record", url, "-o", out}, tc.args...)
			r := runCLI(t, "", args...)
			all := r.stdout + r.stderr
			d := runCLI(t, "", "dump", out)
			all += d.stdout
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q (exit %d)\n%s", w, r.code, clip(all))
				}
			}
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tc.code, clip(all))
			}
			if strings.Contains(all, "panic") {
				t.Errorf("panic:\n%s", clip(all))
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:1500] + "\n…\n" + s[len(s)-1500:]
	}
	return s
}

// The handshake: a refused upgrade and a redirect are errors that say so,
// before anything is recorded.
func TestWebSocketHandshakeRefused(t *testing.T) {
	t.Setenv("FRAMESCOPE_DATA_DIR", t.TempDir())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/elsewhere?token=s3cret", http.StatusFound)
			return
		}
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	r := runCLI(t, "", "connect", "--headless", "--no-save", url+"/x")
	if r.code == 0 || !strings.Contains(r.stderr, "refused the WebSocket upgrade: HTTP 403") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, "", "connect", "--headless", "--no-save", url+"/moved")
	if r.code == 0 || !strings.Contains(r.stderr, "redirects are not followed") || strings.Contains(r.stderr, "s3cret") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	// Nothing listens: a connect error, no panic.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	r = runCLI(t, "", "connect", "--headless", "--no-save", "ws://"+addr+"/")
	if r.code == 0 || !strings.Contains(r.stderr, "WebSocket handshake") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	_ = os.Getenv
}
