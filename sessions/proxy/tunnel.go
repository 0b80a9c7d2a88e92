package proxy

import (
	"net"
	"net/http"
	"time"

	"framescope/decode"
	"framescope/sessions"
)

// connect answers CONNECT host:port (RFC 9110 §9.3.6): decrypted with the
// local CA when --mitm covers the host (mitm.go), else a blind tunnel
// listed as host, bytes and time.
func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	authority := r.Host
	if authority == "" {
		authority = r.URL.Host
	}
	host, port, err := net.SplitHostPort(authority)
	if err != nil || host == "" || port == "" {
		http.Error(w, "framescope proxy: CONNECT wants host:port", http.StatusBadRequest)
		return
	}
	if p.isSelf(authority) {
		http.Error(w, "framescope proxy: "+errLoop.Error(), http.StatusLoopDetected)
		return
	}
	if p.refuseLoopbackTarget(w, r, authority) {
		return
	}
	if p.mitmHost(host) {
		p.mitm(w, r, authority, host)
		return
	}
	lf := &liveFlow{Flow: Flow{Kind: KindTunnel, Method: http.MethodConnect, URL: decode.Sanitize(authority), Host: authority, Started: time.Now()}}
	p.book.start(lf)
	upstream, err := (&net.Dialer{Timeout: 30 * time.Second}).DialContext(r.Context(), "tcp", authority)
	if err != nil {
		p.fail(w, lf, "upstream "+decode.Sanitize(authority)+": "+sessions.Clean(err.Error()))
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		upstream.Close()
		p.fail(w, lf, "this connection cannot be tunnelled: "+err.Error())
		return
	}
	defer conn.Close()
	defer upstream.Close()
	defer p.track(conn)()
	p.book.update(lf, func(f *Flow) { f.Status = http.StatusOK })
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		p.book.update(lf, func(f *Flow) { f.Err, f.Done, f.Duration = err.Error(), true, time.Since(f.Started) })
		return
	}
	pipe(conn, brw.Reader, upstream.(*net.TCPConn), &lf.bytes)
	p.book.update(lf, func(f *Flow) { f.Done, f.Duration = true, time.Since(f.Started) })
}
