package sessions

import (
	"bytes"
	"mime"
	"strings"
)

// A multipart/form-data body (RFC 7578; a browser's "Copy as cURL" gives
// it as --data-raw) carries each field in a part named by its
// Content-Disposition (RFC 7578 §4.2: form-data; name="field"). A part
// whose name is a secret name has its content replaced by "[redacted]";
// the boundaries, part headers and other parts are kept byte for byte.

// multipartBoundary is the body's boundary: the Content-Type's boundary
// parameter, or, with no Content-Type, the first line when it reads as a
// delimiter ("--" and a boundary, RFC 2046 §5.1.1) followed by a part
// header. "" when the body is not multipart.
func multipartBoundary(body []byte, contentType string) string {
	if contentType != "" {
		mt, params, err := mime.ParseMediaType(contentType)
		if err == nil && strings.HasPrefix(mt, "multipart/") {
			return params["boundary"]
		}
		if err == nil && mt != "text/plain" && mt != "application/octet-stream" {
			return ""
		}
	}
	line, rest, ok := bytes.Cut(body, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !ok || len(line) < 3 || len(line) > 72 || !bytes.HasPrefix(line, []byte("--")) || bytes.ContainsAny(line, " \t") {
		return ""
	}
	if !bytes.HasPrefix(bytes.ToLower(rest), []byte("content-")) {
		return ""
	}
	return string(line[2:])
}

// redactMultipart redacts the content of secret-named parts.
func redactMultipart(body []byte, boundary string) ([]byte, bool) {
	delim := []byte("--" + boundary)
	var out []byte
	last := 0
	pos := bytes.Index(body, delim)
	for pos >= 0 {
		partStart := pos + len(delim)
		next := bytes.Index(body[partStart:], delim)
		if next < 0 {
			break
		}
		next += partStart
		part := body[partStart:next]
		hdrEnd, sep := bytes.Index(part, []byte("\r\n\r\n")), 4
		if i := bytes.Index(part, []byte("\n\n")); i >= 0 && (hdrEnd < 0 || i < hdrEnd) {
			hdrEnd, sep = i, 2
		}
		if hdrEnd >= 0 && secretName(partName(part[:hdrEnd])) {
			content := partStart + hdrEnd + sep
			end := next // the CRLF before the delimiter belongs to it
			if end >= 2 && body[end-2] == '\r' && body[end-1] == '\n' {
				end -= 2
			} else if end >= 1 && body[end-1] == '\n' {
				end--
			}
			if end > content && string(body[content:end]) != RedactedValue {
				out = append(out, body[last:content]...)
				out = append(out, RedactedValue...)
				last = end
			}
		}
		pos = next
	}
	if out == nil {
		return body, false
	}
	return append(out, body[last:]...), true
}

// partName is the name parameter of a part's Content-Disposition.
func partName(headers []byte) string {
	for _, line := range strings.Split(string(headers), "\n") {
		name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "Content-Disposition") {
			continue
		}
		if _, params, err := mime.ParseMediaType(value); err == nil {
			return params["name"]
		}
		// A lenient reading for a header mime refuses: name="…".
		if _, v, ok := strings.Cut(value, `name="`); ok {
			v, _, _ = strings.Cut(v, `"`)
			return v
		}
	}
	return ""
}
