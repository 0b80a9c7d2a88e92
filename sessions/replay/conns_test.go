package replay

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rpLimited serves h behind Limit on a real loopback listener.
func rpLimited(t *testing.T, h http.Handler, lim ConnLimits) (*Listener, string) {
	t.Helper()
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Limit(raw, lim)
	srv := NewServer(h)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln, raw.Addr().String()
}

// rpEventually polls cond (a state, never a duration under test) and
// fails when it does not hold after a generous while.
func rpEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 600; i++ {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("never: %s", what)
}

// rpRawGet opens a TCP connection and sends a GET; it reads nothing.
func rpRawGet(t *testing.T, addr, extra string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := fmt.Fprintf(c, "GET /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n", extra); err != nil {
		t.Fatal(err)
	}
	return c
}

// rpStatus reads a response's status line and body start from a raw
// connection.
func rpStatus(t *testing.T, c net.Conn) (int, string) {
	t.Helper()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	buf := make([]byte, 512)
	n, _ := io.ReadAtLeast(resp.Body, buf, 1)
	return resp.StatusCode, string(buf[:n])
}

// TestServeDropsClientsThatNeverRead (issue 24 item 12): clients that send
// a request for an endless replay and never read are dropped once a write
// has waited WriteTimeout, each logged, and release every connection.
func TestServeDropsClientsThatNeverRead(t *testing.T) {
	r := rpReplayOf([][]byte{rpStream(50, 1000)})
	opts := rpFast()
	opts.Loop = true
	lg := &rpLog{}
	ln, addr := rpLimited(t, r.Handler(opts), ConnLimits{WriteTimeout: 200 * time.Millisecond, Log: lg})
	const clients = 20
	for range clients {
		rpRawGet(t, addr, "")
	}
	rpEventually(t, "every client that never reads is dropped", func() bool { return ln.Dropped() == clients })
	rpEventually(t, "every connection released", func() bool { return ln.Active() == 0 })
	if n := strings.Count(lg.String(), "read nothing for 200ms"); n != clients {
		t.Errorf("%d drops logged, want %d:\n%s", n, clients, lg.String())
	}
	rpNoHandlerGoroutines(t)
}

// TestServeReaderKeptThroughPauses: a client that reads is never dropped,
// however long the replay pauses between writes (the deadline is per
// write).
func TestServeReaderKeptThroughPauses(t *testing.T) {
	ln2, addr2 := rpLimited(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		for i := range 3 {
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
			time.Sleep(300 * time.Millisecond) // a pause longer than the write timeout
		}
	}), ConnLimits{WriteTimeout: 100 * time.Millisecond})
	resp, err := http.Get("http://" + addr2 + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(body) != "data: 0\n\ndata: 1\n\ndata: 2\n\n" || ln2.Dropped() != 0 {
		t.Errorf("body %q, err %v, dropped %d", body, err, ln2.Dropped())
	}
}

// TestServeConnectionCap: past MaxConns a connection is answered 503 (and
// logged) while the held ones stay served; a closed one frees its slot.
func TestServeConnectionCap(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hold := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(200)
		io.WriteString(w, "held")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-req.Context().Done():
		}
	})
	lg := &rpLog{}
	const limit = 4
	ln, addr := rpLimited(t, hold, ConnLimits{MaxConns: limit, Log: lg})
	var held []net.Conn
	for range limit {
		c := rpRawGet(t, addr, "")
		if st, body := rpStatus(t, c); st != 200 || body != "held" {
			t.Fatalf("under the cap: %d %q", st, body)
		}
		held = append(held, c)
	}
	const extra = 10
	for range extra {
		c := rpRawGet(t, addr, "")
		if st, body := rpStatus(t, c); st != http.StatusServiceUnavailable || !strings.Contains(body, "--max-conns") {
			t.Errorf("over the cap: %d %q", st, body)
		}
	}
	if ln.Active() != limit || ln.Refused() != extra {
		t.Errorf("active %d, refused %d; want %d, %d", ln.Active(), ln.Refused(), limit, extra)
	}
	held[0].Close()
	rpEventually(t, "a closed connection frees its slot", func() bool { return ln.Active() == limit-1 })
	if st, _ := rpStatus(t, rpRawGet(t, addr, "")); st != 200 {
		t.Errorf("after a slot freed: %d", st)
	}
	log := lg.String()
	if !strings.Contains(log, "--max-conns 4") || !strings.Contains(log, fmt.Sprintf("%d refused (503)", extra)) {
		t.Errorf("log:\n%s", log)
	}
}

// TestEveryOriginChecked (issue 24 item 12): a request with a loopback
// Origin and a second, foreign one is refused, by the replay and by the
// relay's Guard alike; one allowed Origin is served.
func TestEveryOriginChecked(t *testing.T) {
	r := rpReplayOf([][]byte{rpStream(2, 0)})
	ok := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { io.WriteString(w, "ok") })
	for name, h := range map[string]http.Handler{"replay": r.Handler(rpFast()), "guard": Guard(ok, GuardOptions{})} {
		_, addr := rpLimited(t, h, ConnLimits{})
		for _, tc := range []struct {
			headers string
			want    int
		}{
			{"Origin: http://localhost:5173\r\n", 200},
			{"Origin: http://localhost:5173\r\nOrigin: http://attacker.example\r\n", http.StatusForbidden},
			{"Origin: http://attacker.example\r\nOrigin: http://localhost:5173\r\n", http.StatusForbidden},
			{"Origin: http://localhost:5173\r\nOrigin: http://localhost:5173\r\n", http.StatusForbidden},
		} {
			if st, body := rpStatus(t, rpRawGet(t, addr, tc.headers+"Connection: close\r\n")); st != tc.want {
				t.Errorf("%s %q: status %d (%q), want %d", name, tc.headers, st, body, tc.want)
			}
		}
	}
}
