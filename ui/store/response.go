package store

import (
	"strings"

	"framescope/sessions"
)

// HTTPResponse is what the source knows of the HTTP exchange: a live
// connection's response (ui/source makes it), or a HAR / JSONL capture's
// recorded one. Values are kept as received (secret headers redacted, as
// in recordings) and sanitized only when shown.
type HTTPResponse struct {
	Method, URL string
	Status      int
	// StatusText is the status as the response line said it ("200 OK"):
	// "" for a capture, which keeps the code only (the view spells it).
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

// responseFromMeta is a capture's recorded response (nil when it has none).
// A capture from elsewhere (a HAR export) may hold secrets: they are
// redacted for display, as in recordings.
func responseFromMeta(m sessions.Meta) *HTTPResponse {
	if !m.HTTP {
		return nil
	}
	return &HTTPResponse{
		Method: m.Method, URL: sessions.RedactURL(m.URL), Status: m.Status,
		ContentType: m.ContentType, Headers: sessions.RedactSecrets(m.ResponseHeaders),
		RequestHeaders: sessions.RedactSecrets(m.RequestHeaders), RequestBody: redactedBody(m),
		RequestBodyCut: m.RequestBodySize > int64(len(m.RequestBody)),
	}
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
