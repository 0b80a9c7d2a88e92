package live

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/codings"
)

// ConnectOptions describes the one request Connect sends.
type ConnectOptions struct {
	URL      string
	Method   string   // default GET, or POST when Body != nil
	Headers  []string // "Name: value", repeatable, as given by -H
	Body     []byte   // -d DATA / @file / @- already resolved by main
	Insecure bool     // skip TLS verification
	// ConnectTimeout bounds dial + TLS + redirects + response headers
	// (0 = 30s). It does not bound the body: a turn may stream for long.
	ConnectTimeout time.Duration
	Redact         []string // extra header names to redact in Meta and Response
	KeepSecrets    bool     // redact nothing
	// NoBody (--no-body) keeps the request body out of Meta, so out of
	// recordings and the session library.
	NoBody bool
	// FollowRedirects (-L) follows up to 10 redirects, as redirect.go
	// says; without it a 3xx is the response.
	FollowRedirects bool
	// MaxDecoded and MaxRatio bound a compressed body's decoding (0 =
	// DefaultMaxDecoded / DefaultMaxRatio, negative = no bound).
	MaxDecoded int64
	MaxRatio   float64
	// AsPasted (framescope curl) sends the pasted request as curl would:
	// no header of framescope's own but the User-Agent (curl sends its
	// own too; -A or -H replaces it), and curl's Accept: */* when the
	// command gives none.
	AsPasted bool
}

// ResponseInfo is the HTTP response as the user should see it.
type ResponseInfo struct {
	// URL is the URL the response came from (after redirects), for
	// display: a password and query secrets in it are masked.
	URL string
	// Method is the final request's method (a 303 turns a POST into a GET).
	Method string
	// RequestedURL is the URL asked for, when redirects led elsewhere.
	RequestedURL string

	Status      int    // 200
	StatusText  string // "200 OK"
	Proto       string // "HTTP/1.1"
	Headers     http.Header
	ContentType string
	// ContentEncoding is the Content-Encoding the body was decoded from
	// ("" for none).
	ContentEncoding string
	// ErrorBody holds the first 64 KiB of the (decoded) body when the
	// response is not a 2xx text/event-stream (nil otherwise). Connect waits
	// up to errorBodyWait for it to arrive; the rest of it fills in as the
	// stream is read.
	ErrorBody []byte
	// ErrorBodyTruncated is true when the body was longer than ErrorBody.
	ErrorBodyTruncated bool

	// RequestHeaders and RequestBody are the request the response answers
	// (the last hop's), secrets redacted unless --keep-secrets; the body
	// is nil when none was sent (shown even with --no-body, which only
	// keeps it out of recordings).
	RequestHeaders map[string]string
	RequestBody    []byte
}

const (
	defaultConnectTimeout = 30 * time.Second
	maxRedirects          = 10
	// liveReadSize is the read buffer of a live stream: one read of the
	// body is one chunk, however little it returns.
	liveReadSize = 32 << 10
	// errorBodyMax is how much of a non-SSE or non-2xx body is kept for
	// display.
	errorBodyMax = 64 << 10
	// errorBodyWait is how long Connect waits for such a body to arrive
	// before returning (its chunks are kept and streamed by Next).
	errorBodyWait = time.Second
)

var (
	errConnectTimeout = errors.New("connect timeout")
	errCancelled      = errors.New("cancelled by the user")
	errClosed         = errors.New("capture closed")
)

