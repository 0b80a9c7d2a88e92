package record

import (
	"encoding/base64"
	"strconv"
	"unicode/utf8"

	"framescope/sessions"
)

// The capture header keeps the request's body: "request_body" (a JSON
// string, exactly the bytes sent) or, when they are not UTF-8,
// "request_body_b64", at most 1 MiB of it ("request_body_size": the whole
// size, when it was cut). Its secrets are redacted (secrets_body.go) unless
// --keep-secrets; --no-body leaves it out. Captures written before it
// existed simply have neither key.

// RequestBodyMax bounds the request body a capture keeps: the header is
// one line, and a line must stay well under what readers accept
// (maxLineSize). A longer body keeps its first RequestBodyMax bytes, and
// "request_body_size" says how long it was.
const RequestBodyMax = 1 << 20

// appendRequestBody appends the header's request body fields (redacted
// before it is cut: a cut JSON body no longer parses).
func appendRequestBody(b []byte, m sessions.Meta, keep bool) []byte {
	ct, _ := sessions.HeaderLookup(m.RequestHeaders, "Content-Type")
	body := sessions.RedactBodyIf(m.RequestBody, ct, keep)
	size := max(int64(len(body)), m.RequestBodySize)
	if len(body) > RequestBodyMax {
		n := RequestBodyMax
		for n > RequestBodyMax-utf8.UTFMax && !utf8.RuneStart(body[n]) {
			n-- // a text body stays text
		}
		body = body[:n]
	}
	if utf8.Valid(body) {
		b = append(b, `,"request_body":`...)
		b = appendJSONString(b, body)
	} else {
		b = append(b, `,"request_body_b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, body)
		b = append(b, '"')
	}
	if size > int64(len(body)) {
		b = append(b, `,"request_body_size":`...)
		b = strconv.AppendInt(b, size, 10)
	}
	return b
}
