package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"framescope/decode"
	"framescope/ui/store"
)

// The detail's HTTP tab: the exchange the source knows (store.HTTPResponse).

// statusText is an HTTP status as a response line says it: "404 Not Found".
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprint(code)
}

// httpBodyMax bounds a body shown in the HTTP tab (request or response).
const httpBodyMax = 64 << 10

// httpLines renders the exchange for the detail's HTTP tab.
func httpLines(r *store.HTTPResponse, sty *Styles) []jline {
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
