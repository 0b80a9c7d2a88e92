package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"
)

// seenCurl is what the test server was sent.
type seenCurl struct {
	method, path, query, body string
	header                    http.Header
}

// curlServer answers every request with an empty event stream and keeps
// what it was sent.
func curlServer(t *testing.T) (string, func() []seenCurl) {
	var mu sync.Mutex
	var seen []seenCurl
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenCurl{r.Method, r.URL.Path, r.URL.RawQuery, string(b), r.Header.Clone()})
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []seenCurl { mu.Lock(); defer mu.Unlock(); return append([]seenCurl(nil), seen...) }
}

// TestCurlPasted: a pasted curl command, as words or as one argument (bash
// with continuations and $'…', or cmd.exe with ^), makes the server see
// exactly its method, URL, headers and body.
func TestCurlPasted(t *testing.T) {
	u, seen := curlServer(t)
	own := []string{"--", "--headless", "--no-save"}
	tests := []struct {
		name   string
		args   []string
		method string
		query  string
		body   string
		header map[string]string // "" = must be absent
		note   string            // on stderr
	}{
		{name: "words",
			args:   []string{"curl", u + "/api/chat", "-H", "content-type: application/json", "-H", "X-Test: a  b", "--data-raw", `{"q":"hi"}`, "--compressed", "-sS", "--http2"},
			method: "POST", body: `{"q":"hi"}`,
			header: map[string]string{"Content-Type": "application/json", "X-Test": "a  b", "Accept-Encoding": "gzip, deflate, br", "Accept": "text/event-stream"},
			note:   "ignored curl option --http2"},
		{name: "one argument, bash, continuations and $'…'",
			args:   []string{"curl '" + u + "/api/chat' \\\n  -X PUT \\\n  -H 'Authorization: Bearer abc' \\\r\n  -H \"X-Test: \\\"q\\\"\" \\\n  --data-raw $'{\"q\":\"it\\'s\\\\nnew\\u00e9\"}' -N"},
			method: "PUT", body: `{"q":"it's\nnewé"}`,
			header: map[string]string{"Authorization": "Bearer abc", "X-Test": `"q"`, "Accept-Encoding": "", "Content-Type": "application/x-www-form-urlencoded"},
			note:   "ignored curl option -N"},
		{name: "one argument, cmd.exe",
			args:   []string{"curl ^\"" + u + "/api/chat?a=1^&b=2^\" ^\r\n  -H ^\"X-Test: c^\" ^\r\n  -H ^\"content-type: application/json^\" ^\r\n  --data-raw ^\"^{^\\^\"a^\\^\":1^}^\" ^\r\n  --compressed"},
			method: "POST", query: "a=1&b=2", body: `{"a":1}`,
			header: map[string]string{"X-Test": "c", "Content-Type": "application/json", "Accept-Encoding": "gzip, deflate, br"}},
		{name: "-d without content-type, cookies, user, bundled flags",
			args:   []string{u + "/api/chat", "-sSLk", "-d", "a=1", "-d", "b=2", "-b", "s=1", "-b", "t=2", "-u", "me:pw", "-A", "agent/1", "--max-time", "30"},
			method: "POST", body: "a=1&b=2",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Cookie": "s=1; t=2", "Authorization": "Basic bWU6cHc=", "User-Agent": "agent/1"}},
		{name: "-G puts the data in the query",
			args:   []string{"curl", u + "/api/chat", "-G", "--data-urlencode", "q=a b&c", "-XGET"},
			method: "GET", query: "q=a+b%26c", body: ""},
		{name: "--json; a browser's zstd is not offered",
			args:   []string{"curl", u + "/api/chat", "--json", `{"j":1}`, "-H", "Accept-Encoding: gzip, deflate, br, zstd"},
			method: "POST", body: `{"j":1}`,
			header: map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Accept-Encoding": "gzip, deflate, br"},
			note:   "not offering zstd"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "", append(append([]string{"curl"}, tc.args...), own...)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			all := seen()
			if len(all) != i+1 {
				t.Fatalf("the server saw %d requests, want %d", len(all), i+1)
			}
			got := all[i]
			if got.method != tc.method || got.path != "/api/chat" || got.query != tc.query || got.body != tc.body {
				t.Errorf("server saw %s %s?%s %q; want %s ?%s %q", got.method, got.path, got.query, got.body, tc.method, tc.query, tc.body)
			}
			for name, want := range tc.header {
				if v := strings.Join(got.header.Values(name), ", "); v != want {
					t.Errorf("header %s: %q, want %q", name, v, want)
				}
			}
			if tc.note != "" && !strings.Contains(r.stderr, tc.note) {
				t.Errorf("stderr lacks %q:\n%s", tc.note, r.stderr)
			}
		})
	}

	// Refused: nothing is sent, the message names what and where.
	before := len(seen())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"curl", u, "-F", "f=@x"}, "curl option -F changes the request"},
		{[]string{"curl " + u + " --proxy http://p:1"}, "curl option --proxy changes the request"},
		{[]string{u, "--frobnicate"}, "unknown curl option --frobnicate"},
		{[]string{u, "-sZ"}, "curl option -Z changes the request"},
		{[]string{"curl '" + u + "' -H \"Authorization: Bearer $TOKEN\""}, `line 1, column`},
		{[]string{"curl '" + u + "\n -d x"}, "the ' quote is never closed"},
		{[]string{"curl " + u + " | jq"}, `"|" is shell syntax`},
		{[]string{"curl", u, u + "/2"}, "framescope sends one request"},
		{[]string{"curl", "-s"}, "no URL"},
		{[]string{"curl", u, "-H"}, "-H needs a value"},
		{[]string{"curl", u, "--", "-H", "X: y"}, "--header after --"},
		{[]string{"curl", u, "--", "stray"}, "framescope flags only"},
		{[]string{"curl", u, "--", "--bogus"}, "framescope flags after --: unknown flag: --bogus"},
	} {
		r := runCLI(t, "", append([]string{"curl"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if n := len(seen()); n != before {
		t.Errorf("refused commands sent %d requests", n-before)
	}
}

// encode compresses b with a content coding.
func encode(t *testing.T, coding string, b []byte) []byte {
	var out bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&out)
	case "deflate":
		w = zlib.NewWriter(&out)
	case "br":
		w = brotli.NewWriterLevel(&out, 1)
	default:
		t.Fatalf("coding %q", coding)
	}
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// encodedServer serves body encoded as the path says (/gzip, /deflate,
// /br) whatever the request asked, and keeps the Accept-Encodings asked.
func encodedServer(t *testing.T, body []byte) (string, func() []string) {
	var mu sync.Mutex
	var asked []string
	encoded := map[string][]byte{}
	for _, c := range []string{"gzip", "deflate", "br"} {
		encoded[c] = encode(t, c, body)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Header.Get("Accept-Encoding"))
		mu.Unlock()
		c := strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", c)
		w.Write(encoded[c])
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), asked...) }
}