// Live is a live HTTP response streamed as a Capture. Next, End and
// TakeProblems belong to the reading goroutine; Cancel, Close and Response
// may be called from any goroutine.
type Live struct {
	meta   sessions.Meta
	start  time.Time
	parent context.Context
	reqCtx context.Context // done when the stream is cancelled, closed or its parent is
	cancel context.CancelCauseFunc
	resp   *http.Response
	tr     *http.Transport
	conns  *connSet

	// Reading (the reading goroutine, or the pre-read goroutine before
	// preDone is closed).
	raw     *rawBody  // resp.Body, remembering how it ended
	rd      io.Reader // the decoded body; nil until the first read
	encs    []string  // Content-Encoding codings, outermost last
	buf     []byte
	heldErr error // an error returned along with data, for the next read
	zeroes  int
	// limit bounds decoding (nil: the body is not encoded).
	limit *inflateLimit
	// decodeFailed says why the body could not be decoded ("": it was,
	// or a bound stopped it); set when the stream ends.
	decodeFailed string
	probe        *codings.Replay // the body's start while Probe decodes it

	// Chunks read before Connect returned (error bodies), served first.
	preDone  chan struct{} // nil when there was no pre-read
	preStop  atomic.Bool
	preErr   error // how the pre-read stopped: nil (it was told to) or the read error
	pending  []sessions.Chunk
	arena    []byte
	pendNext int
	preSeen  bool

	probs sessions.ProblemList
	end   invariants.End
	done  bool

	cancelled atomic.Bool
	closed    atomic.Bool
	closeOnce sync.Once

	mu        sync.Mutex // guards info
	info      ResponseInfo
	keepError bool // collect ErrorBody

	keepSecrets bool // --keep-secrets: ErrorBody is shown as received

	ndjson *ndjsonFramer // set when the response is NDJSON (live_ndjson.go)
}

// Connect sends the request once — never retrying or reconnecting on its
// own: a turn stream is one-shot — and returns a Capture streaming the
// response body as it arrives. Any HTTP status and content type is a
// success here (the pipeline raises http-status / content-type from Meta);
// an error means no response: a bad URL or header, a refused connection,
// DNS, TLS, a redirect loop or the connect timeout. Its message names the
// URL and what failed.
func Connect(ctx context.Context, opts ConnectOptions) (*Live, error) {
	a := &attempt{ctx: ctx, opts: opts, shown: sessions.RedactURLIf(opts.URL, opts.KeepSecrets)}
	if err := a.prepare(); err != nil {
		return nil, a.fail(err)
	}
	resp, err := a.send()
	if err != nil {
		return nil, a.fail(err)
	}
	l := a.live(resp)
	l.describe(a, resp)
	l.planDecoding(resp, a.opts)
	l.startBody()
	return l, nil
}

// attempt is one Connect on its way: the request, and the client that
// sends it (one transport, one request: nothing is shared or retried).
type attempt struct {
	ctx   context.Context
	opts  ConnectOptions
	shown string // the URL in messages and Meta: a password and query secrets hidden

	u      *url.URL
	method string
	host   string // a -H Host override
	conns  *connSet
	tr     *http.Transport
	rd     *redirects
	client *http.Client
	reqCtx context.Context // done when the stream is cancelled, closed or ctx is
	cancel context.CancelCauseFunc
	req    *http.Request
	start  time.Time // when the request was sent: chunks are timed from it
}

// fail is Connect's error: the URL (as shown), then what failed, with any
// URL the message quotes redacted.
func (a *attempt) fail(err error) error {
	msg := err.Error()
	if !a.opts.KeepSecrets {
		msg = sessions.RedactMessage(msg) // an error may quote a URL
	}
	return fmt.Errorf("%s: %s", sessions.Clean(a.shown), msg)
}

// targetURL is the URL to connect to, or why it is none.
func targetURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("not a valid URL: %v", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return nil, errors.New("not a valid URL: no scheme (want http:// or https://)")
	default:
		return nil, fmt.Errorf("unsupported scheme %q (want http or https)", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("not a valid URL: no host")
	}
	return u, nil
}

// prepare builds the request and the client that sends it; nothing is
// sent yet.
func (a *attempt) prepare() error {
	u, err := targetURL(a.opts.URL)
	if err != nil {
		return err
	}
	a.u, a.method = u, a.opts.Method
	if a.method == "" {
		a.method = http.MethodGet
		if a.opts.Body != nil {
			a.method = http.MethodPost
		}
	}
	hdr, host, err := requestHeaders(a.opts)
	if err != nil {
		return err
	}
	a.host = host
	a.newClient(hdr)
	a.reqCtx, a.cancel = context.WithCancelCause(a.ctx)
	var body io.Reader
	if a.opts.Body != nil {
		body = bytes.NewReader(a.opts.Body)
	}
	req, err := http.NewRequestWithContext(a.reqCtx, a.method, u.String(), body)
	if err != nil {
		a.cancel(nil)
		return err
	}
	req.Header = hdr
	if host != "" {
		req.Host = host
	}
	a.req = req
	return nil
}

