package proxy

import (
	"bytes"
	"net/http"
	"slices"
	"strings"

	"framescope/decode"
	"framescope/sessions"
)

// A flow's detail: its request and response as they passed, for a screen
// that opens any flow (a JSON POST, a 404, a tunnel, a stream whose
// session is gone), not only a stream in the inspector. The book keeps it
// beside the Flow, never in the Flow it publishes: the list is sent often
// and never shows it.

// Bounds of what a finished flow keeps: a request's first
// DefaultBodyCap bytes (the response's: Options.BodyCap), each header set
// (request, response) up to flowHeaderKeep, its URL up to flowURLKeep and
// its hosts up to flowHostKeep — and at most maxKeptBodies for all flows
// together, headers counted: past it the oldest finished flows give their
// headers and bodies up (their detail says so). DefaultMaxFlows flows of
// 64 KiB each would otherwise be 128 MB; before headers were counted and
// the kept prefix copied out, 2,000 flows of 1 MB uploads held 2.14 GB
// (a 64 KiB slice of each 1 MiB array) and of 900 KB headers 2.94 GB.
const (
	requestBodyCap = DefaultBodyCap
	maxKeptBodies  = 64 << 20
	flowHeaderKeep = 64 << 10
	flowURLKeep    = 8 << 10
	flowHostKeep   = 1 << 10
	// headerOverhead is what a header value costs beyond its text: the
	// map entry's share, the slice and string headers.
	headerOverhead = 64
)

// exchange is the HTTP exchange of a flow as the proxy saw it.
type exchange struct {
	reqHeader  http.Header // as sent upstream (hop-by-hop headers removed)
	reqHost    string
	reqTee     *bodyTee    // the request body while it streams (nil: none)
	reqBody    []byte      // its start once the flow is done
	reqSize    int64       // its whole size
	respHeader http.Header // as the upstream sent it
	headersCut bool        // a header set was over flowHeaderKeep: only part of it kept
	dropped    bool        // the headers and bodies were given up for newer flows' (maxKeptBodies)
	settled    bool        // done: the request body taken from reqTee, what is kept counted
}

// keptBodies is the bytes a settled flow counts in flowBook.bodies: its
// bodies, headers, URL and hosts.
func (f *liveFlow) keptBodies() int64 {
	if !f.settled {
		return 0
	}
	return int64(len(f.reqBody)+len(f.Body)+len(f.URL)+len(f.Host)+len(f.reqHost)) + headerBytes(f.reqHeader) + headerBytes(f.respHeader)
}

// headerBytes is what a header set costs in memory, about: its names and
// values, and headerOverhead per value.
func headerBytes(h http.Header) int64 {
	var n int64
	for k, vs := range h {
		n += int64(len(k))
		for _, v := range vs {
			n += int64(len(v)) + headerOverhead
		}
	}
	return n
}

// trimHeader is h within limit bytes (headerBytes): whole fields, in
// order of name, those that do not fit left out; cut says some were.
func trimHeader(h http.Header, limit int64) (kept http.Header, cut bool) {
	if headerBytes(h) <= limit {
		return h, false
	}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	kept = http.Header{}
	var n int64
	for _, k := range names {
		one := headerBytes(http.Header{k: h[k]})
		if n+one > limit {
			cut = true
			continue
		}
		kept[k] = slices.Clone(h[k]) // not h[k]: Clone's values share one array, whose other slots hold the fields left out
		n += one
	}
	return kept, cut
}

// setRequest records the request sent upstream for f's detail.
func (b *flowBook) setRequest(f *liveFlow, out *http.Request, tee *bodyTee) {
	h := out.Header.Clone()
	b.mu.Lock()
	f.reqHeader, f.reqHost, f.reqTee = h, out.Host, tee
	b.mu.Unlock()
}

// setResponse records the upstream's response headers for f's detail.
func (b *flowBook) setResponse(f *liveFlow, h http.Header) {
	h = h.Clone()
	b.mu.Lock()
	f.respHeader = h
	b.mu.Unlock()
}

