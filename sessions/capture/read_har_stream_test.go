package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// Issue 11 item 10: a HAR's body is streamed (JSON escapes and base64
// decoded on the fly), never held whole.

// BenchmarkHARBase64Open reads a 40 MB stream from a base64 HAR (Open, then
// every chunk): the cost of streaming the body.
func BenchmarkHARBase64Open(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.har")
	_, st := sessiontest.WriteBase64HAR(b, path, 40<<20)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := Open(path, OpenOptions{Entry: -1})
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := sessiontest.DrainInto(b, c, sha256.New()); n != st.Bytes {
			b.Fatalf("%d bytes, want %d", n, st.Bytes)
		}
		c.Close()
	}
}

// harWithText is a HAR whose one SSE entry's content has the given raw JSON
// members (e.g. `"text":"…"`).
func harWithText(members string) string {
	return sessiontest.HAREntryHead + "," + members + sessiontest.HAREntryTail
}

// harBoth opens a HAR both ways: from a file (bodies read back by offset)
// and from a pipe (long strings kept).
func harBoth(t *testing.T, doc string, f func(how string, c sessions.Capture, err error)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.har")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(path, OpenOptions{Entry: -1})
	f("file", c, err)
	c, err = OpenReader("pipe", io.MultiReader(strings.NewReader(doc)), OpenOptions{Entry: -1})
	f("pipe", c, err)
}

// drainErr reads a capture to its end, returning the first error.
func drainErr(c sessions.Capture) ([]byte, error) {
	defer c.Close()
	var out []byte
	for {
		ch, err := c.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ch.Data...)
	}
}