// newClient makes the request's own transport: never a proxy
// (proxy_env.go), no compression of its own (decoded here, whoever asked
// for it), its connections tracked so that Cancel and Close drop them.
func (a *attempt) newClient(hdr http.Header) {
	a.conns = &connSet{m: make(map[net.Conn]struct{})}
	dialer := &net.Dialer{KeepAlive: 30 * time.Second}
	a.tr = &http.Transport{
		Proxy: nil, // never a proxy: proxy_env.go
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return a.conns.add(c), nil
		},
		ForceAttemptHTTP2:  true,
		DisableCompression: true, // decoded here, whoever asked for it
		MaxIdleConns:       1,
	}
	if a.opts.Insecure {
		a.tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	}
	a.rd = &redirects{opts: a.opts, userReferer: hdr.Get("Referer") != ""}
	a.client = &http.Client{Transport: a.tr, CheckRedirect: a.rd.check}
}

// send sends the request, once, within the connect timeout (dial, TLS,
// redirects, response headers); an error says what failed, and leaves
// nothing open.
func (a *attempt) send() (*http.Response, error) {
	timeout := a.opts.ConnectTimeout
	if timeout <= 0 {
		timeout = defaultConnectTimeout
	}
	a.start = time.Now()
	timer := time.AfterFunc(timeout, func() { a.cancel(errConnectTimeout) })
	resp, err := a.client.Do(a.req)
	timedOut := !timer.Stop()
	if err == nil && timedOut {
		resp.Body.Close()
		err = errConnectTimeout
	}
	if err == nil {
		return resp, nil
	}
	cause := context.Cause(a.reqCtx) // (before cancel sets one of its own)
	a.cancel(nil)
	a.tr.CloseIdleConnections()
	a.conns.closeAll()
	msg := describeConnectError(err, cause, a.ctx, timeout, a.opts.Insecure)
	if env := envProxyFor(a.u); env != "" {
		msg += " (" + ignoredProxyNote(env) + ")"
	}
	return nil, errors.New(msg)
}

// live is the response as a Capture, not yet described.
func (a *attempt) live(resp *http.Response) *Live {
	return &Live{
		start:  a.start,
		parent: a.ctx,
		reqCtx: a.reqCtx,
		cancel: a.cancel,
		resp:   resp,
		tr:     a.tr,
		conns:  a.conns,
		raw:    &rawBody{r: resp.Body},
		buf:    make([]byte, liveReadSize),

		keepSecrets: a.opts.KeepSecrets,
	}
}

// describe fills the capture's Meta and the ResponseInfo shown: the
// request the response answers (the last hop's), both sides' headers
// redacted, where the bytes came from after redirects; and notes the
// redirects and an ignored proxy variable.
func (l *Live) describe(a *attempt, resp *http.Response) {
	opts := a.opts
	ct := resp.Header.Get("Content-Type")
	sent := a.req // the request the response answers (the last hop)
	if resp.Request != nil && resp.Request.URL != nil {
		sent = resp.Request
	}
	reqHeaders, _ := sessions.RedactHeaders(flatHeaders(sent.Header), opts.Redact, opts.KeepSecrets)
	if a.host != "" && sent.Host == a.host {
		reqHeaders["Host"] = a.host
	}
	respHeaders, _ := sessions.RedactHeaders(flatHeaders(resp.Header), opts.Redact, opts.KeepSecrets)
	finalURL, requested, method := a.shown, "", a.method
	if sent.URL.String() != a.u.String() {
		// Redirected: the bytes come from here (and a 302 may have turned
		// a POST into a GET).
		finalURL, requested = sessions.RedactURLIf(sent.URL.String(), opts.KeepSecrets), a.shown
		method = sent.Method
	}
	a.rd.note(resp, &l.probs)
	if env := envProxyFor(a.u); env != "" {
		l.probs.Note("%s", ignoredProxyNote(env))
	}
	l.meta = sessions.Meta{
		Name:            a.shown,
		Kind:            sessions.KindSSE,
		URL:             finalURL,
		Method:          method,
		HTTP:            true,
		Status:          resp.StatusCode,
		ContentType:     ct,
		RequestHeaders:  reqHeaders,
		ResponseHeaders: respHeaders,
		StartedAt:       a.start,
		Timed:           true,
		Live:            true,
	}
	sentB := sentBody(opts, a.req, sent, reqHeaders)
	if !opts.NoBody {
		l.meta.RequestBody = sentB
	}
	l.info = ResponseInfo{
		RequestHeaders:  reqHeaders,
		RequestBody:     sentB,
		URL:             finalURL,
		Method:          method,
		RequestedURL:    requested,
		Status:          resp.StatusCode,
		StatusText:      resp.Status,
		Proto:           resp.Proto,
		Headers:         unflatHeaders(respHeaders, resp.Header),
		ContentType:     ct,
		ContentEncoding: resp.Header.Get("Content-Encoding"),
	}
}