// TestCompressedCaptures: gzip, deflate and br bodies — asked for with
// --compressed or not — check clean; the capture keeps the response's
// Content-Encoding, says the frames are the decoded body, and check reads
// back the same frames as the plain stream.
func TestCompressedCaptures(t *testing.T) {
	plain, err := os.ReadFile("testdata/examples/example-happy.sse")
	if err != nil {
		t.Fatal(err)
	}
	u, asked := encodedServer(t, plain)
	want := runCLI(t, "", "check", "--format", "json", "testdata/examples/example-happy.sse")
	wantRep := parseReports(t, want.stdout)
	dir := t.TempDir()
	n := 0
	for _, coding := range []string{"gzip", "deflate", "br"} {
		for _, how := range []string{"record --compressed", "curl --compressed", "record"} {
			t.Run(coding+" "+how, func(t *testing.T) {
				capture := filepath.Join(dir, coding+"-"+strings.ReplaceAll(how, " ", "")+".jsonl")
				var args []string
				if strings.HasPrefix(how, "curl") {
					args = []string{"curl", "curl '" + u + "/" + coding + "' \\\n  --compressed", "--", "-o", capture, "--no-save"}
				} else {
					args = append(strings.Fields(how), u+"/"+coding, "-o", capture, "--no-save")
				}
				r := runCLI(t, "", args...)
				n++
				if r.code != 0 {
					t.Fatalf("%s: exit %d\n%s%s", how, r.code, r.stdout, r.stderr)
				}
				wantAE := ""
				if strings.Contains(how, "--compressed") {
					wantAE = "gzip, deflate, br"
				}
				if a := asked(); len(a) != n || a[n-1] != wantAE {
					t.Errorf("Accept-Encoding asked: %q, want %q last", a, wantAE)
				}
				if got := chunkBytes(t, capture); !bytes.Equal(got, plain) {
					t.Errorf("capture holds %d bytes, not the %d decoded ones", len(got), len(plain))
				}
				raw, _ := os.ReadFile(capture)
				var head struct {
					DecodedFrom string            `json:"decoded_from"`
					Response    map[string]string `json:"response_headers"`
				}
				json.Unmarshal(raw[:bytes.IndexByte(raw, '\n')], &head)
				if head.DecodedFrom != coding || head.Response["Content-Encoding"] != coding {
					t.Errorf("capture header: decoded_from %q, Content-Encoding %q; want %q", head.DecodedFrom, head.Response["Content-Encoding"], coding)
				}
				back := runCLI(t, "", "check", "--format", "json", capture)
				rep := parseReports(t, back.stdout)
				if back.code != 0 || len(rep) != 1 || rep[0].Frames != wantRep[0].Frames ||
					!reflect.DeepEqual(rep[0].Turns, wantRep[0].Turns) || !reflect.DeepEqual(rep[0].Alarms, wantRep[0].Alarms) {
					t.Errorf("check of the capture: exit %d %+v\nwant %+v\n%s", back.code, rep, wantRep, back.stderr)
				}
			})
		}
	}
}

