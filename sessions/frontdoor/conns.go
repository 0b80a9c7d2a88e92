package frontdoor

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"framescope/sessions"
)

// What a client can hold of a server is bounded (issue 24 item 12): at
// most MaxConns connections are open at once (one more is answered 503
// and closed), and a client that stops reading is dropped once a write
// has waited WriteTimeout for it (serve: a replay's own pauses are not
// writes, so a replay may still last for hours; the proxy sets none, an
// app paused in a debugger keeps its streams).

const (
	// DefaultMaxConns is serve's and the proxy's --max-conns: far above
	// what a developer's devices and browsers open, far below the
	// process's descriptors.
	DefaultMaxConns = 256
	// DefaultWriteTimeout is serve's --write-timeout: how long one write
	// may wait for a client that does not read.
	DefaultWriteTimeout = 30 * time.Second
	// rejectDrain bounds the time and bytes a refused connection is read
	// for before its 503.
	rejectDrain      = 500 * time.Millisecond
	rejectDrainBytes = 64 << 10
	// maxRejecting bounds the goroutines answering 503 at once.
	maxRejecting = 128
)

// ConnLimits tunes Limit.
type ConnLimits struct {
	MaxConns     int           // 0: DefaultMaxConns
	WriteTimeout time.Duration // 0: DefaultWriteTimeout; negative: none
	Log          io.Writer     // drops and refusals (nil: none)
	// Name starts every log line and 503 body ("framescope serve"; "":
	// "framescope").
	Name string
}

// Listener is a net.Listener whose connections are bounded as ConnLimits
// say. Accept never returns a refused connection.
type Listener struct {
	net.Listener
	max          int
	writeTimeout time.Duration
	log          io.Writer
	logMu        sync.Mutex
	name         string

	active    atomic.Int64
	rejecting chan struct{} // a slot per 503 being answered
	refused   atomic.Int64  // since the cap was last reached
	dropped   atomic.Int64
	total     atomic.Int64 // refused, in all
}

// Limit wraps ln.
func Limit(ln net.Listener, lim ConnLimits) *Listener {
	l := &Listener{Listener: ln, max: lim.MaxConns, writeTimeout: lim.WriteTimeout, log: lim.Log, name: lim.Name,
		rejecting: make(chan struct{}, maxRejecting)}
	if l.name == "" {
		l.name = "framescope"
	}
	if l.max <= 0 {
		l.max = DefaultMaxConns
	}
	if l.writeTimeout == 0 {
		l.writeTimeout = DefaultWriteTimeout
	}
	return l
}

// Active is the number of connections open now.
func (l *Listener) Active() int { return int(l.active.Load()) }

// Refused is the number of connections answered 503 at the cap.
func (l *Listener) Refused() int { return int(l.total.Load()) }

// Dropped is the number of connections closed because the client did not
// read.
func (l *Listener) Dropped() int { return int(l.dropped.Load()) }

// Accept returns the next connection under the cap; one over it is
// answered 503 and closed here.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if n := l.active.Add(1); n <= int64(l.max) {
			return &limitedConn{Conn: c, l: l}, nil
		}
		l.active.Add(-1)
		l.refuse(c)
	}
}

func (l *Listener) refuse(c net.Conn) {
	l.total.Add(1)
	if l.refused.Add(1) == 1 {
		l.logf("%s: %d connections open, the cap (--max-conns %d): refusing more with 503 until one closes (from %s)",
			l.name, l.max, l.max, sessions.CleanShort(c.RemoteAddr().String(), 80))
	}
	// At most maxRejecting answer at once: past it Accept waits for one
	// (the kernel's backlog holds the next connections, not this process).
	l.rejecting <- struct{}{}
	go func() {
		defer func() { <-l.rejecting }()
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(rejectDrain))
		// Read the request's headers first: closing a socket with unread
		// input resets it, and the reset may destroy the 503 before the
		// client reads it.
		readHeaders(c)
		body := fmt.Sprintf("%s: too many connections (%d open, the cap: --max-conns); try again\n", l.name, l.max)
		_, _ = fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"+
			"X-Content-Type-Options: nosniff\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}()
}

// readHeaders reads a refused request up to the end of its headers (or
// rejectDrainBytes, or the deadline).
func readHeaders(c net.Conn) {
	buf := make([]byte, 4<<10)
	var tail []byte
	for read := 0; read < rejectDrainBytes; {
		n, err := c.Read(buf)
		read += n
		tail = append(tail, buf[:n]...)
		if bytes.Contains(tail, []byte("\r\n\r\n")) || bytes.Contains(tail, []byte("\n\n")) || err != nil {
			return
		}
		if len(tail) > 3 {
			tail = tail[len(tail)-3:]
		}
	}
}

// release frees a slot; the first one after refusals reports how many.
func (l *Listener) release() {
	l.active.Add(-1)
	if n := l.refused.Swap(0); n > 0 {
		l.logf("%s: a connection closed; %d refused (503) while at the cap", l.name, n)
	}
}

func (l *Listener) logf(format string, args ...any) {
	if l.log == nil {
		return
	}
	l.logMu.Lock()
	defer l.logMu.Unlock()
	fmt.Fprintf(l.log, format+"\n", args...)
}

// limitedConn holds a slot until closed, and gives every write
// WriteTimeout to complete.
type limitedConn struct {
	net.Conn
	l        *Listener
	once     sync.Once
	timedOut atomic.Bool
}

func (c *limitedConn) Write(p []byte) (int, error) {
	if c.l.writeTimeout < 0 {
		return c.Conn.Write(p)
	}
	// Set before every write: the handler may have cleared it (a replay
	// lifts the server's deadlines), and a pause between writes is not the
	// client's doing.
	_ = c.Conn.SetWriteDeadline(time.Now().Add(c.l.writeTimeout))
	n, err := c.Conn.Write(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && c.timedOut.CompareAndSwap(false, true) {
		c.l.dropped.Add(1)
		c.l.logf("%s: dropped %s: it read nothing for %s (--write-timeout)", c.l.name, sessions.CleanShort(c.RemoteAddr().String(), 80), c.l.writeTimeout)
		// Close now: net/http would otherwise try to finish the response.
		c.Close()
	}
	return n, err
}

func (c *limitedConn) Close() error {
	c.once.Do(c.l.release)
	return c.Conn.Close()
}

// CloseWrite half-closes the connection when it can (a tunnel's one
// direction may end before the other), else closes it.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}