// planDecoding reads the response's Content-Encoding: the codings the
// body is decoded from (and within which bounds), a body that stacks more
// than codings.Max refused from the header, before any decoder is made,
// and one framescope cannot decode shown as received, with a note.
func (l *Live) planDecoding(resp *http.Response, opts ConnectOptions) {
	encs, ncodings := codings.Parse(resp.Header.Values("Content-Encoding"), codings.Max)
	l.encs = encs
	if ncodings > codings.Max {
		// Kept as it came, the failure named (undecodable.go).
		l.encs = nil
		l.keepUndecoded(codings.TooMany(ncodings).Error())
	}
	for _, e := range l.encs {
		if !codings.Decodable(e) {
			l.probs.Note("the response's Content-Encoding %q cannot be decoded: its body is shown as received", sessions.CleanShort(l.info.ContentEncoding, 60))
			l.encs = nil
			break
		}
	}
	if len(l.encs) > 0 {
		l.limit = newInflateLimit(opts, l.encs[len(l.encs)-1])
		l.meta.DecodedFrom = strings.Join(l.encs, ", ")
	}
}

// startBody frames an NDJSON body by line, and reads the start of a body
// that is not a 2xx stream before Connect returns (Response().ErrorBody).
func (l *Live) startBody() {
	ct := l.meta.ContentType
	if isNDJSONMediaType(ct) {
		l.frameNDJSON()
	}
	if l.meta.Status < 200 || l.meta.Status > 299 || !(isSSEMediaType(ct) || l.ndjson != nil) {
		l.keepError = true
		l.info.ErrorBody = []byte{}
		l.preRead()
	}
}

// sentBody is the request body as it is kept and shown: nil when there was
// none, or when a redirect turned the request into one without
// a body (a 302 after a POST); its secrets redacted unless --keep-secrets.
func sentBody(opts ConnectOptions, req, sent *http.Request, headers map[string]string) []byte {
	if opts.Body == nil || sent != req && sent.ContentLength == 0 {
		return nil
	}
	ct, _ := sessions.HeaderLookup(headers, "Content-Type")
	return sessions.RedactBodyIf(bytes.Clone(opts.Body), ct, opts.KeepSecrets)
}

// jsonRPCBody: the body is a JSON-RPC 2.0 message or batch (an MCP
// request), by a look at its start.
func jsonRPCBody(b []byte) bool {
	head := b[:min(len(b), 512)]
	t := bytes.TrimLeft(head, " \t\r\n")
	return (bytes.HasPrefix(t, []byte("{")) || bytes.HasPrefix(t, []byte("["))) &&
		bytes.Contains(bytes.ReplaceAll(head, []byte(" "), nil), []byte(`"jsonrpc":"2.0"`))
}

