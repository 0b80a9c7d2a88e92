package proxy

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"framescope/decode"
	"framescope/sessions"
)

// mitm decrypts a CONNECT tunnel: the app gets a certificate for host
// signed by the local CA (which it must trust: framescope proxy ca),
// and every request inside is forwarded to https://authority like any
// other, recorded and checked. The app side speaks HTTP/1.1 (ALPN);
// the upstream side HTTP/2 where the upstream offers it.
func (p *Proxy) mitm(w http.ResponseWriter, r *http.Request, authority, host string) {
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "framescope proxy: this connection cannot be tunnelled", http.StatusInternalServerError)
		return
	}
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		conn.Close()
		return
	}
	defer p.track(conn)()
	var raw net.Conn = conn
	if n := brw.Reader.Buffered(); n > 0 { // a ClientHello sent without waiting for the 200
		b, _ := brw.Reader.Peek(n)
		raw = &prefixConn{Conn: conn, prefix: append([]byte(nil), b...)}
	}
	tconn := tls.Server(raw, &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"http/1.1"},
		GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			name := host
			if hello.ServerName != "" {
				name = hello.ServerName
			}
			return p.opts.CA.Leaf(name)
		},
	})
	tconn.SetDeadline(time.Now().Add(30 * time.Second))
	if err := tconn.HandshakeContext(r.Context()); err != nil {
		// The app did not trust the CA, most often: list it, as a tunnel.
		lf := &liveFlow{Flow: Flow{Kind: KindTunnel, Method: http.MethodConnect, URL: decode.Sanitize(authority), Host: authority,
			Started: time.Now(), Done: true, Err: "TLS handshake with the app failed (does it trust the framescope CA? framescope proxy ca): " + sessions.Clean(err.Error())}}
		p.book.start(lf)
		tconn.Close()
		return
	}
	tconn.SetDeadline(time.Time{})
	ln := newOneConnListener(tconn)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, in *http.Request) {
			if refusePriorKnowledge(w, in) {
				return
			}
			target := *in.URL
			target.Scheme, target.Host = "https", authority
			p.forward(w, in, &target)
		}),
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ConnState: func(c net.Conn, s http.ConnState) {
			if s == http.StateClosed || s == http.StateHijacked {
				ln.Close()
			}
		},
		ErrorLog: discardLog,
	}
	srv.Serve(ln)
}

// prefixConn reads prefix before the connection.
type prefixConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixConn) Read(p []byte) (int, error) {
	if len(c.prefix) > 0 {
		n := copy(p, c.prefix)
		c.prefix = c.prefix[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// oneConnListener hands out one connection, then waits until it is closed.
type oneConnListener struct {
	conn   net.Conn
	once   sync.Once
	closed chan struct{}
	mu     sync.Mutex
	given  bool
}

func newOneConnListener(c net.Conn) *oneConnListener {
	return &oneConnListener{conn: c, closed: make(chan struct{})}
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	if !l.given {
		l.given = true
		l.mu.Unlock()
		return l.conn, nil
	}
	l.mu.Unlock()
	<-l.closed
	return nil, errors.New("connection closed")
}

func (l *oneConnListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *oneConnListener) Addr() net.Addr { return l.conn.LocalAddr() }
