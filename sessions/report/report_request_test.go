package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// TestReportNamesHAREntryRequest: a HAR entry's report names its place in
// log.entries, method and URL (secrets redacted, hostile bytes escaped)
// in every format, as keys added to the JSON report; a capture that is
// no HAR entry has none of them.
func TestReportNamesHAREntryRequest(t *testing.T) {
	check := func(m sessions.Meta) *Report {
		t.Helper()
		// A stream cut inside its second event: one alarm (sse-truncated).
		c := &sessiontest.FakeCapture{Info: m, Chunks: []sessions.Chunk{{Data: []byte("data: {}\n\ndata: {")}}, Ending: invariants.End{Kind: invariants.EndEOF}}
		rep, err := Check(c, invariants.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := check(sessions.Meta{Name: "s.har#2", Kind: sessions.KindHAR, HAREntry: 2, Method: "POST", URL: "https://u:pw@api.test/v1/messages?key=sk-1\x1b[31m"})

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(js.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	if obj["har_entry"] != 2.0 || obj["method"] != "POST" || strings.Contains(js.String(), "sk-1") || strings.Contains(js.String(), "pw@") {
		t.Errorf("JSON %s", js.String())
	}
	for _, k := range []string{"source", "format", "dialect", "frames", "turns", "alarms", "counts", "end", "version"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON lost key %s", k)
		}
	}

	var txt bytes.Buffer
	if err := rep.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(txt.String(), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "request: entries[2] POST https://") || strings.Contains(txt.String(), "\x1b") || strings.Contains(txt.String(), "sk-1") {
		t.Errorf("text %q", txt.String())
	}

	var ju bytes.Buffer
	if err := rep.WriteJUnit(&ju, invariants.SevError); err != nil {
		t.Fatal(err)
	}
	var suite struct {
		HAREntry string `xml:"har_entry,attr"`
		Method   string `xml:"method,attr"`
		URL      string `xml:"url,attr"`
	}
	if err := xml.Unmarshal(ju.Bytes(), &suite); err != nil {
		t.Fatalf("JUnit: %v\n%s", err, ju.String())
	}
	if suite.HAREntry != "2" || suite.Method != "POST" || !strings.HasPrefix(suite.URL, "https://") || strings.Contains(suite.URL, "sk-1") {
		t.Errorf("JUnit %+v", suite)
	}

	// GitHub annotations and SARIF results sit on the HAR file: their
	// messages say which entry, SARIF's properties too.
	var gh bytes.Buffer
	if err := rep.WriteGitHub(&gh, "s.har", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gh.String(), "::entries[2] POST https://") || strings.Contains(gh.String(), "sk-1") {
		t.Errorf("GitHub %q", gh.String())
	}
	var sf bytes.Buffer
	s := NewSARIF(&sf)
	if err := s.Add(rep, "s.har", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sf.String(), `"text":"entries[2] POST https://`) || !strings.Contains(sf.String(), `"har_entry":2,"method":"POST","url":"https://`) {
		t.Errorf("SARIF %s", sf.String())
	}

	// No HAR, no request keys (the JSON report is a public interface).
	plain := check(sessions.Meta{Name: "a.sse", Kind: sessions.KindSSE, Method: "POST", URL: "http://x/"})
	js.Reset()
	txt.Reset()
	plain.WriteJSON(&js)
	plain.WriteText(&txt)
	if strings.Contains(js.String(), "har_entry") || strings.Contains(js.String(), `"url"`) || strings.Contains(txt.String(), "request:") {
		t.Errorf("a capture that is no HAR entry names a request: %s %s", js.String(), txt.String())
	}
}