// requestHeaders builds the request's header from -H lines and the body,
// with the defaults framescope adds; host is a -H Host override.
func requestHeaders(opts ConnectOptions) (h http.Header, host string, err error) {
	h = make(http.Header)
	for _, line := range opts.Headers {
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || !validHeaderName(name) {
			return nil, "", fmt.Errorf("header %s: want \"Name: value\"", sessions.CleanShort(strconv.Quote(line), 80))
		}
		value = strings.TrimSpace(value)
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, "", fmt.Errorf("header %s: the value holds a line break or NUL", sessions.Clean(name))
		}
		if strings.EqualFold(name, "Host") {
			host = value
			continue
		}
		h.Add(name, value)
	}
	if v := h.Values("Accept-Encoding"); len(v) > 0 {
		for _, c := range strings.Split(strings.Join(v, ","), ",") {
			coding, params, _ := strings.Cut(c, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding == "" || coding == "identity" || codings.Decodable(coding) {
				continue
			}
			if q, ok := strings.CutPrefix(strings.ReplaceAll(strings.TrimSpace(params), " ", ""), "q="); ok && strings.Trim(q, "0.") == "" {
				continue // q=0: explicitly not acceptable
			}
			return nil, "", fmt.Errorf("Accept-Encoding %s: framescope cannot decode %q (it decodes gzip, deflate, br and identity); drop the header or ask for those only",
				sessions.CleanShort(strconv.Quote(strings.Join(v, ", ")), 80), coding)
		}
	}
	switch {
	case opts.AsPasted:
		if len(h.Values("Accept")) == 0 {
			h.Set("Accept", "*/*") // what curl sends
		}
	default:
		if len(h.Values("Accept")) == 0 { // a user's Accept (any case) is kept
			h.Set("Accept", "text/event-stream")
			if jsonRPCBody(opts.Body) {
				// MCP Streamable HTTP (Transports §Sending Messages): the
				// client MUST list both, or its servers answer 406.
				h.Set("Accept", "application/json, text/event-stream")
			}
		}
		if len(h.Values("Cache-Control")) == 0 {
			h.Set("Cache-Control", "no-cache")
		}
	}
	if len(h.Values("User-Agent")) == 0 {
		h.Set("User-Agent", "framescope/"+sessions.Version)
	}
	if opts.Body != nil && len(h.Values("Content-Type")) == 0 && !opts.AsPasted {
		if b := strings.TrimLeft(string(opts.Body[:min(len(opts.Body), 64)]), " \t\r\n"); strings.HasPrefix(b, "{") || strings.HasPrefix(b, "[") {
			h.Set("Content-Type", "application/json")
		}
	}
	return h, host, nil
}

// validHeaderName reports whether s is an HTTP token.
func validHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isSSEMediaType reports whether a Content-Type is text/event-stream.
func isSSEMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

