package store

import (
	"fmt"
	"net/http"
	"strings"

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
		Method: m.Method, URL: sessions.RedactURL(m.URL), Status: m.Status, StatusText: StatusText(m.Status),
		ContentType: m.ContentType, Headers: sessions.RedactSecrets(m.ResponseHeaders),
		RequestHeaders: sessions.RedactSecrets(m.RequestHeaders), RequestBody: redactedBody(m),
		RequestBodyCut: m.RequestBodySize > int64(len(m.RequestBody)),
	}
}

// StatusText is an HTTP status as a response line says it: "404 Not Found".
func StatusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprint(code)
}

// redactedBody is a capture's request body with its secrets redacted for
// display (a HAR export keeps them), as its headers are.
func redactedBody(m sessions.Meta) []byte {
	if m.RequestBody == nil {
		return nil
	}
	ct := ""
	for k, v := range m.RequestHeaders {
		if strings.EqualFold(k, "Content-Type") {
			ct = v
		}
	}
	b, _ := sessions.RedactBody(m.RequestBody, ct)
	return b
}

// withErrorBody is the update that adds a capture's error page (the body
// of a non-2xx response, which the pipeline does not read as SSE) to its
// response; r is not changed.
func withErrorBody(r *HTTPResponse, body []byte, more bool) ConnUpdate {
	c := *r
	c.Body, c.BodyTruncated = sessions.RedactText(body), more
	return ConnUpdate{State: ConnOpen, HTTPStatus: c.Status, Response: &c}
}
