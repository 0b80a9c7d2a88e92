package frontdoor

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"framescope/sessions"
)

// The DNS-rebinding defence of every framescope server on this machine
// (serve's replay and relay, the proxy): which Host and Origin headers are
// answered. It never turns off; --allow-origin names more.

// AllowList says which Host and Origin headers the server answers besides
// loopback ones. A page on attacker.example whose name is rebound to
// 127.0.0.1 sends Host: attacker.example, so refusing every name we were not
// told about defeats DNS rebinding; the nil list allows loopback only.
type AllowList struct {
	entries []allowEntry
	// addrs are this machine's own addresses (serve --lan): a Host header
	// that is one of them as an IP literal is served. An IP literal cannot
	// be a rebound name.
	addrs map[netip.Addr]bool
}

// allowEntry is one --allow-origin value: a host, with an optional scheme
// (then it also names a web origin exactly) and port.
type allowEntry struct {
	scheme string // "" = http or https
	host   string // lower case, no trailing dot, IPv6 without brackets
	port   string // "" = any port
}

// ParseAllowList parses --allow-origin values: HOST, HOST:PORT or an origin
// (http[s]://HOST[:PORT]). An Origin header matches an entry with the same
// host, port (when the entry has one) and scheme (idem). A Host header
// matches an entry with the same host, and the same port when the entry is
// HOST:PORT (an origin's port is its page's, not this server's). There is
// no wildcard: switching the defence off for every name is exactly what DNS
// rebinding needs.
func ParseAllowList(values []string) (*AllowList, error) {
	a := &AllowList{}
	for _, v := range values {
		e, err := parseAllowEntry(v)
		if err != nil {
			return nil, fmt.Errorf("--allow-origin %s: %w", sessions.CleanShort(strconv.Quote(v), 80), err)
		}
		a.entries = append(a.entries, e)
	}
	return a, nil
}

func parseAllowEntry(v string) (allowEntry, error) {
	const want = "want a host (phone.lan, 192.168.1.20), HOST:PORT or an origin (http://HOST:PORT)"
	s := strings.TrimSpace(v)
	switch {
	case s == "":
		return allowEntry{}, errors.New("empty; " + want)
	case s == "*" || strings.Contains(s, "*"):
		return allowEntry{}, errors.New("no wildcards: name each host or origin (the DNS-rebinding defence stays on for every other name)")
	case strings.HasPrefix(s, "-"):
		return allowEntry{}, errors.New("looks like a flag: --allow-origin now takes a value; " + want)
	case strings.EqualFold(s, "null"):
		return allowEntry{}, errors.New(`the opaque origin "null" (sandboxed pages, files) cannot be allowed`)
	}
	var e allowEntry
	hostport := s
	if i := strings.Index(s, "://"); i >= 0 {
		u, err := url.Parse(s)
		if err != nil {
			return e, errors.New(want)
		}
		e.scheme = strings.ToLower(u.Scheme)
		if e.scheme != "http" && e.scheme != "https" {
			return e, errors.New("an origin's scheme is http or https")
		}
		if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return e, errors.New("an origin is scheme://HOST[:PORT], nothing more")
		}
		hostport = u.Host
	}
	if strings.ContainsAny(hostport, "/?#@ \t") {
		return e, errors.New(want)
	}
	e.host, e.port = splitHostPort(hostport)
	if e.host == "" {
		return e, errors.New("no host; " + want)
	}
	if e.port != "" {
		if n, err := strconv.Atoi(e.port); err != nil || n < 1 || n > 65535 {
			return e, fmt.Errorf("port %s is not a port number", sessions.CleanShort(e.port, 20))
		}
	}
	return e, nil
}

// splitHostPort splits host[:port] (IPv6 in brackets) and normalises the
// host: lower case, no trailing dot, no brackets. The port may be "".
func splitHostPort(hp string) (host, port string) {
	host = hp
	if h, p, err := net.SplitHostPort(hp); err == nil {
		host, port = h, p
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	return strings.ToLower(strings.TrimSuffix(host, ".")), port
}

// AddAddrs allows Host headers that are these addresses (this machine's, for
// serve --lan: what a phone types).
func (a *AllowList) AddAddrs(addrs ...netip.Addr) {
	if a.addrs == nil {
		a.addrs = make(map[netip.Addr]bool)
	}
	for _, ip := range addrs {
		a.addrs[ip.Unmap().WithZone("")] = true
	}
}

// Len is the number of --allow-origin entries.
func (a *AllowList) Len() int {
	if a == nil {
		return 0
	}
	return len(a.entries)
}

// Host reports whether a Host header is served.
func (a *AllowList) Host(hostHeader string) bool {
	if LoopbackHost(hostHeader) {
		return true
	}
	if a == nil {
		return false
	}
	h, p := splitHostPort(hostHeader)
	if h == "" {
		return false
	}
	if ip, err := netip.ParseAddr(h); err == nil && a.addrs[ip.Unmap().WithZone("")] {
		return true
	}
	for _, e := range a.entries {
		// An origin's port is the page's, not this server's.
		if e.host == h && (e.port == "" || e.scheme != "" || e.port == p) {
			return true
		}
	}
	return false
}

// Origin reports whether an Origin header is served.
func (a *AllowList) Origin(origin string) bool {
	if LoopbackOrigin(origin) {
		return true
	}
	if a == nil {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return false
	}
	h, p := splitHostPort(u.Host)
	if ip, err := netip.ParseAddr(h); err == nil && a.addrs[ip.Unmap().WithZone("")] {
		return true // a page this machine serves on its own address
	}
	if p == "" {
		p = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	for _, e := range a.entries {
		if e.host == h && (e.scheme == "" || e.scheme == scheme) && (e.port == "" || e.port == p) {
			return true
		}
	}
	return false
}

// RefuseReason says why a request must be refused by the DNS-rebinding
// defence, or "" to serve it.
func (a *AllowList) RefuseReason(req *http.Request) string {
	if !a.Host(req.Host) {
		if req.Host == "" {
			return "the request has no Host header"
		}
		return fmt.Sprintf("Host %s is not a loopback address or an allowed host", sessions.CleanShort(strconv.Quote(req.Host), 120))
	}
	// Every Origin header counts, not only the first: a browser sends one
	// (RFC 6454 §7.3), so more than one is forged or relayed and no one of
	// them can be trusted to be the page's.
	origins := req.Header.Values("Origin")
	if len(origins) > 1 {
		return fmt.Sprintf("%d Origin headers (a browser sends one)", len(origins))
	}
	for _, o := range origins {
		if !a.Origin(o) {
			return fmt.Sprintf("Origin %s is not a loopback or allowed origin", sessions.CleanShort(strconv.Quote(o), 120))
		}
	}
	return ""
}
