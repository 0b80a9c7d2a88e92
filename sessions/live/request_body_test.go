package live

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/record"
)

func TestRedactBody(t *testing.T) {
	tests := []struct {
		name, ct, in, want string
	}{
		{"json top level", "", `{"model":"m","api_key":"sk-1","n":1}`, `{"model":"m","api_key":"[redacted]","n":1}`},
		{"json any depth, any case, any type", "application/json",
			"{\"a\":[{\"Password\":{\"x\":[1,2]}},{\"CLIENT_SECRET\":42}], \"b\" : { \"Access-Token\" :\t\"t\" ,\"token\":null}}",
			"{\"a\":[{\"Password\":\"[redacted]\"},{\"CLIENT_SECRET\":\"[redacted]\"}], \"b\" : { \"Access-Token\" :\t\"[redacted]\" ,\"token\":\"[redacted]\"}}"},
		{"json escaped key", "", `{"api\u005fkey":"k","s":"{\"token\":\"in a string\"}"}`, `{"api\u005fkey":"[redacted]","s":"{\"token\":\"in a string\"}"}`},
		{"json nothing secret", "", `{"messages":[{"role":"user","content":"my token is here"}]}`, `{"messages":[{"role":"user","content":"my token is here"}]}`},
		{"json array root", "", `[{"secret":"s"},"token"]`, `[{"secret":"[redacted]"},"token"]`},
		{"form by content type", "application/x-www-form-urlencoded", "grant_type=client_credentials&client_secret=s3&scope=a+b", "grant_type=client_credentials&client_secret=[redacted]&scope=a+b"},
		{"form by looks", "", "user=bob&Password=hunter2&api%5Fkey=k", "user=bob&Password=[redacted]&api%5Fkey=[redacted]"},
		{"text is not a form", "text/plain", "the token=abc is prose", "the token=abc is prose"},
		{"not json not form", "application/json", `{"token": broken`, `{"token": broken`},
		{"already redacted", "", `{"token":"[redacted]"}`, `{"token":"[redacted]"}`},
		{"empty", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := sessions.RedactBody([]byte(tc.in), tc.ct)
			if string(got) != tc.want || changed != (tc.in != tc.want) {
				t.Errorf("RedactBody(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
			}
		})
	}
}

// TestRequestBodyRoundTrip: a live request's body reaches Meta (redacted),
// the recording's header keeps it (request_body, or request_body_b64 for
// bytes that are not UTF-8), and the JSONL reader gives it back; --no-body
// leaves it out, --keep-secrets keeps it raw, an old capture has none.
func TestRequestBodyRoundTrip(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {}\n\n")
	}))
	defer srv.Close()
	tests := []struct {
		name string
		opts ConnectOptions
		want []byte // nil: no body in the capture
		key  string // the header key holding it
	}{
		{"json redacted", ConnectOptions{Body: []byte(`{"q":"hi","api_key":"sk-SECRET"}`), Headers: []string{"Content-Type: application/json"}},
			[]byte(`{"q":"hi","api_key":"[redacted]"}`), `"request_body":`},
		{"keep secrets", ConnectOptions{Body: []byte(`{"api_key":"sk-SECRET"}`), KeepSecrets: true}, []byte(`{"api_key":"sk-SECRET"}`), `"request_body":`},
		{"no body flag", ConnectOptions{Body: []byte(`{"api_key":"sk-SECRET"}`), NoBody: true}, nil, ""},
		{"binary", ConnectOptions{Body: []byte{0xff, 0x00, 'x'}, Headers: []string{"Content-Type: application/octet-stream"}}, []byte{0xff, 0x00, 'x'}, `"request_body_b64":"/wB4"`},
		{"empty body", ConnectOptions{Body: []byte{}}, []byte{}, `"request_body":""`},
		{"no body sent", ConnectOptions{}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.URL = srv.URL
			l, err := Connect(t.Context(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if got := l.Meta().RequestBody; !bytes.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("Meta.RequestBody = %q, want %q", got, tc.want)
			}
			if shown := l.Response().RequestBody; tc.opts.NoBody && !bytes.Contains(shown, []byte("[redacted]")) {
				t.Errorf("--no-body: the TUI still shows the body, redacted; got %q", shown)
			}
			var buf bytes.Buffer
			rec := record.New(l, &buf, record.Options{KeepSecrets: tc.opts.KeepSecrets})
			for {
				if _, err := rec.Next(); err != nil {
					break
				}
			}
			header, _, _ := strings.Cut(buf.String(), "\n")
			if tc.key != "" && !strings.Contains(header, tc.key) || tc.key == "" && strings.Contains(header, `"request_body`) {
				t.Errorf("header %s; want %s", header, tc.key)
			}
			if !tc.opts.KeepSecrets && strings.Contains(buf.String(), "SECRET") {
				t.Errorf("the secret was recorded: %s", header)
			}
			c, err := capture.OpenReader("r.jsonl", &buf, capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Meta().RequestBody; !bytes.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("read back %q, want %q", got, tc.want)
			}
			if p := c.TakeProblems(); len(p) != 0 {
				t.Errorf("problems %v", p)
			}
		})
	}
}