// TestHARLongTextMatchesEncodingJSON: a long body with every kind of escape,
// multi-byte and invalid UTF-8 and surrogates (paired and lone), placed so
// that they straddle the readers' block boundaries, decodes exactly as
// encoding/json decodes it.
func TestHARLongTextMatchesEncodingJSON(t *testing.T) {
	pieces := []string{`data: x\n\n`, `\"q\"`, `\\`, `\/`, `\b\f\r\t`, `\u00e9`, `\u20AC`, `\ud83d\ude00`, `\ud800`, `\udc00x`,
		`\ud83d\u0041`, "é", "€", "😀", "\xff", "\xe2\x82", "plain text "}
	var b strings.Builder
	for i := 0; b.Len() < 200<<10; i++ {
		b.WriteString(pieces[i%len(pieces)])
		b.WriteString(strings.Repeat("a", i%7)) // shift alignment
	}
	raw := b.String()
	var want string
	if err := json.Unmarshal([]byte(`"`+raw+`"`), &want); err != nil {
		t.Fatal(err)
	}
	harBoth(t, harWithText(`"text":"`+raw+`"`), func(how string, c sessions.Capture, err error) {
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		got, err := drainErr(c)
		if err != nil || string(got) != want {
			t.Errorf("%s: %d bytes (err %v), want %d; first difference at %d", how, len(got), err, len(want), firstDiff(got, []byte(want)))
		}
	})
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestHARLongBase64MatchesDecodeBase64: the streamed base64 decoder accepts
// and rejects what the whole-string one (decodeBase64) does.
func TestHARLongBase64MatchesDecodeBase64(t *testing.T) {
	body := bytes.Repeat([]byte("event: text\ndata: {\"chunk\":\"?>~\"}\n\n"), 400) // 14 KB; "?>~" make + and /
	std := base64.StdEncoding.EncodeToString(body)
	lined := func(s string, esc string) string {
		var b strings.Builder
		for i := 0; i < len(s); i += 76 {
			b.WriteString(s[i:min(i+76, len(s))])
			b.WriteString(esc)
		}
		return b.String()
	}
	cases := map[string]string{
		"padded":              std,
		"unpadded":            base64.RawStdEncoding.EncodeToString(body[:len(body)-1]),
		"crlf escapes":        lined(std, `\r\n`),
		"escaped slashes":     strings.ReplaceAll(std, "/", `\/`),
		"unicode escapes":     strings.ReplaceAll(std, "A", `\u0041`),
		"pad in the middle":   base64.StdEncoding.EncodeToString([]byte("a")) + std,
		"bad character":       std[:9000] + "*" + std[9001:],
		"one char too many":   std + "Q",
		"space":               std[:5000] + " " + std[5000:],
		"unpadded with crlfs": lined(base64.RawStdEncoding.EncodeToString(body[:len(body)-2]), `\n`),
	}
	for name, text := range cases {
		var s string
		if err := json.Unmarshal([]byte(`"`+text+`"`), &s); err != nil {
			t.Fatal(err)
		}
		want, wantErr := decodeBase64(nil, s)
		harBoth(t, harWithText(`"encoding":"base64","text":"`+text+`"`), func(how string, c sessions.Capture, err error) {
			if err != nil {
				t.Fatalf("%s %s: %v", name, how, err)
			}
			got, err := drainErr(c)
			switch {
			case wantErr != nil && err == nil:
				t.Errorf("%s %s: no error, want one like %v", name, how, wantErr)
			case wantErr != nil && !strings.Contains(err.Error(), "response body is not valid base64"):
				t.Errorf("%s %s: error %v", name, how, err)
			case wantErr == nil && (err != nil || !bytes.Equal(got, want)):
				t.Errorf("%s %s: %d bytes, err %v; want %d bytes", name, how, len(got), err, len(want))
			}
		})
	}
}

// TestHARLongStringDefects: syntax errors inside a long string are reported
// with their line, as for the rest of the document; a HAR cut off inside
// one is truncated; a forged placeholder is just text.
func TestHARLongStringDefects(t *testing.T) {
	long := strings.Repeat("data: 1\\n\\n", 1000)
	cases := []struct{ name, doc, want string }{
		{"raw tab", harWithText(`"text":"` + long + "\t" + long + `"`), ":3: invalid JSON in HAR: invalid character '\\t' in string literal"},
		{"bad escape", harWithText(`"text":"` + long + `\x` + `"`), ":3: invalid JSON in HAR: invalid character 'x' in string escape code"},
		{"bad unicode", harWithText(`"text":"` + long + `\u12G4` + `"`), `:3: invalid JSON in HAR: invalid character 'G' in \u hexadecimal character escape`},
		{"cut inside", harWithText(`"text":"` + long)[:len(sessiontest.HAREntryHead)+5000], "invalid JSON in HAR: it ends too early (truncated?)"},
	}
	for _, tc := range cases {
		harBoth(t, tc.doc, func(how string, c sessions.Capture, err error) {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: error %v, want %q", tc.name, how, err, tc.want)
			}
		})
	}
	// A short string that looks like a placeholder is text: the nonce is
	// random.
	forged := "framescope-har-long-string:0000000000000000:0"
	harBoth(t, harWithText(`"text":"`+forged+`"`), func(how string, c sessions.Capture, err error) {
		if err != nil {
			t.Fatal(err)
		}
		if got, err := drainErr(c); err != nil || string(got) != forged {
			t.Errorf("%s: %q, %v", how, got, err)
		}
	})
}

// TestHARLongFields: a long URL (or header) is read back for display, cut at
// harFieldMax; the entry list shows it too.
func TestHARLongFields(t *testing.T) {
	url := "http://h/" + strings.Repeat("q", 100<<10)
	doc := strings.Replace(harWithText(`"text":"data: 1\n\n"`), "http://127.0.0.1:8080/api/chat", url, 1)
	harBoth(t, doc, func(how string, c sessions.Capture, err error) {
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if u := c.Meta().URL; len(u) != harFieldMax+len("…") || !strings.HasPrefix(u, "http://h/qqq") {
			t.Errorf("%s: URL of %d bytes", how, len(u))
		}
	})
	list, err := HAREntriesReader("x", strings.NewReader(doc))
	if err != nil || len(list) != 1 || !strings.HasPrefix(list[0].URL, "http://h/qqq") {
		t.Errorf("entries %v, %v", list, err)
	}
}
