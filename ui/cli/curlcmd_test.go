package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParseCurl: curl's options read into the request framescope sends.
func TestParseCurl(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "body.txt")
	os.WriteFile(file, []byte("a=1\r\nb=2\n"), 0o600)
	tests := []struct {
		name    string
		words   []string
		url     string
		method  string
		headers []string
		body    string
		maxTime time.Duration
		err     string
	}{
		{name: "attached values", words: []string{"-XPOST", "-HX-A: 1", "--url", "http://h/x", "-d@" + file},
			url: "http://h/x", method: "POST", headers: []string{"X-A: 1", "Content-Type: application/x-www-form-urlencoded"}, body: "a=1b=2"},
		{name: "data-binary keeps line breaks, data-raw keeps @", words: []string{"http://h", "--data-binary", "@" + file, "--data-raw", "@x", "-H", "Content-Type: text/plain"},
			url: "http://h", headers: []string{"Content-Type: text/plain"}, body: "a=1\r\nb=2\n&@x"},
		{name: "data-urlencode forms", words: []string{"http://h", "-H", "content-type: x", "--data-urlencode", "a b", "--data-urlencode", "=c&d", "--data-urlencode", "n=e f", "--data-urlencode", "f@" + file},
			url: "http://h", headers: []string{"content-type: x"}, body: "a+b&c%26d&n=e+f&f=a%3D1%0D%0Ab%3D2%0A"},
		{name: "empty header, dropped header, named headers", words: []string{"http://h", "-H", "X-E;", "-H", "Accept:", "-e", "http://r/", "-A", "ua", "--oauth2-bearer", "tok", "-m", "2.5"},
			url: "http://h", headers: []string{"X-E:", "Referer: http://r/", "User-Agent: ua", "Authorization: Bearer tok"}, maxTime: 2500 * time.Millisecond},
		{name: "-- ends the options", words: []string{"-s", "--", "-weird-host"}, url: "-weird-host"},
		{name: "bad duration", words: []string{"http://h", "--connect-timeout", "soon"}, err: "--connect-timeout soon: want seconds"},
		{name: "user without password", words: []string{"http://h", "-u", "me"}, err: "USER:PASSWORD"},
		{name: "cookie file", words: []string{"http://h", "-b", "jar.txt"}, err: "a cookie file is not read"},
		{name: "two bodies", words: []string{"http://h", "-d", "x", "--json", "{}"}, err: "give one"},
		{name: "missing file", words: []string{"http://h", "-d", "@" + filepath.Join(dir, "none")}, err: "curl option -d"},
		{name: "header file", words: []string{"http://h", "-H", "@h.txt"}, err: "headers from a file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := parseCurl(tc.words, strings.NewReader(""))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.url != tc.url || r.method != tc.method || string(r.body) != tc.body || r.maxTime != tc.maxTime ||
				strings.Join(r.headers, "|") != strings.Join(tc.headers, "|") {
				t.Errorf("got %q %q %q %q %s\nwant %q %q %q %q %s", r.url, r.method, r.headers, r.body, r.maxTime, tc.url, tc.method, tc.headers, tc.body, tc.maxTime)
			}
		})
	}
}
