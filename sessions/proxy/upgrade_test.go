package proxy

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestUpgradePassesThrough: a WebSocket-style upgrade reaches the
// upstream with its Upgrade and Connection headers, the 101 reaches the
// app, and bytes then flow both ways untouched.
func TestUpgradePassesThrough(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "websocket" || !strings.EqualFold(r.Header.Get("Connection"), "upgrade") {
			http.Error(w, "no upgrade asked", 400)
			return
		}
		conn, brw, _ := http.NewResponseController(w).Hijack()
		defer conn.Close()
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n")
		brw.Flush()
		buf := make([]byte, 5)
		io.ReadFull(brw, buf)
		conn.Write([]byte("echo:" + string(buf)))
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	p, px := startProxy(t, Options{Upstream: u})
	conn, err := net.Dial("tcp", strings.TrimPrefix(px.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: k\r\n\r\nhello")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 101 || resp.Header.Get("Sec-WebSocket-Accept") != "x" {
		t.Fatalf("%v %+v", err, resp)
	}
	got, _ := io.ReadAll(br)
	if string(got) != "echo:hello" {
		t.Fatalf("got %q", got)
	}
	conn.Close()
	if f := waitDone(t, p, 1)[0]; f.Kind != KindWebSocket || f.Bytes != int64(len("hello")+len("echo:hello")) {
		t.Fatalf("flow: %+v", f)
	}
}
