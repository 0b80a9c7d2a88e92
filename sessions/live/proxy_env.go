package live

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strings"

	"framescope/sessions"
)

// framescope connects directly, never through a proxy (issue 24 item 10).
// A proxy in the path changes what is being debugged — it may buffer the
// stream, change its timing, or answer for the server — and a plain-HTTP
// proxy would see the target's Authorization. curl's -x is refused for
// that reason ("framescope connects directly, without a proxy"); the
// environment's proxy is ignored to match, and said so: a note when a
// response came, a clause in the error when none did (a host reachable
// only through the proxy then fails with a message that says why).
//
// The variables are curl's (curl(1), ENVIRONMENT): http_proxy (curl reads
// only the lower-case one for http, Go's net/http both), HTTPS_PROXY,
// ALL_PROXY, each in either case, and NO_PROXY's exclusions.

// envProxyFor names the environment variable that would send u through a
// proxy (with the proxy, its userinfo masked), or "" when none applies.
func envProxyFor(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	names := []string{scheme + "_proxy", strings.ToUpper(scheme) + "_PROXY", "all_proxy", "ALL_PROXY"}
	for _, name := range names {
		v := strings.TrimSpace(os.Getenv(name))
		if v == "" {
			continue
		}
		if noProxy(u.Hostname()) {
			return ""
		}
		return fmt.Sprintf("%s=%s", name, sessions.CleanShort(sessions.RedactURL(v), 120))
	}
	return ""
}

// noProxy reports whether NO_PROXY (or no_proxy) exempts host: "*", a
// domain (with or without a leading dot: it and its subdomains), an IP
// address or a CIDR block, comma-separated; ports are ignored.
func noProxy(host string) bool {
	list := os.Getenv("no_proxy")
	if list == "" {
		list = os.Getenv("NO_PROXY")
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	ip, ipErr := netip.ParseAddr(host)
	for _, e := range strings.Split(list, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if e == "*" {
			return true
		}
		if h, _, err := net.SplitHostPort(e); err == nil {
			e = h
		}
		if p, err := netip.ParsePrefix(e); err == nil {
			if ipErr == nil && p.Contains(ip.Unmap()) {
				return true
			}
			continue
		}
		e = strings.TrimSuffix(strings.TrimPrefix(e, "."), ".")
		if host == e || strings.HasSuffix(host, "."+e) {
			return true
		}
	}
	return false
}

// ignoredProxyNote is the note (and error clause) for an ignored proxy.
func ignoredProxyNote(env string) string {
	return env + " is set: framescope ignores it and connects directly, without a proxy (as it refuses curl's -x); unset it, or add the host to NO_PROXY, to silence this"
}
