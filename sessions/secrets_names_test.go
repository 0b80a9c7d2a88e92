package sessions

import (
	"strings"
	"testing"
)

// TestSecretNamesEverywhere (issue 24 item 5): every leak the issue lists
// — a secret under another spelling in a URL, a header, a JSON, form or
// multipart body and an error message — is redacted by the one rule set,
// and the look-alikes a turn request carries stay visible.
func TestSecretNamesEverywhere(t *testing.T) {
	const R = RedactedValue
	urls := []struct{ in, want string }{
		{"http://h/s?accessToken=T1&x=1", "http://h/s?accessToken=" + R + "&x=1"},
		{"http://h/s?ACCESS-TOKEN=T1&AccessToken=T2", "http://h/s?ACCESS-TOKEN=" + R + "&AccessToken=" + R},
		{"http://h/s?openaiApiKey=T1&session_id=T2&code=T3", "http://h/s?openaiApiKey=" + R + "&session_id=" + R + "&code=" + R},
		{"http://T0KEN@h/s", "http://xxxxx@h/s"},
		{"https://u:pw@h/", "https://u:xxxxx@h/"},
		{"http://h/a@b?q=1", "http://h/a@b?q=1"},
	}
	for _, tc := range urls {
		if got := RedactURL(tc.in); got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}

	msgs := []struct{ in, want string }{
		{`Get "http://h/s?access_token=T1": EOF`, `Get "http://h/s?access_token=` + R + `": EOF`},
		{"redirected to https://T0KEN@h/x?clientSecret=T2 (refused)", "redirected to https://xxxxx@h/x?clientSecret=" + R + " (refused)"},
		{"dial tcp 127.0.0.1:1: connection refused", "dial tcp 127.0.0.1:1: connection refused"},
		// The punctuation that closes a parenthesis or a sentence stays.
		{"two URLs (h/a?key=abc and h/b?api_key=def): one", "two URLs (h/a?key=" + R + " and h/b?api_key=" + R + "): one"},
		{"see h/a?token=abc. Then", "see h/a?token=" + R + ". Then"},
		{"ends h/a?token=abc.", "ends h/a?token=" + R},
	}
	for _, tc := range msgs {
		if got := RedactMessage(tc.in); got != tc.want {
			t.Errorf("RedactMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}

	headers := map[string]string{
		"Ocp-Apim-Subscription-Key": "T1", "X-Functions-Key": "T2", "Signature": "sig1=:T3:",
		"X-Session-Id": "T4", "Access-Token": "T5",
		"Idempotency-Key": "i", "Content-Type": "application/json", "Signature-Input": `sig1=("@method")`,
	}
	out, _ := RedactHeaders(headers, nil, false)
	for _, k := range []string{"Ocp-Apim-Subscription-Key", "X-Functions-Key", "Signature", "X-Session-Id", "Access-Token"} {
		if out[k] != R {
			t.Errorf("header %s = %q, not redacted", k, out[k])
		}
	}
	for _, k := range []string{"Idempotency-Key", "Content-Type", "Signature-Input"} {
		if out[k] != headers[k] {
			t.Errorf("header %s = %q, changed", k, out[k])
		}
	}

	const boundary = "----WebKitFormBoundaryAbC"
	multipart := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nann\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nT1\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"apiKey\"\r\n\r\nT2\r\n--" + boundary + "--\r\n"
	bodies := []struct{ name, ct, in, want string }{
		{"json camel", "application/json",
			`{"accessToken":"T1","clientSecret":"T2","privateKey":"T3","auth_token":"T4","openai_api_key":"T5","credentials":{"a":"T6"},"session_id":"T7","model":"m","max_tokens":5}`,
			`{"accessToken":"` + R + `","clientSecret":"` + R + `","privateKey":"` + R + `","auth_token":"` + R + `","openai_api_key":"` + R + `","credentials":"` + R + `","session_id":"` + R + `","model":"m","max_tokens":5}`},
		{"json BOM", "application/json", "\xef\xbb\xbf{\"ACCESS-TOKEN\":\"T1\",\"x\":1}", "\xef\xbb\xbf{\"ACCESS-TOKEN\":\"" + R + "\",\"x\":1}"},
		{"json look-alikes", "", `{"prompt_cache_key":"p","token_type":"t","stop_token_ids":[1],"public_key":"k","code":"print(1)"}`,
			`{"prompt_cache_key":"p","token_type":"t","stop_token_ids":[1],"public_key":"k","code":"print(1)"}`},
		{"form trailing newline", "application/x-www-form-urlencoded", "user=a&accessToken=T1\n", "user=a&accessToken=" + R + "\n"},
		{"form no type, CRLF", "", "grant=x&client-secret=T1\r\n", "grant=x&client-secret=" + R + "\r\n"},
		{"form brackets", "", "user%5Bname%5D=a&user[password]=T1&user%5Bpassword%5D=T2", "user%5Bname%5D=a&user[password]=" + R + "&user%5Bpassword%5D=" + R},
		{"multipart typed", "multipart/form-data; boundary=" + boundary, multipart,
			strings.NewReplacer("\r\n\r\nT1\r\n", "\r\n\r\n"+R+"\r\n", "\r\n\r\nT2\r\n", "\r\n\r\n"+R+"\r\n").Replace(multipart)},
		{"multipart sniffed", "", multipart,
			strings.NewReplacer("\r\n\r\nT1\r\n", "\r\n\r\n"+R+"\r\n", "\r\n\r\nT2\r\n", "\r\n\r\n"+R+"\r\n").Replace(multipart)},
	}
	for _, tc := range bodies {
		got, _ := RedactBody([]byte(tc.in), tc.ct)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestSecretNameSpellings: one normalised name whatever its case and
// separators.
func TestSecretNameSpellings(t *testing.T) {
	for _, n := range []string{"accessToken", "access_token", "ACCESS-TOKEN", "AccessToken", "ACCESSTOKEN", "access.token",
		"APIKey", "apiKey", "x-api-key", "X_GOOG_API_KEY", "user[password]", "clientSecret", "SessionId", "Signature", "key", "sig"} {
		if !secretName(n) {
			t.Errorf("%q not a secret name", n)
		}
	}
	for _, n := range []string{"monkey", "keys", "max_tokens", "maxOutputTokens", "Idempotency-Key", "token_type", "model", "Content-Type", "code", "tokenizer", "progressToken", "progress_token", "nextPageToken", "page_token", "next_token", "stop_token", ""} {
		if secretName(n) {
			t.Errorf("%q read as a secret name", n)
		}
	}
}
