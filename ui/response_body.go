package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"framescope/decode"
	"framescope/sessions"
)

// httpBodyMax bounds a body shown in the HTTP tab (request or response).
const httpBodyMax = 64 << 10

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

// headerLines lists headers sorted by name, sanitized.
func headerLines(h map[string]string, sty *Styles) []jline {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	out := make([]jline, 0, len(names))
	for _, k := range names {
		s := decode.Sanitize(k) + ": " + decode.Sanitize(h[k])
		out = append(out, jline{s, sty.Base.Render(s)})
	}
	return out
}

// bodyLines shows a body under a label: at most httpBodyMax bytes of it
// (a note says when it was cut, or when the source kept no more: more),
// pretty-printed when it is JSON, sanitized.
func bodyLines(label string, body []byte, more bool, sty *Styles) []jline {
	var out []jline
	add := func(s string, render func(...string) string) { out = append(out, jline{s, render(s)}) }
	size := fmtBytes(int64(len(body)))
	if more {
		size += ", more not shown"
	}
	cut := len(body) > httpBodyMax
	if cut {
		body = body[:httpBodyMax]
		size += ", first " + fmtBytes(httpBodyMax) + " shown"
	}
	add(fmt.Sprintf("%s (%s):", label, size), sty.Dim.Render)
	if len(body) == 0 {
		add("(empty)", sty.Dim.Render)
		return out
	}
	text := string(body)
	if !cut && json.Valid(body) {
		var b bytes.Buffer
		if json.Indent(&b, body, "", "  ") == nil {
			text = b.String()
		}
	}
	for _, l := range strings.Split(decode.SanitizeMultiline(text), "\n") {
		add(l, sty.Base.Render)
	}
	if cut {
		add(fmt.Sprintf("… cut at %s", fmtBytes(httpBodyMax)), sty.Dim.Render)
	}
	return out
}

// withErrorBody is the update that adds a capture's error page (the body
// of a non-2xx response, which the pipeline does not read as SSE) to its
// response; r is not changed.
func withErrorBody(r *HTTPResponse, body []byte, more bool) ConnUpdate {
	c := *r
	c.Body, c.BodyTruncated = sessions.RedactText(body), more
	return ConnUpdate{State: ConnOpen, HTTPStatus: c.Status, Response: &c}
}
