package sessions

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/url"
	"strings"
)

// A request body often carries credentials of its own: an OAuth token
// request's client_secret, a login's password, an api_key in the JSON. The
// values of such keys — at any depth of a JSON body, or in a form body —
// are replaced by "[redacted]" wherever a request body is stored or shown,
// unless --keep-secrets. Everything else is left byte for byte.

// secretBodyKey reports whether a body key's value is a credential: the
// one rule set of secrets_names.go (accessToken = access_token =
// ACCESS-TOKEN, user[password], clientSecret, openai_api_key…).
func secretBodyKey(name string) bool { return secretName(name) }

// RedactBody returns body with the values of secret keys redacted: in a
// JSON body (any depth; the value, whatever its type, becomes the string
// "[redacted]") or a form body (key=value&…, as contentType says or as it
// looks). Any other body is returned as it is. It reports whether
// anything was redacted.
func RedactBody(body []byte, contentType string) ([]byte, bool) {
	if len(body) == 0 {
		return body, false
	}
	// A JSON body saved by an editor may start with a byte order mark
	// (which json.Valid refuses): it is redacted behind it.
	if rest, ok := bytes.CutPrefix(body, utf8BOM); ok && json.Valid(rest) {
		out, changed := redactJSON(rest)
		return append(append([]byte(nil), utf8BOM...), out...), changed
	}
	if json.Valid(body) {
		return redactJSON(body)
	}
	if boundary := multipartBoundary(body, contentType); boundary != "" {
		return redactMultipart(body, boundary)
	}
	// curl --data-binary @file keeps the file's final newline: the form
	// is the line before it.
	form, eol := body, []byte(nil)
	if i := len(bytes.TrimRight(body, "\r\n")); i > 0 && len(body)-i <= 2 {
		form, eol = body[:i], body[i:]
	}
	if looksLikeForm(form, contentType) {
		out := redactForm(string(form))
		return append([]byte(out), eol...), out != string(form)
	}
	return body, false
}

var utf8BOM = []byte("\xef\xbb\xbf")

// redactJSON redacts a valid JSON document's secret values.
func redactJSON(body []byte) ([]byte, bool) {
	r := jsonRedactor{in: body}
	r.value()
	if r.out == nil {
		return body, false
	}
	return append(r.out, body[r.last:]...), true
}

// RedactBodyIf is RedactBody unless secrets are kept.
func RedactBodyIf(body []byte, contentType string, keep bool) []byte {
	if keep || body == nil {
		return body
	}
	out, _ := RedactBody(body, contentType)
	return out
}

// looksLikeForm: an application/x-www-form-urlencoded body, or, with no
// Content-Type saying otherwise, one line of name=value pairs.
func looksLikeForm(body []byte, contentType string) bool {
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err == nil && mt == "application/x-www-form-urlencoded" {
			return true
		}
		if err == nil && mt != "text/plain" && mt != "application/octet-stream" {
			return false
		}
	}
	if bytes.ContainsAny(body, " \t\r\n") {
		return false
	}
	first, _, _ := bytes.Cut(body, []byte("&"))
	name, _, ok := bytes.Cut(first, []byte("="))
	return ok && len(name) > 0
}

// redactForm redacts the secret values of "a=1&b=2".
func redactForm(s string) string {
	var b strings.Builder
	for s != "" {
		part, rest, more := strings.Cut(s, "&")
		s = rest
		if name, _, ok := strings.Cut(part, "="); ok {
			n, err := url.QueryUnescape(name)
			if err != nil {
				n = name
			}
			if secretBodyKey(n) {
				part = name + "=" + RedactedValue
			}
		}
		b.WriteString(part)
		if more {
			b.WriteByte('&')
		}
	}
	return b.String()
}

// jsonRedactor walks a valid JSON document, copying it to out only once a
// secret value is found (out nil: nothing to redact). last is how far in
// has been copied.
type jsonRedactor struct {
	in   []byte
	pos  int
	out  []byte
	last int
}

func (r *jsonRedactor) ws() {
	for r.pos < len(r.in) && strings.IndexByte(" \t\r\n", r.in[r.pos]) >= 0 {
		r.pos++
	}
}

// value skips one value (the input is valid JSON), redacting inside it.
func (r *jsonRedactor) value() {
	r.ws()
	if r.pos >= len(r.in) {
		return
	}
	switch r.in[r.pos] {
	case '{':
		r.pos++
		for {
			r.ws()
			if r.in[r.pos] == '}' {
				r.pos++
				return
			}
			if r.in[r.pos] == ',' {
				r.pos++
				r.ws()
			}
			start := r.pos
			r.str()
			var key string
			json.Unmarshal(r.in[start:r.pos], &key)
			r.ws()
			r.pos++ // ':'
			r.ws()
			vstart := r.pos
			if secretBodyKey(key) {
				r.skip()
				if string(r.in[vstart:r.pos]) != `"`+RedactedValue+`"` {
					r.out = append(r.out, r.in[r.last:vstart]...)
					r.out = append(r.out, `"`+RedactedValue+`"`...)
					r.last = r.pos
				}
			} else {
				r.value()
			}
		}
	case '[':
		r.pos++
		for {
			r.ws()
			if r.in[r.pos] == ']' {
				r.pos++
				return
			}
			if r.in[r.pos] == ',' {
				r.pos++
			}
			r.value()
		}
	case '"':
		r.str()
	default:
		for r.pos < len(r.in) && strings.IndexByte(",]} \t\r\n", r.in[r.pos]) < 0 {
			r.pos++
		}
	}
}

// skip passes over one value without looking inside.
func (r *jsonRedactor) skip() {
	depth := 0
	for r.pos < len(r.in) {
		switch c := r.in[r.pos]; c {
		case '"':
			r.str()
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return
			}
			depth--
			if depth == 0 {
				r.pos++
				return
			}
		case ',':
			if depth == 0 {
				return
			}
		case ' ', '\t', '\r', '\n':
			if depth == 0 {
				return
			}
		}
		r.pos++
	}
}

// str passes over a string starting at pos.
func (r *jsonRedactor) str() {
	r.pos++
	for r.pos < len(r.in) {
		switch r.in[r.pos] {
		case '\\':
			r.pos += 2
			continue
		case '"':
			r.pos++
			return
		}
		r.pos++
	}
}

// RedactText masks secret query parameters wherever they appear in free
// text (an error page linking its redirect target), for display.
func RedactText(b []byte) []byte {
	return RedactQueryText(append([]byte(nil), b...))
}
