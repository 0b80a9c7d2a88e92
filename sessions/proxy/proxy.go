package proxy

import (
	"cmp"
	"crypto/x509"
	"fmt"
	"framescope/sessions"
	"os"

	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"framescope/invariants"
	"framescope/sessions/faults"
	"framescope/sessions/frontdoor"
	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/pipeline"
)

// Options configure a Proxy.
type Options struct {
	// Upstream makes a reverse proxy: every request goes to this base URL
	// (its path prefixes the request's). nil: a forward proxy, for
	// absolute-form requests and CONNECT (HTTP_PROXY, HTTPS_PROXY).
	Upstream *url.URL
	// Listen is the proxy's own address: a forward request to it is a
	// loop, refused with 508.
	Listen string
	// Allow names the hosts and origins besides loopback ones that may
	// address the proxy itself (--allow-origin; with --allow-remote, this
	// machine's addresses too): the DNS-rebinding guard (guard.go). nil:
	// loopback only.
	Allow *frontdoor.AllowList
	// CA, when set, decrypts CONNECT tunnels to hosts matching MITMHosts
	// (--mitm); nil tunnels every CONNECT blind.
	CA *CA
	// MITMHosts are path.Match patterns on the host (no port); empty
	// means every host.
	MITMHosts []string
	// Library saves every stream as a session (nil: --no-save).
	Library *library.Library
	// LibraryMax bounds the bytes all recordings in flight hold together
	// (the library's cap, FRAMESCOPE_LIBRARY_MAX; 0: none): a recording
	// that would pass it ends there, cancelled, with a note — the app's
	// stream goes on.
	LibraryMax int64
	// AllowLoopbackTargets lets a client on another machine (--allow-remote)
	// reach this machine's loopback through the forward proxy
	// (absolute-form or CONNECT to 127.0.0.1, localhost…); refused with 403
	// otherwise (loopback_targets.go).
	AllowLoopbackTargets bool
	// Limits end each stream's recording and check (--max-bytes,
	// --max-frames, as connect's), never the app's stream.
	Limits live.StopLimits
	// Check configures the live check of every stream (detection unless
	// Check.Dialect forces one).
	Check invariants.Options
	// Redact names more headers to redact in recordings; KeepSecrets
	// redacts nothing (--keep-secrets).
	Redact      []string
	KeepSecrets bool
	// BodyCap bounds the body kept of a response that is no stream (0:
	// DefaultBodyCap).
	BodyCap int
	// QueueBytes bounds the bytes a stream's checker may lag behind (0:
	// DefaultQueueBytes).
	QueueBytes int
	// QueueTotal bounds the bytes all streams' checkers may lag behind
	// together (0: DefaultQueueTotal).
	QueueTotal int64
	// MaxSpill bounds the bytes all streams' spill files hold (a checker
	// past its queue spills to a file in the library's directory, else
	// os.TempDir(); spill.go). 0: DefaultMaxSpill; negative: no spill,
	// bytes past the queue are left out of the check.
	MaxSpill int64
	// MaxFlows bounds the flows the proxy remembers for its list and
	// their details (the oldest finished ones are forgotten; a stream's
	// session stays in the library). 0: DefaultMaxFlows.
	MaxFlows int
	// Faults are injected into the matching streams on their way to the
	// app (--fault: faults.Parse); their check sees the faulted stream.
	Faults []faults.Fault
	// Transport sends the requests upstream (nil: DefaultTransport()).
	Transport http.RoundTripper
	// OnStream, when set, is called as a stream starts; the Handler it
	// returns receives the stream's checked items as they happen (what
	// the inspector is fed by connect), on the stream's checker goroutine.
	// meta is the stream's capture Meta: the request and response as
	// they passed (secrets not redacted: redact before showing them).
	OnStream func(f Flow, meta sessions.Meta) pipeline.Handler
}

// DefaultBodyCap bounds the body a Flow keeps of a response that is no stream.
const DefaultBodyCap = 64 << 10

// DefaultTransport is the upstream transport: HTTP/2 where the upstream
// offers it over TLS, no proxy of its own (the proxy's traffic must not
// loop through HTTP_PROXY), no transparent decompression (the app gets
// the bytes the upstream sent, encoded as it asked), and no redirects
// followed (a Transport never follows them: the app sees every 3xx).
func DefaultTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		DisableCompression:    true,
		MaxIdleConns:          200,
		MaxIdleConnsPerHost:   100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
	}
}

// TransportTrusting is DefaultTransport trusting, beside the system's
// roots, the CA certificates of a PEM file (--upstream-cacert).
func TransportTrusting(pemFile string) (*http.Transport, error) {
	b, err := os.ReadFile(pemFile)
	if err != nil {
		return nil, fmt.Errorf("--upstream-cacert: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("--upstream-cacert %s: no PEM certificate in it", sessions.Clean(pemFile))
	}
	t := DefaultTransport()
	t.TLSClientConfig.RootCAs = pool
	return t, nil
}

// Proxy is the proxy's http.Handler.
type Proxy struct {
	opts      Options
	transport http.RoundTripper
	book      *flowBook
	checkers  sync.WaitGroup // one per stream being checked
	budget    *queueBudget
	spill     *spillBudget
	recCap    recordCap   // the recordings in flight against Options.LibraryMax
	capClock  capClock    // the library cap's last enforcement (librarycap.go)
	via       string      // this proxy's name in Via headers (loop.go)
	bodies    *bodyBudget // request bodies in flight (reqbody_budget.go)

	mu     sync.Mutex
	hijack map[net.Conn]struct{} // tunnels, MITM and upgraded connections: Close ends them
}

// track keeps a hijacked connection for Close; the returned func forgets it.
func (p *Proxy) track(c net.Conn) func() {
	p.mu.Lock()
	if p.hijack == nil {
		p.hijack = map[net.Conn]struct{}{}
	}
	p.hijack[c] = struct{}{}
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.hijack, c)
		p.mu.Unlock()
	}
}