// describeConnectError says what failed before a response arrived.
func describeConnectError(err, cause error, parent context.Context, timeout time.Duration, insecure bool) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dnsErr *net.DNSError
	var recErr tls.RecordHeaderError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var opErr *net.OpError
	switch {
	case errors.Is(err, errConnectTimeout) || errors.Is(cause, errConnectTimeout):
		return fmt.Sprintf("timeout: no response headers within %s (connect timeout: dial, TLS and response headers)", timeout)
	case parent.Err() != nil:
		return "cancelled before the response arrived"
	case strings.HasPrefix(err.Error(), "redirect loop"):
		return err.Error()
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("DNS: cannot resolve host %q: %s", dnsErr.Name, dnsErr.Err)
	case errors.Is(err, syscall.ECONNREFUSED):
		addr := ""
		if errors.As(err, &opErr) && opErr.Addr != nil {
			addr = " at " + opErr.Addr.String()
		}
		return "connection refused: nothing is listening" + addr
	case errors.As(err, &recErr), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return "TLS handshake failed: the server did not answer with TLS (plain HTTP on an https:// URL?)"
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalidCert):
		msg := "TLS: the server's certificate is not trusted: " + err.Error()
		if !insecure {
			msg += " (--insecure skips verification)"
		}
		return msg
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "timeout: " + err.Error()
	}
	var tlsAlert tls.AlertError
	if errors.As(err, &tlsAlert) || strings.Contains(err.Error(), "tls:") {
		return "TLS handshake failed: " + err.Error()
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// --- reading -----------------------------------------------------------------

// preRead reads an error body (up to errorBodyMax, its end, or
// errorBodyWait) before Connect returns, so Response().ErrorBody is there
// to show. The chunks are kept, with their arrival times, for Next.
func (l *Live) preRead() {
	l.preDone = make(chan struct{})
	go func() {
		defer close(l.preDone)
		for !l.preStop.Load() {
			data, t, err := l.readOnce()
			if len(data) > 0 {
				off := len(l.arena)
				l.arena = append(l.arena, data...)
				l.pending = append(l.pending, sessions.Chunk{Data: l.arena[off:len(l.arena):len(l.arena)], T: t, HasTime: true})
			}
			if err != nil {
				l.preErr = err
				return
			}
			l.mu.Lock()
			full := l.info.ErrorBodyTruncated // (read past errorBodyMax: the flag is known)
			l.mu.Unlock()
			if full {
				return
			}
		}
	}()
	t := time.NewTimer(errorBodyWait)
	defer t.Stop()
	select {
	case <-l.preDone:
	case <-t.C:
		l.preStop.Store(true)
	case <-l.parent.Done():
		l.preStop.Store(true)
	}
}

// readOnce reads the body once (whatever one read returns) into l.buf and
// tees it into ErrorBody. An error comes with the last data or alone.
func (l *Live) readOnce() ([]byte, time.Duration, error) {
	if l.heldErr != nil {
		err := l.heldErr
		l.heldErr = nil
		return nil, time.Since(l.start), err
	}
	if l.rd == nil {
		rd, err := l.decoder()
		if err != nil {
			return nil, time.Since(l.start), err
		}
		l.rd = rd
	}
	for {
		n, err := l.rd.Read(l.buf)
		t := time.Since(l.start)
		if n == 0 && err == nil {
			if l.zeroes++; l.zeroes < 100 {
				continue
			}
			err = io.ErrNoProgress
		}
		l.zeroes = 0
		if l.limit != nil && n > 0 {
			var lerr error
			if n, lerr = l.limit.allow(n, l.raw.n); lerr != nil {
				err = lerr // ends the stream after the bytes within the bound
			}
		}
		if n > 0 {
			l.tee(l.buf[:n])
			if err != nil {
				l.heldErr = err
			}
			return l.buf[:n], t, nil
		}
		return nil, t, err
	}
}

// decoder wraps the raw body in the decoders of its Content-Encoding. It
// may block: a gzip header is read here. A layerGuard sits under every
// decoder: cancellation is checked between layers, and the output of a
// layer decoded before another is bounded as the body's is (a layer can
// inflate a thousandfold into one that decodes to nothing).
func (l *Live) decoder() (io.Reader, error) {
	between := func(inner string, r io.Reader) io.Reader {
		return &layerGuard{r: r, l: l, limit: l.limit.layerLimit(inner)}
	}
	// A decoding error, unless the raw body failed first (codingError).
	var raw io.Reader = l.raw
	if l.probe != nil {
		raw = l.probe // the body's start kept, should it not decode (undecodable.go)
	}
	return codings.Stack(l.encs, &layerGuard{r: raw, l: l}, between, codingError)
}

// codingError marks a decoder's error as such, unless the raw body failed
// (that error is the one to report).
func codingError(coding string, err error) error {
	var rb *rawError
	var de *decodeError
	if err == io.EOF || errors.As(err, &rb) || errors.As(err, &de) {
		return err
	}
	return &decodeError{coding: coding, err: err}
}

// decodeError is a body that its Content-Encoding cannot decode.
type decodeError struct {
	coding string
	err    error
	bound  bool // a decoding bound (--max-decoded, --max-ratio) stopped it
}

func (e *decodeError) Error() string {
	if e.coding == "" {
		return e.err.Error()
	}
	if errors.Is(e.err, io.ErrUnexpectedEOF) {
		return e.coding + " body truncated: unexpected EOF"
	}
	return e.coding + " body: " + e.err.Error()
}

func (e *decodeError) Unwrap() error { return e.err }

// layerGuard sits under every decoder: it ends the decoding once the
// stream is cancelled (the user, --max-time, Close) even when no byte
// comes out — a stack of codings can spin on bytes already read — and,
// between two layers, bounds what the inner one decodes.
type layerGuard struct {
	r     io.Reader
	l     *Live
	limit *inflateLimit // nil: the raw body
}

func (g *layerGuard) Read(p []byte) (int, error) {
	if g.l.reqCtx.Err() != nil || g.l.cancelled.Load() || g.l.closed.Load() {
		return 0, &rawError{err: errCancelled}
	}
	n, err := g.r.Read(p)
	if g.limit != nil && n > 0 {
		var lerr error
		if n, lerr = g.limit.allow(n, g.l.raw.n); lerr != nil {
			return n, lerr
		}
	}
	return n, err
}

// rawBody is the response body, marking its errors so that a decoder's
// wrapping can tell them from its own.
type rawBody struct {
	r io.ReadCloser
	n int64 // bytes read: the compressed size, for the inflate ratio
}

type rawError struct{ err error }

func (e *rawError) Error() string { return e.err.Error() }
func (e *rawError) Unwrap() error { return e.err }

func (b *rawBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF {
		err = &rawError{err: err}
	}
	return n, err
}

// tee keeps the start of an error body for Response.
func (l *Live) tee(p []byte) {
	if !l.keepError {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	room := errorBodyMax - len(l.info.ErrorBody)
	if len(p) > room {
		p = p[:room]
		l.info.ErrorBodyTruncated = true
	}
	if len(p) > 0 {
		l.info.ErrorBody = append(l.info.ErrorBody, p...)
	}
}

// Meta describes the request and response.
func (l *Live) Meta() sessions.Meta { return l.meta }

// Next returns the next read of the body as it arrives: every read is one
// chunk, timed from the moment the request was sent. Chunk.Data is valid
// until the next call. At the end it returns io.EOF and End says how the
// stream ended.
func (l *Live) Next() (sessions.Chunk, error) {
	if l.ndjson != nil {
		return l.nextNDJSON() // live_ndjson.go: each line one event
	}
	return l.nextRaw()
}

func (l *Live) nextRaw() (sessions.Chunk, error) {
	if l.done {
		return sessions.Chunk{}, io.EOF
	}
	if l.preDone != nil && !l.preSeen {
		<-l.preDone // Cancel and Close unblock the pre-read
		l.preSeen = true
	}
	if l.pendNext < len(l.pending) {
		ch := l.pending[l.pendNext]
		l.pendNext++
		return ch, nil
	}
	if l.pending != nil {
		l.pending, l.arena = nil, nil
	}
	if l.preErr != nil {
		err := l.preErr
		l.preErr = nil
		l.finish(err)
		return sessions.Chunk{}, io.EOF
	}
	if l.cancelled.Load() || l.closed.Load() {
		l.finish(errCancelled)
		return sessions.Chunk{}, io.EOF
	}
	data, t, err := l.readOnce()
	if err != nil {
		l.finish(err)
		return sessions.Chunk{}, io.EOF
	}
	return sessions.Chunk{Data: data, T: t, HasTime: true}, nil
}

// finish settles how the stream ended.
func (l *Live) finish(err error) {
	l.done = true
	l.end = invariants.End{At: time.Since(l.start), HasTime: true}
	switch {
	case err == io.EOF && l.decodeFailed != "":
		// Read to its end as it came, undecoded (undecodable.go).
		l.end.Kind, l.end.Detail = invariants.EndError, l.decodeFailed
	case err == io.EOF:
		l.end.Kind = invariants.EndEOF
	case l.cancelled.Load() || l.closed.Load() || l.parent.Err() != nil || errors.Is(err, errCancelled):
		l.end.Kind = invariants.EndCancelled
	default:
		l.end.Kind = invariants.EndError
		var rb *rawError
		if errors.As(err, &rb) {
			err = rb.err
		}
		l.end.Detail = sessions.Clean(err.Error())
		if de := (*decodeError)(nil); errors.As(err, &de) && !de.bound {
			// A body its Content-Encoding does not decode is a damaged
			// stream: an alarm (capture-corrupt) besides the error end,
			// and a failed one (DecodeFailed). A bound reached is a stop
			// by choice, as --max-bytes is.
			l.probs.AddLost(0, "the response body could not be decoded, so bytes are missing: %s", l.end.Detail)
			l.decodeFailed = l.end.Detail
		}
	}
	l.probs.Finish()
	l.release()
}

// release drops the connection (the stream is over).
func (l *Live) release() {
	l.cancel(errClosed)
	l.resp.Body.Close()
	l.conns.closeAll()
	l.tr.CloseIdleConnections()
}

// End says how the stream ended: EndEOF (the server closed it cleanly),
// EndError (a transport or decoding error, Detail says which) or
// EndCancelled (Cancel, Close or the context).
func (l *Live) End() invariants.End { return l.end }

// DecodeFailed says, once the stream has ended, why its body could not be
// decoded: a coding that failed, or more stacked codings than codings.Max
// ("" when it was decoded, or a decoding bound stopped it).
func (l *Live) DecodeFailed() string { return l.decodeFailed }

// TakeProblems returns remarks about the response (e.g. an undecodable
// Content-Encoding).
func (l *Live) TakeProblems() []sessions.Problem { return l.probs.Take() }

// Cancel is the user ending the stream (the client-disconnect path): the
// connection is dropped, a blocked Next returns, and the stream ends as
// EndCancelled. Safe from any goroutine, any number of times.
func (l *Live) Cancel() {
	if l.cancelled.Swap(true) {
		return
	}
	l.preStop.Store(true)
	l.cancel(errCancelled)
	l.conns.closeAll()
}

// Close drops the connection and waits for the reads Live started to stop;
// a Next blocked in another goroutine returns. Safe to call more than once.
func (l *Live) Close() error {
	l.closeOnce.Do(func() {
		l.closed.Store(true)
		l.preStop.Store(true)
		l.cancel(errClosed) // unblocks body reads first: Body.Close waits for them
		l.conns.closeAll()
		if l.preDone != nil {
			<-l.preDone
		}
		l.resp.Body.Close()
		l.tr.CloseIdleConnections()
	})
	return nil
}

// Response is the HTTP response: status, protocol, headers (redacted as
// in Meta) and, for a response that is not a 2xx event stream, the start
// of its body.
func (l *Live) Response() ResponseInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	info := l.info
	if info.ErrorBody != nil {
		info.ErrorBody = append([]byte(nil), info.ErrorBody...)
		if !l.keepSecrets {
			// Shown, not recorded: a redirect page repeats its Location.
			info.ErrorBody = sessions.RedactQueryText(info.ErrorBody)
		}
	}
	info.Headers = info.Headers.Clone()
	return info
}

// --- headers -------------------------------------------------------------------

// flatHeaders turns an http.Header into one value per name (repeated
// values joined with ", ").
func flatHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = strings.Join(v, ", ")
	}
	return out
}

