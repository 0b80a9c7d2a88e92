package ui

import (
	"fmt"
	"net/http"
	"strings"

	"framescope/decode"
	"framescope/sessions"
	"framescope/sessions/live"
)

// HTTPResponse is what the source knows of the HTTP exchange: a live
// connection's response, or a HAR / JSONL capture's recorded one. Values
// are kept as received (secret headers redacted, as in recordings) and
// sanitized only when shown.
type HTTPResponse struct {
	Method, URL       string
	Status            int
	StatusText, Proto string
	ContentType       string
	Headers           map[string]string
	// Body is the first 64 KiB of a response that is not a 2xx
	// text/event-stream (an error page), nil otherwise.
	Body          []byte
	BodyTruncated bool
	// The request the response answers: its headers and body (nil: none
	// sent, or a capture that did not keep it), secrets redacted.
	RequestHeaders map[string]string
	RequestBody    []byte
	// RequestBodyCut: the source kept only the start of the body.
	RequestBodyCut bool
}

// Failed reports a response the client cannot read as a turn stream: a
// status that is not 2xx, or a body that is not text/event-stream.
func (r *HTTPResponse) Failed() bool {
	if r.Status != 0 && (r.Status < 200 || r.Status > 299) {
		return true
	}
	mt, _, _ := strings.Cut(strings.ToLower(r.ContentType), ";")
	return strings.TrimSpace(mt) != "text/event-stream"
}

// requestMethod is the method Connect sends.
func requestMethod(c live.ConnectOptions) string {
	switch {
	case c.Method != "":
		return c.Method
	case c.Body != nil:
		return http.MethodPost
	}
	return http.MethodGet
}

// responseFromLive is the live response (headers flattened; the session
// already redacted secrets as --redact / --keep-secrets say). Its URL and
// method are the last hop's when redirects were followed.
func responseFromLive(method string, r live.ResponseInfo) *HTTPResponse {
	if r.Method != "" {
		method = r.Method
	}
	h := make(map[string]string, len(r.Headers))
	for k, vs := range r.Headers {
		h[k] = strings.Join(vs, ", ")
	}
	return &HTTPResponse{
		Method: method, URL: r.URL, Status: r.Status, StatusText: r.StatusText, Proto: r.Proto,
		ContentType: r.ContentType, Headers: h,
		Body: r.ErrorBody, BodyTruncated: r.ErrorBodyTruncated,
		RequestHeaders: r.RequestHeaders, RequestBody: r.RequestBody,
	}
}

// responseFromMeta is a capture's recorded response (nil when it has none).
// A capture from elsewhere (a HAR export) may hold secrets: they are
// redacted for display, as in recordings.
func responseFromMeta(m sessions.Meta) *HTTPResponse {
	if !m.HTTP {
		return nil
	}
	return &HTTPResponse{
		Method: m.Method, URL: sessions.RedactURL(m.URL), Status: m.Status, StatusText: statusText(m.Status),
		ContentType: m.ContentType, Headers: sessions.RedactSecrets(m.ResponseHeaders),
		RequestHeaders: sessions.RedactSecrets(m.RequestHeaders), RequestBody: redactedBody(m),
		RequestBodyCut: m.RequestBodySize > int64(len(m.RequestBody)),
	}
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprint(code)
}

// httpLines renders the exchange for the detail's HTTP tab.
func httpLines(r *HTTPResponse, sty *Styles) []jline {
	if r == nil {
		s := "no HTTP exchange: this source is a file of SSE bytes or frames"
		return []jline{{s, sty.Dim.Render(s)}}
	}
	var out []jline
	add := func(s string, render func(...string) string) { out = append(out, jline{s, render(s)}) }
	if r.URL != "" {
		method := r.Method
		if method == "" {
			method = "GET"
		}
		add(decode.Sanitize(method)+" "+decode.Sanitize(r.URL), sty.Bold.Render)
	}
	status := strings.TrimSpace(decode.Sanitize(r.Proto) + " " + decode.Sanitize(r.StatusText))
	if r.StatusText == "" {
		status = strings.TrimSpace(decode.Sanitize(r.Proto) + " " + statusText(r.Status))
	}
	if r.Failed() {
		add(status, sty.SevError.Render)
	} else {
		add(status, sty.Bold.Render)
	}
	out = append(out, headerLines(r.Headers, sty)...)
	if len(r.Headers) == 0 && r.ContentType != "" {
		add("Content-Type: "+decode.Sanitize(r.ContentType), sty.Base.Render)
	}
	if r.Body != nil {
		out = append(out, jline{})
		out = append(out, bodyLines("body", r.Body, r.BodyTruncated, sty)...)
	}
	// The request after the response: what went wrong is read first.
	if len(r.RequestHeaders) > 0 || r.RequestBody != nil {
		out = append(out, jline{})
		add("request headers:", sty.Dim.Render)
		out = append(out, headerLines(r.RequestHeaders, sty)...)
		if r.RequestBody != nil {
			out = append(out, bodyLines("request body", r.RequestBody, r.RequestBodyCut, sty)...)
		}
	}
	return out
}
