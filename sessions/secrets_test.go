package sessions

import "testing"

// TestRedactURL: secret query and fragment values are masked, the rest of
// the URL is kept byte for byte, also when Go cannot parse it.
func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://h/p", "http://h/p"},
		{"http://h/p?x=1&key=abc", "http://h/p?x=1&key=[redacted]"},
		{"http://h/p?API_KEY=a&Api-Key=b&apikey=c&Token=d&access_token=e", "http://h/p?API_KEY=[redacted]&Api-Key=[redacted]&apikey=[redacted]&Token=[redacted]&access_token=[redacted]"},
		{"http://h/?sig=1;signature=2&X-Amz-Signature=3&x-goog-credential=4", "http://h/?sig=[redacted];signature=[redacted]&X-Amz-Signature=[redacted]&x-goog-credential=[redacted]"},
		{"http://h/?secret=1&password=2&auth=3&client_secret=4&refresh_token=5", "http://h/?secret=[redacted]&password=[redacted]&auth=[redacted]&client_secret=[redacted]&refresh_token=[redacted]"},
		{"http://h/?monkey=1&keys=2&q=key", "http://h/?monkey=1&keys=2&q=key"},
		{"http://h/?%6Bey=1", "http://h/?%6Bey=[redacted]"},
		{"http://h/cb#access_token=abc&state=s", "http://h/cb#access_token=[redacted]&state=s"},
		{"http://h/?token=a#frag", "http://h/?token=[redacted]#frag"},
		{"http://u:pw@h/?token=a", "http://u:xxxxx@h/?token=[redacted]"},
		{"http://h/%zz?token=a", "http://h/%zz?token=[redacted]"},
		{"/relative?token=a", "/relative?token=[redacted]"},
		{"http://h/?token", "http://h/?token"},
	} {
		if got := RedactURL(tc.in); got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRedactHeaders: token, secret, key and auth headers are redacted
// besides the defaults; a server's auth challenge is kept; URL headers
// lose their query secrets; --keep-secrets keeps all.
func TestRedactHeaders(t *testing.T) {
	h := map[string]string{
		"X-Auth-Token": "a", "X-Goog-Api-Key": "b", "Apikey": "c", "X-Client-Secret": "d",
		"Proxy-Authorization": "e", "X-Session-Token": "f", "X-Custom": "g", "Location": "/n?key=k&x=1",
		"WWW-Authenticate": `Bearer error="invalid_token"`, "Content-Type": "text/event-stream", "X-Mine": "m",
	}
	out, names := RedactHeaders(h, []string{"x-mine"}, false)
	for _, k := range []string{"X-Auth-Token", "X-Goog-Api-Key", "Apikey", "X-Client-Secret", "Proxy-Authorization", "X-Session-Token", "X-Mine"} {
		if out[k] != RedactedValue {
			t.Errorf("%s: %q not redacted", k, out[k])
		}
	}
	for _, k := range []string{"X-Custom", "WWW-Authenticate", "Content-Type"} {
		if out[k] != h[k] {
			t.Errorf("%s: %q changed", k, out[k])
		}
	}
	if out["Location"] != "/n?key=[redacted]&x=1" {
		t.Errorf("Location %q", out["Location"])
	}
	if len(names) != 7 {
		t.Errorf("redacted names %v", names)
	}
	kept, _ := RedactHeaders(h, nil, true)
	for k, v := range h {
		if kept[k] != v {
			t.Errorf("keep: %s = %q", k, kept[k])
		}
	}
}

// TestRedactQueryText: an error body shown (never the recorded bytes) has
// the secret parameters of the URLs it holds masked.
func TestRedactQueryText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<a href="/s?token=abc&amp;sig=def&x=1">Found</a>.`, `<a href="/s?token=[redacted]&amp;sig=[redacted]&x=1">Found</a>.`},
		{"see https://h/?api_key=k1 and ?key=k2\n", "see https://h/?api_key=[redacted] and ?key=[redacted]\n"},
		{"key=not-a-param token is fine ?token=", "key=not-a-param token is fine ?token="},
		{"?monkey=1", "?monkey=1"},
		{"http://h/v1?key=[redacted]: refused", "http://h/v1?key=[redacted]: refused"}, // masked already: as it is
		{"(?token=[redacted]) ?sig=[redacted]", "(?token=[redacted]) ?sig=[redacted]"},
	} {
		if got := string(RedactQueryText([]byte(tc.in))); got != tc.want {
			t.Errorf("redactQueryText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