// unflatHeaders rebuilds an http.Header from the original, with redacted
// values (a secret header's, a Location's query) replaced.
func unflatHeaders(flat map[string]string, orig http.Header) http.Header {
	out := orig.Clone()
	for k, v := range flat {
		if v != strings.Join(orig[k], ", ") {
			out[k] = []string{v}
		}
	}
	return out
}

// --- connections ---------------------------------------------------------------

// connSet tracks the connections a Live's transport dialed, so that
// Cancel and Close can drop them at once (the transport's goroutines then
// end promptly).
type connSet struct {
	mu     sync.Mutex
	m      map[net.Conn]struct{}
	closed bool
}

func (s *connSet) add(c net.Conn) net.Conn {
	tc := &trackedConn{Conn: c, set: s}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		c.Close()
		return tc
	}
	s.m[tc] = struct{}{}
	return tc
}

func (s *connSet) remove(c net.Conn) {
	s.mu.Lock()
	delete(s.m, c)
	s.mu.Unlock()
}

func (s *connSet) closeAll() {
	s.mu.Lock()
	s.closed = true
	list := make([]net.Conn, 0, len(s.m))
	for c := range s.m {
		list = append(list, c)
	}
	s.m = map[net.Conn]struct{}{}
	s.mu.Unlock()
	for _, c := range list {
		c.(*trackedConn).Conn.Close()
	}
}

type trackedConn struct {
	net.Conn
	set  *connSet
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { c.set.remove(c) })
	return c.Conn.Close()
}