func TestRequestBodyCaptureHeader(t *testing.T) {
	tests := []struct {
		name, field string
		want        []byte
		problem     string
	}{
		{"old capture", ``, nil, ""},
		{"text", `,"request_body":"{\"a\":1}"`, []byte(`{"a":1}`), ""},
		{"null", `,"request_body":null`, nil, ""},
		{"b64", `,"request_body_b64":"/wA="`, []byte{0xff, 0}, ""},
		{"not a string", `,"request_body":{"a":1}`, nil, `"request_body" is not a string`},
		{"bad b64", `,"request_body_b64":"%%%"`, nil, `"request_body_b64" is not base64`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := `{"framescope_capture":1,"status":200` + tc.field + "}\n" + `{"t":0,"end":"eof"}` + "\n"
			c, err := capture.OpenReader("c.jsonl", strings.NewReader(in), capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			d := sessiontest.Drain(t, c)
			if got := c.Meta().RequestBody; !bytes.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("body %q, want %q", got, tc.want)
			}
			var msgs []string
			for _, p := range d.Probs {
				msgs = append(msgs, p.Message)
			}
			if all := strings.Join(msgs, "; "); tc.problem == "" && all != "" || !strings.Contains(all, tc.problem) {
				t.Errorf("problems %q, want %q", all, tc.problem)
			}
		})
	}
}

// TestHARRequestBody: a HAR's request.postData.text is the request body,
// long ones (read back from their place in the file) included.
func TestHARRequestBody(t *testing.T) {
	long := `{"pad":"` + strings.Repeat("x", 10<<10) + `"}`
	for _, body := range []string{`{"prompt":"hi","api_key":"k"}`, long} {
		har := `{"log":{"version":"1.2","entries":[{"startedDateTime":"2026-03-02T09:15:00.250Z",
"request":{"method":"POST","url":"https://h/api/chat","headers":[{"name":"Accept","value":"text/event-stream"}],
 "postData":{"mimeType":"application/json","text":` + jsonQuote(body) + `}},
"response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"mimeType":"text/event-stream","text":"data: {}\n\n"}}}]}}`
		path := filepath.Join(t.TempDir(), "x.har")
		os.WriteFile(path, []byte(har), 0o600)
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatalf("Open(%s): %v", path, err)
		}
		if got := string(c.Meta().RequestBody); got != body {
			t.Errorf("HAR request body %d bytes %.40q, want %d bytes", len(got), got, len(body))
		}
		c.Close()
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestRequestBodyCut: a recording keeps at most 1 MiB of the body (cut at
// a rune boundary, redacted first) and says how long it was; the reader
// gives both back, and an inconsistent size is a problem, not a crash.
func TestRequestBodyCut(t *testing.T) {
	body := []byte(`{"api_key":"SECRET","text":"` + strings.Repeat("é", record.RequestBodyMax) + `"}`)
	var buf bytes.Buffer
	rec := record.New(&sessiontest.FakeCapture{Info: sessions.Meta{URL: "http://h/", HTTP: true, Status: 200, RequestBody: body,
		RequestHeaders: map[string]string{"Content-Type": "application/json"}}, Ending: invariants.End{Kind: invariants.EndEOF}}, &buf, record.Options{})
	lvDrain(t, rec)
	header, _, _ := strings.Cut(buf.String(), "\n")
	if strings.Contains(header, "SECRET") || !strings.Contains(header, `"request_body":"{\"api_key\":\"[redacted]\"`) {
		t.Errorf("header %.200s", header)
	}
	c, err := capture.OpenReader("r.jsonl", &buf, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Meta()
	redacted, _ := sessions.RedactBody(body, "application/json")
	if n := len(m.RequestBody); n > record.RequestBodyMax || n < record.RequestBodyMax-3 || !bytes.HasPrefix(redacted, m.RequestBody) || m.RequestBodySize != int64(len(redacted)) {
		t.Errorf("read back %d bytes of %d (size %d)", n, len(redacted), m.RequestBodySize)
	}
	if p := c.TakeProblems(); len(p) != 0 {
		t.Errorf("problems %v", p)
	}
	in := `{"framescope_capture":1,"request_body":"abc","request_body_size":2}` + "\n" + `{"t":0,"end":"eof"}` + "\n"
	c, err = capture.OpenReader("c.jsonl", strings.NewReader(in), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	if d := sessiontest.Drain(t, c); len(d.Probs) != 1 || !strings.Contains(d.Probs[0].Message, `"request_body_size" 2 is not the size`) || c.Meta().RequestBodySize != 0 {
		t.Errorf("problems %v, size %d", d.Probs, c.Meta().RequestBodySize)
	}
}

// TestRequestBodyAfterRedirect: a 303 turns the POST into a GET without a
// body, so the exchange shown and kept has none; a 307 sends it again.
func TestRequestBodyAfterRedirect(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/303":
			http.Redirect(w, r, "/stream", http.StatusSeeOther)
		case "/307":
			http.Redirect(w, r, "/stream", http.StatusTemporaryRedirect)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {}\n\n")
		}
	}))
	defer srv.Close()
	for path, want := range map[string][]byte{"/303": nil, "/307": []byte(`{"q":1}`)} {
		l, err := Connect(t.Context(), ConnectOptions{URL: srv.URL + path, Body: []byte(`{"q":1}`), FollowRedirects: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Meta().RequestBody; !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s: body %q, want %q (method %s)", path, got, want, l.Meta().Method)
		}
		l.Close()
	}
}
