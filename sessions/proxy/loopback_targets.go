package proxy

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"time"

	"framescope/decode"
	"framescope/sessions"
	"framescope/sessions/frontdoor"
)

// With --allow-remote, other devices use this proxy; without this guard
// they also reached this machine's loopback-only services through it
// (absolute-form GET http://127.0.0.1:PORT/, CONNECT 127.0.0.1:PORT): a
// forward-proxy target on this machine's loopback is refused to a client
// that is not on this machine, unless Options.AllowLoopbackTargets
// (--allow-loopback-targets). The reverse proxy's upstream is the user's
// choice and stays reachable.

// loopbackTarget says whether host (a URL's host or a CONNECT authority)
// is this machine's loopback: localhost, 127.0.0.0/8, ::1, the
// unspecified address (which Linux connects to loopback), or a name that
// resolves to one of them.
func loopbackTarget(ctx context.Context, host string) bool {
	if frontdoor.LoopbackHost(host) {
		return true
	}
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Unmap().IsUnspecified()
	}
	if h == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", h)
	if err != nil {
		return false // the dial fails the same way
	}
	for _, a := range addrs {
		if a.Unmap().IsLoopback() || a.Unmap().IsUnspecified() {
			return true
		}
	}
	return false
}

// remoteClient says whether the request came from another machine.
func remoteClient(r *http.Request) bool {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	return err == nil && !ap.Addr().Unmap().IsLoopback()
}

// refuseLoopbackTarget answers 403 to a remote client asking for a
// target on this machine's loopback, and says whether it did.
func (p *Proxy) refuseLoopbackTarget(w http.ResponseWriter, r *http.Request, host string) bool {
	if p.opts.AllowLoopbackTargets || !remoteClient(r) || !loopbackTarget(r.Context(), host) {
		return false
	}
	why := decode.Sanitize(host) + " is this machine's loopback, which a client on another machine may not reach through the proxy (--allow-loopback-targets allows it)"
	lf := &liveFlow{Flow: Flow{Kind: KindHTTP, Method: r.Method, URL: sessions.RedactURL(r.URL.String()), Host: decode.Sanitize(host), Started: time.Now(),
		Status: http.StatusForbidden, Done: true, Err: "refused: " + why}}
	p.book.start(lf)
	p.book.update(lf, func(*Flow) {})
	http.Error(w, "framescope proxy: refused: "+why, http.StatusForbidden)
	return true
}
