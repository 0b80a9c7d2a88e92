package frontdoor

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLimitAsTheProxyUsesIt: the cap answers 503 in the server's own
// name, logs it in that name, and a capped connection still half-closes
// (a tunnel's one direction ends before the other).
func TestLimitAsTheProxyUsesIt(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := &syncWriter{w: &bytes.Buffer{}}
	ln := Limit(raw, ConnLimits{MaxConns: 1, WriteTimeout: -1, Name: "framescope proxy", Log: log})
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	first, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	server := <-accepted
	cw, ok := server.(interface{ CloseWrite() error })
	if !ok {
		t.Fatal("a capped connection cannot half-close")
	}
	go func() { // the second connection is refused inside Accept
		ln.Accept()
	}()
	second, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	second.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(second, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(second), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(string(body), "framescope proxy: too many connections") {
		t.Errorf("over the cap: %d %q", resp.StatusCode, body)
	}

	// Half-close: the server's side ends its writes, the client reads
	// EOF, and can still send.
	if err := cw.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	first.SetDeadline(time.Now().Add(10 * time.Second))
	if n, err := first.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Fatalf("after CloseWrite the client read %d, %v; want EOF", n, err)
	}
	io.WriteString(first, "still")
	got := make([]byte, 5)
	server.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(server, got); err != nil || string(got) != "still" {
		t.Errorf("after CloseWrite the server read %q, %v", got, err)
	}
	server.Close()
	if !strings.Contains(log.String(), "framescope proxy: 1 connections open, the cap (--max-conns 1)") {
		t.Errorf("log: %q", log.String())
	}
}

// syncWriter is a writer safe to read (String) while another goroutine
// writes it.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}
