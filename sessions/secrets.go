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

// secretHeaderWords mark a header name as a credential when it contains
// one of them (case-insensitive): X-Auth-Token, X-Goog-Api-Key,
// Proxy-Authorization, X-Client-Secret…
var secretHeaderWords = []string{"auth", "token", "secret", "api-key", "apikey", "api_key", "password", "session"}

// challengeHeaders name auth the server asks for, not a credential: they
// are worth seeing when a 401 is debugged.
var challengeHeaders = []string{"WWW-Authenticate", "Proxy-Authenticate"}

// urlHeaders carry a URL whose query may hold a secret (a redirect's
// target, the page a request came from): their query is redacted, the
// rest kept.
var urlHeaders = []string{"Location", "Content-Location", "Referer"}

// secretHeader reports whether a header's value is a credential: one of
// defaultRedact, a name holding a secretHeaderWord, or one of extra
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
	lower := strings.ToLower(name)
	for _, w := range secretHeaderWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
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

// secretParams are query parameter names (compared lower-case, with '-'
// read as '_') whose values are credentials.
var secretParams = map[string]bool{
	"key": true, "apikey": true, "api_key": true, "token": true, "access_token": true,
	"refresh_token": true, "id_token": true, "auth": true, "auth_token": true,
	"authorization": true, "sig": true, "signature": true, "secret": true,
	"client_secret": true, "password": true, "passwd": true, "pwd": true,
	"session": true, "sessionid": true, "session_id": true, "jwt": true,
	"credential": true, "credentials": true, "code": true,
}

// secretParamSuffixes mark a parameter as a credential by its last word:
// x_amz_signature, x-goog-credential, private_key, upload_token…
var secretParamSuffixes = []string{"_key", "_token", "_secret", "_password", "_signature", "_sig", "_credential", "apikey"}

// secretParam reports whether a query parameter (its raw, still escaped
// name) holds a credential.
func secretParam(raw string) bool {
	name, err := url.QueryUnescape(raw)
	if err != nil {
		name = raw
	}
	name = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", "_")
	if secretParams[name] {
		return true
	}
	for _, s := range secretParamSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// RedactURL returns s with the values of secret query (and fragment)
// parameters replaced by [redacted] and a password in it masked, for
// storing and showing. It works on the text, so a URL Go cannot parse is
// redacted too; everything else is left byte for byte.
func RedactURL(s string) string {
	if u, err := url.Parse(s); err == nil && hasPassword(u) {
		s = u.Redacted()
	}
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
		k := j + 1
		for k < len(b) && !bytesContain("&;#\"'<> \t\r\n", b[k]) {
			k++
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
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '%'
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

// hasPassword reports whether a URL carries a password (shown as "xxxxx"
// unless secrets are kept).
func hasPassword(u *url.URL) bool {
	if u.User == nil {
		return false
	}
	_, ok := u.User.Password()
	return ok
}
