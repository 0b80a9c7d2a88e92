package proxy

import (
	"net/http"
	"net/url"
	"time"

	"framescope/sessions"
)

// The proxy's front door is serve's (sessions/frontdoor): the
// DNS-rebinding defence never turns off. A page on evil.example whose name
// is rebound to 127.0.0.1 reaches the proxy with Host: evil.example and a
// foreign Origin; the proxy would answer it with the upstream's response
// (and, as it sends the upstream's own Host, the upstream's guard could
// not tell). So every request addressed to the proxy itself — any request
// to a reverse proxy, an origin-form request to a forward proxy — must
// carry a loopback Host (or this machine's address, or one --allow-origin
// names) and no foreign Origin.
//
// Absolute-form requests and CONNECT are not addressed to the proxy: they
// name their target in the request line, and a browser sends them only to
// a proxy it was configured to use, never to a page's rebound name. Their
// Host is the target's and their Origin the page's, for the target to
// judge; the guard leaves them alone.

// refusedHelp ends a refusal: what is proxied and how to allow more.
const refusedHelp = ". Only loopback hosts and origins (localhost, 127.0.0.0/8, [::1]) and the ones named by --allow-origin are proxied," +
	" as a defence against DNS rebinding: restart with --allow-origin HOST (or an origin, http://HOST:PORT) to allow that one" +
	" (with --allow-remote, this machine's own addresses are allowed as Host).\n"

// guarded answers 403 and lists the flow when the guard refuses r (target
// is where it would have gone); it reports whether it did.
func (p *Proxy) guarded(w http.ResponseWriter, r *http.Request, target *url.URL) bool {
	why := p.opts.Allow.RefuseReason(r)
	if why == "" {
		return false
	}
	where := r.URL.String()
	if target != nil {
		where = target.String()
	}
	lf := &liveFlow{Flow: Flow{Kind: KindHTTP, Method: r.Method, URL: sessions.RedactURL(where), Host: r.Host, Started: time.Now(),
		Status: http.StatusForbidden, Done: true, Err: "refused: " + why}}
	p.book.start(lf)
	p.book.update(lf, func(*Flow) {})
	http.Error(w, "framescope proxy: refused: "+why+refusedHelp, http.StatusForbidden)
	return true
}
