package sessions

import (
	"net/url"
	"sort"
	"strings"
)

// Secrets that travel outside the Authorization header: API keys and
// signatures in query strings (?key=…, ?sig=…, presigned URLs) and custom
// token headers (X-Auth-Token, X-Api-Key, …). They are redacted wherever a
// URL or a header is stored or shown, unless --keep-secrets.

// challengeHeaders name auth the server asks for, not a credential: they
// are worth seeing when a 401 is debugged.
var challengeHeaders = []string{"WWW-Authenticate", "Proxy-Authenticate"}

// urlHeaders carry a URL whose query may hold a secret (a redirect's
// target, the page a request came from): their query is redacted, the
// rest kept.
var urlHeaders = []string{"Location", "Content-Location", "Referer"}

// secretHeader reports whether a header's value is a credential: one of
// defaultRedact, a secret name (secrets_names.go), or one of extra
// (--redact).
func secretHeader(name string, extra []string) bool {
	name = strings.TrimSpace(name)
	for _, list := range [2][]string{defaultRedact, extra} {
		for _, n := range list {
			if strings.EqualFold(strings.TrimSpace(n), name) {
				return true
			}
		}
	}
	for _, n := range challengeHeaders {
		if strings.EqualFold(n, name) {
			return false
		}
	}
	return secretName(name)
}

// urlHeader reports whether a header's value is a URL (its query is
// redacted).
func urlHeader(name string) bool {
	for _, n := range urlHeaders {
		if strings.EqualFold(n, strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// secretParam reports whether a query parameter (its raw, still escaped
// name) holds a credential: a secret name (secrets_names.go), or "code",
// an OAuth authorization code, which travels in a redirect URL (a body key
// "code" is program text far more often, so it is a URL-only name).
func secretParam(raw string) bool {
	name, err := url.QueryUnescape(raw)
	if err != nil {
		name = raw
	}
	return strings.EqualFold(strings.TrimSpace(name), "code") || secretName(name)
}

// RedactURL returns s with the values of secret query (and fragment)
// parameters replaced by [redacted] and its userinfo masked (a password,
// or a user name standing alone: http://TOKEN@host/ is a token), for
// storing and showing. It works on the text, so a URL Go cannot parse is
// redacted too; everything else is left byte for byte.
func RedactURL(s string) string {
	s = redactUserinfo(s)
	q := strings.IndexAny(s, "?#")
	if q < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:q])
	rest := s[q:]
	for rest != "" {
		// rest starts at '?' or '#': one query or fragment part.
		sep := rest[0]
		b.WriteByte(sep)
		end := len(rest)
		if sep == '?' {
			if i := strings.IndexByte(rest, '#'); i >= 0 {
				end = i
			}
		}
		b.WriteString(redactParams(rest[1:end]))
		rest = rest[end:]
	}
	return b.String()
}

// redactParams redacts the secret values of "a=1&b=2" (also ';'-separated).
func redactParams(s string) string {
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, "&;")
		part, sep := s, ""
		if i >= 0 {
			part, sep, s = s[:i], s[i:i+1], s[i+1:]
		} else {
			s = ""
		}
		if name, _, ok := strings.Cut(part, "="); ok && secretParam(name) {
			part = name + "=" + RedactedValue
		}
		b.WriteString(part)
		b.WriteString(sep)
	}
	return b.String()
}

// RedactURLIf is RedactURL unless secrets are kept.
func RedactURLIf(s string, keep bool) string {
	if keep {
		return s
	}
	return RedactURL(s)
}

