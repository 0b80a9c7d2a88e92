package replay

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"framescope/sessions"
)

// The replay server's front door, shared by the capture replay and the
// scenario relay: the DNS-rebinding defence (which Host and Origin headers
// are served), opt-in CORS, the security headers of every response, and the
// deadline for a request's body.

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

// host reports whether a Host header is served.
func (a *AllowList) host(hostHeader string) bool {
	if loopbackHost(hostHeader) {
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

// origin reports whether an Origin header is served.
func (a *AllowList) origin(origin string) bool {
	if loopbackOrigin(origin) {
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

// refuseReason says why a request must be refused by the DNS-rebinding
// defence, or "" to serve it.
func (a *AllowList) refuseReason(req *http.Request) string {
	if !a.host(req.Host) {
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
		if !a.origin(o) {
			return fmt.Sprintf("Origin %s is not a loopback or allowed origin", sessions.CleanShort(strconv.Quote(o), 120))
		}
	}
	return ""
}

// refusedHelp ends a refusal: what is served and how to serve more.
const refusedHelp = ". Only loopback hosts and origins (localhost, 127.0.0.0/8, [::1]) and the ones named by --allow-origin are served," +
	" as a defence against DNS rebinding: restart with --allow-origin HOST (or an origin, http://HOST:PORT) to serve that one" +
	" (and --lan to listen on the network for a device on the LAN).\n"

// DefaultBodyTimeout is how long a client may take to send its request
// body: a client that trickles it would otherwise hold a connection (and a
// goroutine) for as long as it likes.
const DefaultBodyTimeout = 10 * time.Second

// readBody reads (and throws away) up to limit bytes of the request body
// within timeout (0: DefaultBodyTimeout). Reading the body to its end lets
// the server notice at once when the client goes away. On a slow or broken
// body it answers 408 and returns false: the connection is then closed.
func readBody(w http.ResponseWriter, req *http.Request, limit int64, timeout time.Duration) (ok bool, why string) {
	if req.Body == nil || req.Body == http.NoBody {
		return true, ""
	}
	if timeout <= 0 {
		timeout = DefaultBodyTimeout
	}
	rc := http.NewResponseController(w)
	deadlineSet := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
	_, err := io.Copy(io.Discard, io.LimitReader(req.Body, limit))
	if err == nil {
		if deadlineSet {
			// The deadline is for the body only, never for the replay that
			// follows. (net/http lifts it too when its background read
			// starts at the body's end; a body cut at limit has no end.)
			_ = rc.SetReadDeadline(time.Time{})
		}
		return true, ""
	}
	// The deadline stays: net/http would otherwise wait for the rest of
	// the body before closing the connection.
	if errors.Is(err, os.ErrDeadlineExceeded) {
		why = fmt.Sprintf("request body not received within %s", timeout)
	} else {
		why = "request body unreadable: " + sessions.Clean(err.Error())
	}
	w.Header().Set("Connection", "close")
	replayPlainError(w, http.StatusRequestTimeout, "framescope serve: "+why+"\n")
	return false, why
}

// secureHeaders are sent with every response: whatever the capture holds,
// a browser must neither sniff it into HTML nor run it as a page.
func secureHeaders(hdr http.Header) {
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "sandbox")
}

// GuardOptions tunes Guard.
type GuardOptions struct {
	// Allow names the non-loopback hosts and origins served (nil: loopback
	// only).
	Allow *AllowList
	// CORS answers preflights and adds Access-Control-Allow-Origin for the
	// origins served.
	CORS bool
	// BodyTimeout bounds the time to receive a request body (0:
	// DefaultBodyTimeout).
	BodyTimeout time.Duration
	// MaxBody is how much of a body is read (0: 1 MiB); the rest is not.
	MaxBody int64
}

// Guard wraps a handler (the scenario relay) with the replay server's
// front door: the DNS-rebinding defence, opt-in CORS, security headers and
// the body deadline. The request reaches h with its body consumed.
func Guard(h http.Handler, opts GuardOptions) http.Handler {
	maxBody := opts.MaxBody
	if maxBody <= 0 {
		maxBody = 1 << 20
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		secureHeaders(w.Header())
		if why := opts.Allow.refuseReason(req); why != "" {
			replayPlainError(w, http.StatusForbidden, "framescope serve: refused: "+why+refusedHelp)
			return
		}
		if origin := req.Header.Get("Origin"); opts.CORS && origin != "" && headerValueOK(origin) {
			hdr := w.Header()
			hdr.Set("Access-Control-Allow-Origin", origin)
			hdr.Set("Vary", "Origin")
			if req.Method == http.MethodOptions {
				hdr.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
				if ah := req.Header.Get("Access-Control-Request-Headers"); ah != "" && headerValueOK(ah) {
					hdr.Set("Access-Control-Allow-Headers", ah)
				}
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if ok, _ := readBody(w, req, maxBody, opts.BodyTimeout); !ok {
			return
		}
		req.Body = http.NoBody // read here, within the deadline; the rest is not
		h.ServeHTTP(w, req)
	})
}
