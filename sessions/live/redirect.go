package live

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"framescope/sessions"
)

// Redirects are handled as curl handles them: a turn request carries
// credentials (-H Authorization, cookies, API keys) and a redirect is the
// server's choice of where they go next.
//
//   - Without FollowRedirects (-L), none is followed: the 3xx is the
//     response (http-status fires, Location is shown).
//   - With it, at most maxRedirects hops; never from https to http (the
//     request would go in cleartext: the 3xx is then the response, with a
//     note); from the first hop that leaves the origin on, the user's
//     headers are dropped (only framescope's defaults are sent), and no
//     Referer is ever added (Go's client would put the previous URL, query
//     secrets included, in it).

// redirects follows the hops of one request.
type redirects struct {
	opts        ConnectOptions
	userReferer bool // -H Referer: kept on same-origin hops
	crossed     bool // a hop left the origin: user headers are gone for good
	hops        []string
	refused     string // why the last 3xx was not followed ("" when it was)
}

// errRedirectLoop marks the hop cap.
var errRedirectLoop = errors.New("redirect loop")

// check is the http.Client's CheckRedirect: req is the next hop, via the
// requests made so far.
func (r *redirects) check(req *http.Request, via []*http.Request) error {
	prev := via[len(via)-1].URL
	if !r.opts.FollowRedirects {
		r.refused = "redirects are not followed (-L / --location follows them)"
		return http.ErrUseLastResponse
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("%w: stopped after %d redirects (the last one to %s)", errRedirectLoop, maxRedirects, sessions.Clean(sessions.RedactURLIf(req.URL.String(), r.opts.KeepSecrets)))
	}
	if strings.EqualFold(prev.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
		r.refused = "not followed from https to " + req.URL.Scheme + ": the request and its credentials would go in cleartext"
		return http.ErrUseLastResponse
	}
	if !sameOrigin(via[0].URL, req.URL) {
		r.crossed = true
	}
	if r.crossed {
		// Only framescope's own headers (Accept, User-Agent…; Content-Type
		// when the body goes along, as on a 307/308).
		var body []byte
		if req.GetBody != nil {
			body = r.opts.Body
		}
		h, _, _ := requestHeaders(ConnectOptions{Body: body})
		req.Header = h
	} else if !r.userReferer {
		req.Header.Del("Referer")
	}
	r.hops = append(r.hops, sessions.RedactURLIf(req.URL.String(), r.opts.KeepSecrets))
	return nil
}

// sameOrigin compares scheme, host and port (default ports made explicit).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && originPort(a) == originPort(b)
}

func originPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// note says what happened to redirects, for the report (nil: none).
func (r *redirects) note(resp *http.Response, p *sessions.ProblemList) {
	if len(r.hops) > 0 {
		what := "followed 1 redirect"
		if len(r.hops) > 1 {
			what = fmt.Sprintf("followed %d redirects", len(r.hops))
		}
		dropped := ""
		if r.crossed {
			dropped = " (another origin: the -H headers were not sent there)"
		}
		p.Note("%s: the stream came from %s%s", what, sessions.Clean(r.hops[len(r.hops)-1]), dropped)
	}
	if r.refused != "" && resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		loc := resp.Header.Get("Location")
		p.Note("the server redirected (%d) to %s: %s", resp.StatusCode, sessions.CleanShort(sessions.RedactURLIf(loc, r.opts.KeepSecrets), 200), r.refused)
	}
}