// RedactQueryText masks secret parameter values wherever they appear in
// free text (an error page that links its redirect target, HTML-escaped
// "&amp;" included): name=value after '?', '&', ';' or '#', the value up
// to the next delimiter, quote, bracket or space.
func RedactQueryText(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if c := b[i]; c != '?' && c != '&' && c != ';' && c != '#' {
			continue
		}
		j := i + 1
		for j < len(b) && paramNameByte(b[j]) {
			j++
		}
		if j == i+1 || j >= len(b) || b[j] != '=' || !secretParam(string(b[i+1:j])) {
			continue
		}
		// A value masked already stays as it is, whatever follows it
		// ("?key=[redacted]]" was made of "?key=[redacted]:").
		if end := j + 1 + len(RedactedValue); end <= len(b) && string(b[j+1:end]) == RedactedValue &&
			(end == len(b) || bytesContain("&;#\"'<> \t\r\n),.:]", b[end])) {
			i = end - 1
			continue
		}
		k := j + 1
		for k < len(b) && !bytesContain("&;#\"'<> \t\r\n", b[k]) {
			k++
		}
		// Punctuation that closes a sentence or a parenthesis around
		// the URL in a message ("(…?key=abc):") is not the value's.
		for k > j+1 && k < len(b) && bytesContain("),.:]", b[k-1]) {
			k--
		}
		if k == j+1 || string(b[j+1:k]) == RedactedValue {
			continue
		}
		out = append(out, b[last:j+1]...)
		out = append(out, RedactedValue...)
		last, i = k, k-1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func paramNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '%' || c == '[' || c == ']'
}

func bytesContain(set string, c byte) bool { return strings.IndexByte(set, c) >= 0 }

// RedactedValue replaces a secret header's value.
const RedactedValue = "[redacted]"

// defaultRedact are the headers that carry credentials.
var defaultRedact = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

// RedactSecrets returns a copy of h with the values of the default secret
// headers (Authorization, Cookie, Set-Cookie, token and key headers, …)
// redacted and the query secrets of URL headers (Location) masked, for
// display.
func RedactSecrets(h map[string]string) map[string]string {
	out, _ := RedactHeaders(h, nil, false)
	return out
}

// RedactHeaders returns a copy of h with the values of secret headers
// replaced, and the names (as in h, sorted) that were redacted. Values
// that were already redacted (upstream) are listed too. keep disables it.
func RedactHeaders(h map[string]string, extra []string, keep bool) (map[string]string, []string) {
	if h == nil {
		return nil, nil
	}
	out := make(map[string]string, len(h))
	var names []string
	for k, v := range h {
		switch {
		case keep:
		case secretHeader(k, extra):
			v = RedactedValue
		case urlHeader(k):
			v = RedactURL(v)
		}
		if v == RedactedValue {
			names = append(names, k)
		}
		out[k] = v
	}
	sort.Strings(names)
	return out, names
}

// maskedUserinfo stands for a URL's password or lone user name (as
// url.URL.Redacted writes a password).
const maskedUserinfo = "xxxxx"

// redactUserinfo masks the userinfo of a URL at the start of s: user:pw@
// becomes user:xxxxx@, a lone user@ (a token used as the user name)
// becomes xxxxx@.
func redactUserinfo(s string) string {
	i := strings.Index(s, "://")
	if i < 0 || strings.ContainsAny(s[:i], "/?#") {
		return s
	}
	start := i + 3
	end := start + strings.IndexAny(s[start:]+"/", "/?#")
	at := strings.LastIndexByte(s[start:end], '@')
	if at < 0 {
		return s
	}
	info := s[start : start+at]
	if user, _, ok := strings.Cut(info, ":"); ok {
		info = user + ":" + maskedUserinfo
	} else if info != "" {
		info = maskedUserinfo
	}
	return s[:start] + info + s[start+at:]
}

// RedactMessage masks the secrets of the URLs an error message or note
// quotes (query values, userinfo), for stderr and the terminal: the same
// rules as a stored URL.
func RedactMessage(s string) string {
	s = string(RedactQueryText([]byte(s)))
	for from := 0; ; {
		i := strings.Index(s[from:], "://")
		if i < 0 {
			return s
		}
		i += from
		start := i
		for start > 0 && schemeByte(s[start-1]) {
			start--
		}
		end := i + 3 + strings.IndexAny(s[i+3:]+" ", " \t\r\n\"'<>")
		s = s[:start] + redactUserinfo(s[start:end]) + s[end:]
		from = i + 3
	}
}

func schemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}
