package proxy

import (
	"net/http"
	"strings"

	"framescope/sessions"
)

// A flow's detail: its request and response as they passed, for a screen
// that opens any flow (a JSON POST, a 404, a tunnel, a stream whose
// session is gone), not only a stream in the inspector. The book keeps it
// beside the Flow, never in the Flow it publishes: the list is sent often
// and never shows it.

// Bounds of what flows keep of their bodies: a request's first
// DefaultBodyCap bytes (the response's: Options.BodyCap), and at most
// maxKeptBodies for all flows together — past it the oldest finished
// flows give their bodies up (their detail says so). DefaultMaxFlows
// flows of 64 KiB each would otherwise be 128 MB.
const (
	requestBodyCap = DefaultBodyCap
	maxKeptBodies  = 64 << 20
)

// exchange is the HTTP exchange of a flow as the proxy saw it.
type exchange struct {
	reqHeader  http.Header // as sent upstream (hop-by-hop headers removed)
	reqHost    string
	reqTee     *bodyTee    // the request body while it streams (nil: none)
	reqBody    []byte      // its start once the flow is done
	reqSize    int64       // its whole size
	respHeader http.Header // as the upstream sent it
	dropped    bool        // the bodies were given up for newer flows' (maxKeptBodies)
	settled    bool        // done: the request body taken from reqTee, bodies counted
}

// keptBodies is the body bytes a settled flow counts in flowBook.bodies.
func (f *liveFlow) keptBodies() int64 {
	if !f.settled {
		return 0
	}
	return int64(len(f.reqBody) + len(f.Body))
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

// settleLocked keeps the start of a finished flow's request body, counts
// its bodies, and makes the oldest flows give theirs up past
// maxKeptBodies (b.mu held).
func (b *flowBook) settleLocked(f *liveFlow) {
	f.settled = true
	if kept, size := f.reqTee.sent(); f.reqTee != nil {
		f.reqBody, f.reqSize = kept[:min(len(kept), requestBodyCap):min(len(kept), requestBodyCap)], size
		f.reqTee = nil
	}
	b.bodies += f.keptBodies()
	for _, old := range b.flows {
		if b.bodies <= maxKeptBodies {
			break
		}
		if old == f || !old.settled || old.dropped {
			continue
		}
		b.bodies -= old.keptBodies()
		old.reqBody, old.Body, old.dropped = nil, nil, true
	}
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
	// BodiesDropped: the flow's bodies were given up to keep the proxy's
	// memory bounded (64 MiB of bodies for all flows).
	BodiesDropped bool
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
	d := FlowDetail{Flow: snapshot(f), BodiesDropped: f.dropped}
	reqH, respH, host := f.reqHeader, f.respHeader, f.reqHost
	d.RequestBody, d.RequestSize = append([]byte(nil), f.reqBody...), f.reqSize
	if !f.settled && f.reqTee != nil {
		kept, size := f.reqTee.sent()
		d.RequestBody, d.RequestSize = kept[:min(len(kept), requestBodyCap)], size
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
