package store

import (
	"testing"

	"framescope/sessions"
)

// TestHTTPTabRedactsCaptureURL: a capture from elsewhere (a HAR export)
// may hold secrets in its URL: the tab masks them, as recordings do.
func TestHTTPTabRedactsCaptureURL(t *testing.T) {
	r := responseFromMeta(sessions.Meta{HTTP: true, Status: 200, URL: "https://h/v1/stream?key=SECRET&alt=sse",
		ResponseHeaders: map[string]string{"X-Goog-Api-Key": "SECRET"}})
	if r.URL != "https://h/v1/stream?key=[redacted]&alt=sse" || r.Headers["X-Goog-Api-Key"] != "[redacted]" {
		t.Errorf("URL %q, headers %v", r.URL, r.Headers)
	}
}
