package frontdoor

import (
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// LoopbackHost reports whether a Host header (host or host:port) names this
// machine: localhost (or a name under .localhost), 127.0.0.0/8 or ::1.
func LoopbackHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	} else if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return false
	}
	lh := strings.ToLower(h)
	if lh == "localhost" || strings.HasSuffix(lh, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	return ip.Unmap().IsLoopback()
}

// LoopbackOrigin reports whether an Origin header is an http(s) origin on
// a loopback host. The opaque origin "null" is not.
func LoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return false
	}
	return LoopbackHost(u.Host)
}