// settleLocked keeps what a finished flow keeps — copied out, so that no
// larger array stays behind a kept prefix — counts it, and makes the
// oldest flows give their headers and bodies up past maxKeptBodies (b.mu
// held).
func (b *flowBook) settleLocked(f *liveFlow) {
	f.settled = true
	if f.reqTee != nil {
		f.reqBody, f.reqSize = f.reqTee.prefix(requestBodyCap)
		f.reqTee.release()
		f.reqTee = nil
	}
	if f.Body != nil {
		f.Body = bytes.Clone(f.Body)
	}
	var cutReq, cutResp bool
	f.reqHeader, cutReq = trimHeader(f.reqHeader, flowHeaderKeep)
	f.respHeader, cutResp = trimHeader(f.respHeader, flowHeaderKeep)
	f.headersCut = cutReq || cutResp
	f.URL = clipKept(f.URL, flowURLKeep)
	f.Host = clipKept(f.Host, flowHostKeep)
	f.reqHost = clipKept(f.reqHost, flowHostKeep)
	b.bodies += f.keptBodies()
	for _, old := range b.flows {
		if b.bodies <= maxKeptBodies {
			break
		}
		if old == f || !old.settled || old.dropped {
			continue
		}
		b.bodies -= old.keptBodies()
		old.reqBody, old.Body, old.reqHeader, old.respHeader, old.dropped = nil, nil, nil, nil, true
		b.bodies += old.keptBodies()
	}
}

// clipKept is s cut to at most n bytes (at a character's start), marked
// with "…", and copied so the longer string is not kept behind it.
func clipKept(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.Clone(decode.Clip(s, n-len("…"))) + "…"
}

// FlowDetail is one flow with its request and response, secrets redacted
// as in recordings (unless --keep-secrets); values as they passed,
// sanitized only when shown.
type FlowDetail struct {
	Flow
	// RequestHeaders as sent upstream, Host included (nil: the flow never
	// sent one, e.g. a tunnel).
	RequestHeaders map[string]string
	// RequestBody is the start of the request body (at most 64 KiB; nil:
	// none, or not kept), RequestSize its whole size.
	RequestBody []byte
	RequestSize int64
	// ResponseHeaders as the upstream sent them (nil: no response).
	ResponseHeaders map[string]string
	// BodiesDropped: the flow's headers and bodies were given up to keep
	// the proxy's memory bounded (64 MiB for all flows).
	BodiesDropped bool
	// HeadersCut: a header set was over 64 KiB; the fields that did not
	// fit are left out.
	HeadersCut bool
}

// Detail is flow id with its request and response (false: the proxy no
// longer holds it). A stream's response body is its session's, not here.
func (p *Proxy) Detail(id int64) (FlowDetail, bool) {
	b := p.book
	b.mu.Lock()
	var f *liveFlow
	for _, x := range b.flows {
		if x.ID == id {
			f = x
			break
		}
	}
	if f == nil {
		b.mu.Unlock()
		return FlowDetail{}, false
	}
	d := FlowDetail{Flow: snapshot(f), BodiesDropped: f.dropped, HeadersCut: f.headersCut}
	reqH, respH, host := f.reqHeader, f.respHeader, f.reqHost
	d.RequestBody, d.RequestSize = append([]byte(nil), f.reqBody...), f.reqSize
	if !f.settled && f.reqTee != nil {
		d.RequestBody, d.RequestSize = f.reqTee.prefix(requestBodyCap)
	}
	b.mu.Unlock()

	keep, extra := p.opts.KeepSecrets, p.opts.Redact
	if reqH != nil {
		flatReq := flat(reqH)
		if host != "" {
			flatReq["Host"] = host
		}
		d.RequestHeaders, _ = sessions.RedactHeaders(flatReq, extra, keep)
	}
	if respH != nil {
		d.ResponseHeaders, _ = sessions.RedactHeaders(flat(respH), extra, keep)
	}
	if len(d.RequestBody) == 0 && d.RequestSize == 0 {
		d.RequestBody = nil
	}
	d.RequestBody = redactBody(d.RequestBody, reqH.Get("Content-Type"), keep)
	d.Body = redactBody(d.Body, d.ContentType, keep)
	return d, true
}

// redactBody is a body with its secrets redacted as a recording's request
// body is (JSON fields, form values, query-style pairs), unless keep.
func redactBody(b []byte, contentType string, keep bool) []byte {
	if b == nil || keep {
		return b
	}
	out := sessions.RedactBodyIf(b, contentType, false)
	if mt, _, _ := strings.Cut(strings.ToLower(contentType), ";"); !strings.Contains(mt, "json") {
		out = sessions.RedactText(out) // a token in a text or HTML page
	}
	return out
}
