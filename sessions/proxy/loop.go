package proxy

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"

	"framescope/sessions"
	"framescope/sessions/frontdoor"
)

// Loops. A proxy whose upstream is itself (framescope proxy
// http://127.0.0.1:7071 on the default listen address) turned one request
// into thousands of hops; two proxies that point at each other, or a
// forward request addressed to the proxy, would do the same. Three
// defences: an upstream that is the listen address is refused at start-up
// (CheckUpstream), a forward request or CONNECT to the proxy's own address
// is 508 (isSelf), and every request forwarded carries a Via naming this
// proxy (RFC 9110 §7.6.3), so one that comes back through any other proxy
// is 508 too (looped).

// errLoop is a forward request addressed to the proxy itself.
var errLoop = errors.New("the request is addressed to the proxy itself")

// errViaLoop is a request that has passed through this proxy already.
var errViaLoop = errors.New("a loop: the request has passed through this proxy already (its Via header names it); is the upstream, or a proxy on the way, pointing back here?")

// newViaName is this proxy's pseudonym in Via headers: unique per process,
// so a chain of two framescope proxies is no loop, and a request that
// comes back to the same one is.
func newViaName() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "framescope-" + hex.EncodeToString(b[:])
}

// viaEntry is this proxy's Via entry for a message received as proto
// ("1.1", or "2" for HTTP/2: RFC 9110 §7.6.3 leaves out "HTTP/").
func viaEntry(major, minor int, name string) string {
	if major >= 2 {
		return strconv.Itoa(major) + " " + name
	}
	return strconv.Itoa(major) + "." + strconv.Itoa(minor) + " " + name
}

// looped says whether h's Via names this proxy.
func (p *Proxy) looped(h http.Header) bool {
	for _, v := range h.Values("Via") {
		for _, e := range strings.Split(v, ",") {
			f := strings.Fields(textproto.TrimString(e))
			if len(f) >= 2 && f[1] == p.via {
				return true
			}
		}
	}
	return false
}

// isSelf says whether host:port is the proxy's own listen address. Ports
// are compared as numbers (017172 is 17172 to a dialer).
func (p *Proxy) isSelf(hostport string) bool {
	if p.opts.Listen == "" {
		return false
	}
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	return sameAddr(h, port, p.opts.Listen)
}

// sameAddr says whether host and port name the listen address listen
// (HOST:PORT; an empty or unspecified HOST is every interface).
func sameAddr(host, port, listen string) bool {
	lh, lport, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	n, err1 := strconv.ParseUint(port, 10, 16)
	ln, err2 := strconv.ParseUint(lport, 10, 16)
	if err1 != nil || err2 != nil || n != ln || n == 0 {
		return false
	}
	host = strings.TrimSuffix(host, ".")
	lh = strings.TrimSuffix(lh, ".")
	if strings.EqualFold(host, lh) {
		return true
	}
	lip, lerr := netip.ParseAddr(lh)
	everywhere := lh == "" || lerr == nil && lip.IsUnspecified()
	localListen := everywhere || frontdoor.LoopbackHost(lh)
	ip, ierr := netip.ParseAddr(host)
	if ierr == nil {
		ip = ip.Unmap().WithZone("")
	}
	switch {
	case localListen && (frontdoor.LoopbackHost(host) || ierr == nil && ip.IsUnspecified()):
		return true
	case lerr == nil && ierr == nil && lip.Unmap() == ip:
		return true
	case everywhere && ierr == nil:
		for _, a := range frontdoor.LocalAddrs() {
			if a == ip {
				return true
			}
		}
	}
	return false
}

// ParseUpstream parses a reverse proxy's UPSTREAM URL: http or https with
// a host, and nothing the proxy would drop without a word — no user:pass
// (the app's own Authorization is forwarded as sent) and no query (each
// request is forwarded with its own). It refuses the proxy's own listen
// address (a loop). Errors quote the URL with its secrets masked.
func ParseUpstream(raw, listen string) (*url.URL, error) {
	shown := sessions.CleanShort(sessions.RedactURL(raw), 200)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: want the upstream's http:// or https:// URL", shown)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%s: the upstream URL has credentials (user:pass@), which the proxy would not send: drop them; the app's own Authorization header is forwarded as sent", shown)
	}
	if u.RawQuery != "" {
		return nil, fmt.Errorf("%s: the upstream URL has a query, which the proxy would not send: each request is forwarded with its own query, so drop it and let the app send its parameters (an API key in a header, or in the app's requests)", shown)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if sameAddr(u.Hostname(), port, listen) {
		return nil, fmt.Errorf("%s is the proxy's own listen address (--listen %s): every request would come back to the proxy; give the upstream's address (or another --listen)",
			shown, sessions.CleanShort(listen, 80))
	}
	return u, nil
}