// Close ends every tunnel, MITM and upgraded connection (http.Server.Close
// does not know them: they were hijacked). Streams in them end cancelled.
func (p *Proxy) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.hijack {
		c.Close()
	}
}

// New makes a Proxy.
func New(opts Options) *Proxy {
	if opts.BodyCap <= 0 {
		opts.BodyCap = DefaultBodyCap
	}
	if opts.QueueBytes <= 0 {
		opts.QueueBytes = DefaultQueueBytes
	}
	t := opts.Transport
	if t == nil {
		t = DefaultTransport()
	}
	if opts.QueueTotal <= 0 {
		opts.QueueTotal = DefaultQueueTotal
	}
	spill := &spillBudget{limit: opts.MaxSpill}
	if opts.MaxSpill == 0 {
		spill.limit = DefaultMaxSpill
	}
	if opts.Library != nil {
		spill.dir = opts.Library.Dir
	}
	px := &Proxy{opts: opts, transport: t, book: newFlowBook(cmp.Or(opts.MaxFlows, DefaultMaxFlows)), budget: &queueBudget{limit: opts.QueueTotal}, spill: spill,
		via: newViaName(), bodies: &bodyBudget{limit: maxInflightBodies}}
	px.recCap.max = opts.LibraryMax
	return px
}

// Subscribe starts a feed of the flows: every flow so far, then each one
// as it starts, changes and finishes (Subscription.Next, batched).
func (p *Proxy) Subscribe() *Subscription { return p.book.subscribe() }

// Flows is every flow so far (the oldest finished ones forgotten past
// Options.MaxFlows), in order of arrival.
func (p *Proxy) Flows() []Flow { return p.book.list() }

// Wait waits until every stream's check and recording has finished (the
// streams themselves must have ended: shut the server down first).
func (p *Proxy) Wait() {
	p.checkers.Wait()
	p.enforceCapPending()
}

// ServeHTTP picks the mode: CONNECT (tunnel or MITM), an absolute-form
// request (forward proxy, RFC 9112 §3.2.2), or an origin-form request
// (reverse proxy to Upstream).
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if refusePriorKnowledge(w, r) {
		return
	}
	switch {
	case r.Method == http.MethodConnect:
		if p.opts.Upstream != nil {
			http.Error(w, "framescope proxy: a reverse proxy (to "+sessions.RedactURL(p.opts.Upstream.String())+") does not tunnel CONNECT", http.StatusMethodNotAllowed)
			return
		}
		p.connect(w, r)
	case p.opts.Upstream != nil:
		target := reverseTarget(p.opts.Upstream, r.URL)
		if p.guarded(w, r, target) {
			return
		}
		p.forward(w, r, target)
	case r.URL.IsAbs():
		if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
			http.Error(w, "framescope proxy: only http and https URLs are forwarded", http.StatusBadRequest)
			return
		}
		if p.isSelf(r.URL.Host) {
			http.Error(w, "framescope proxy: "+errLoop.Error(), http.StatusLoopDetected)
			return
		}
		if p.refuseLoopbackTarget(w, r, r.URL.Host) {
			return
		}
		p.forward(w, r, r.URL)
	case p.guarded(w, r, nil):
	default:
		http.Error(w, "framescope proxy: this is a forward proxy: set HTTP_PROXY/HTTPS_PROXY (or a device's proxy setting) to it, "+
			"or run `framescope proxy URL` to proxy one upstream", http.StatusBadRequest)
	}
}

// reverseTarget is the upstream URL for a request's path and query: the
// upstream's path, then the request's.
func reverseTarget(up *url.URL, in *url.URL) *url.URL {
	u := *up
	u.User = nil
	u.Path = strings.TrimSuffix(up.Path, "/") + in.Path
	if in.RawPath != "" || up.RawPath != "" {
		u.RawPath = strings.TrimSuffix(up.EscapedPath(), "/") + in.EscapedPath()
	}
	u.RawQuery = in.RawQuery
	u.Fragment = ""
	return &u
}

// mitmHost says whether a CONNECT to host is decrypted.
func (p *Proxy) mitmHost(host string) bool {
	if p.opts.CA == nil {
		return false
	}
	if len(p.opts.MITMHosts) == 0 {
		return true
	}
	host = strings.ToLower(host)
	for _, pat := range p.opts.MITMHosts {
		if ok, _ := path.Match(strings.ToLower(pat), host); ok {
			return true
		}
	}
	return false
}

// discardLog silences net/http's log of a MITM connection's errors: a
// proxy's app hanging up is no news (the flow says what matters).
var discardLog = log.New(io.Discard, "", 0)