// TestCompressedBombBounded: a br bomb (12 MiB of frames from a few KB)
// stops at the default ratio bound and the capture stays bounded; a
// --max-decoded bound holds through curl as well.
func TestCompressedBombBounded(t *testing.T) {
	frame := "data: " + strings.Repeat("x", 1000) + "\n\n"
	bomb := bytes.Repeat([]byte(frame), 12<<20/len(frame))
	u, _ := encodedServer(t, bomb)
	capture := filepath.Join(t.TempDir(), "bomb.jsonl")
	r := runCLI(t, "", "record", u+"/br", "--compressed", "-o", capture, "--no-save")
	if !strings.Contains(r.stdout, "decompression ratio passed 100×") {
		t.Fatalf("exit %d; want the bomb stopped\n%s", r.code, tail(r.stdout+r.stderr, 800))
	}
	if fi, err := os.Stat(capture); err != nil || fi.Size() > 10<<20 {
		t.Errorf("capture: %v, %d bytes", err, fi.Size())
	}
	r = runCLI(t, "", "curl", u+"/br", "--compressed", "--", "--max-decoded", "256KiB", "-o", capture, "--no-save", "--headless")
	if !strings.Contains(r.stdout, "decoded size passed 256 KiB") {
		t.Errorf("--max-decoded: exit %d\n%s", r.code, tail(r.stdout+r.stderr, 800))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestBodyDefaultsInHelp: connect --help says what Content-Type a body
// gets without -H and what --compressed asks for; curl --help says curl's.
func TestBodyDefaultsInHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"connect", "--help"}, []string{"Content-Type: application/json when it starts with { or [", "Accept-Encoding: gzip, deflate, br"}},
		{[]string{"record", "--help"}, []string{"Content-Type: application/json when it starts with { or [", "--compressed"}},
		{[]string{"curl", "--help"}, []string{"application/x-www-form-urlencoded", `after "--"`}},
		{[]string{"--help"}, []string{"curl "}},
	} {
		r := runCLI(t, "", tc.args...)
		for _, w := range tc.want {
			if r.code != 0 || !strings.Contains(r.stdout, w) {
				t.Errorf("%q: exit %d, lacks %q", tc.args, r.code, w)
			}
		}
	}
}
