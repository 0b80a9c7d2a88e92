package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntryURLPattern: the URL holds the pattern, * any characters.
func TestEntryURLPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern, url string
		want         bool
	}{
		{"/v1/messages", "https://api.test/v1/messages?beta=1", true},
		{"/v1/messages", "https://api.test/v1/complete", false},
		{"api.test/*/messages", "https://api.test/v1/messages", true},
		{"api.test/*/messages", "https://apixtest/v1/messages", false}, // . is no wildcard
		{"*", "anything", true},
		{"(", "https://x/(", true}, // no regexp syntax
	} {
		if got := entryURLPattern(tc.pattern).MatchString(tc.url); got != tc.want {
			t.Errorf("%q on %q: %v, want %v", tc.pattern, tc.url, got, tc.want)
		}
	}
}

// TestCheckInputsHARNumbering: a HAR's entries are named FILE#N by their
// place in log.entries, non-SSE entries counted; --entry-url keeps the
// matching ones.
func TestCheckInputsHARNumbering(t *testing.T) {
	entry := func(method, url, mime string) string {
		return `{"request":{"method":"` + method + `","url":"` + url + `","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"` + mime + `","text":"data: {}\n\n"}}}`
	}
	har := `{"log":{"entries":[` + entry("GET", "https://a/api/config", "application/json") + "," +
		entry("POST", "https://a/api/chat", "text/event-stream") + "," + entry("POST", "https://b/v1/messages", "text/event-stream") + `]}}`
	p := filepath.Join(t.TempDir(), "session.har")
	if err := os.WriteFile(p, []byte(har), 0o644); err != nil {
		t.Fatal(err)
	}
	names := func(ins []checkInput) string {
		var s []string
		for _, in := range ins {
			s = append(s, strings.TrimPrefix(in.name, filepath.Dir(p)+"/"))
			if in.err != nil {
				s = append(s, "error")
			}
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		entry    int
		entryURL string
		want     string
	}{
		{-1, "", "session.har#1 session.har#2"},
		{2, "", "session.har"},
		{-1, "/v1/", "session.har#2"},
		{-1, "https://*", "session.har#1 session.har#2"},
		{-1, "/api/config", "session.har error"},
	} {
		ins := checkInputs([]string{p}, nil, tc.entry, tc.entryURL)
		if got := names(ins); got != tc.want {
			t.Errorf("--entry %d --entry-url %q: %s, want %s", tc.entry, tc.entryURL, got, tc.want)
		}
		for _, in := range ins {
			if in.err == nil && tc.entry == -1 && in.entry != map[string]int{"session.har#1": 1, "session.har#2": 2}[strings.TrimPrefix(in.name, filepath.Dir(p)+"/")] {
				t.Errorf("%s opens entry %d", in.name, in.entry)
			}
		}
		closeInputs(ins)
	}
}
