package report

import (
	"strconv"

	"framescope/decode"
	"framescope/sessions"
)

// Request names the HTTP request a report's capture answers when the
// capture is one entry of a HAR: a HAR holds many requests, and FILE#N
// alone does not say which. Every format shows it: the text report's
// request line, the JSON report's har_entry, method and url keys, the
// JUnit testsuite's attributes of the same names, and the GitHub
// annotations' and SARIF results' messages (SARIF's properties too).
type Request struct {
	HAREntry int    // the entry's place in log.entries: FILE#N's N
	Method   string // as recorded
	URL      string // secrets in userinfo and query redacted (sessions.RedactURL)
}

// requestOf is the request of a HAR entry's capture; nil for any other.
func requestOf(m sessions.Meta) *Request {
	if m.Kind != sessions.KindHAR {
		return nil
	}
	return &Request{HAREntry: m.HAREntry, Method: m.Method, URL: sessions.RedactURL(m.URL)}
}

// appendJSON appends the request's keys to a JSON report.
func (q *Request) appendJSON(b []byte) []byte {
	b = append(b, `,"har_entry":`...)
	b = strconv.AppendInt(b, int64(q.HAREntry), 10)
	b = append(b, `,"method":`...)
	b = appendNullableString(b, q.Method)
	b = append(b, `,"url":`...)
	return appendNullableString(b, q.URL)
}

// textLine is the text report's line, sanitized.
func (q *Request) textLine() string {
	return "request: " + q.label() + "\n"
}

// label names the request in a message: "entries[2] POST https://…",
// sanitized (GitHub annotations and SARIF results are placed on the HAR
// file, and say which of its entries they are about).
func (q *Request) label() string {
	return "entries[" + strconv.Itoa(q.HAREntry) + "] " + decode.Sanitize(q.Method) + " " + decode.Sanitize(q.URL)
}

// labelled prefixes msg with the request of r, when it has one.
func (r *Report) labelled(msg string) string {
	if r.Request == nil {
		return msg
	}
	return r.Request.label() + ": " + msg
}

// appendJUnitAttrs appends the request as attributes of a testsuite.
func (q *Request) appendJUnitAttrs(b []byte) []byte {
	b = append(b, ` har_entry="`...)
	b = strconv.AppendInt(b, int64(q.HAREntry), 10)
	b = append(b, `" method="`...)
	b = appendXMLText(b, decode.Sanitize(q.Method))
	b = append(b, `" url="`...)
	b = appendXMLText(b, decode.Sanitize(q.URL))
	return append(b, '"')
}
