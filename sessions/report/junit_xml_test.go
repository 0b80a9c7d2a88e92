package report

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// TestAppendXMLTextMatchesEncodingXML: the hand-written escaping of the
// JUnit report is encoding/xml's, on markup characters, controls, invalid
// UTF-8, surrogates, noncharacters and text around them.
func TestAppendXMLTextMatchesEncodingXML(t *testing.T) {
	for _, s := range []string{"", "plain", `a"b'c&d<e>f`, "tab\there\nnl\rcr", "\x00\x01\x1b[31m\x7f", "\xff\xfe", "é ✓ 🙂",
		"\ufffd", "\ufffe\uffff", "\ud7ff\ue000", "]]>", "\u0085\u2028\u202e", "x\xc3", "\xed\xa0\x80"} {
		checkXMLText(t, s)
	}
}

func FuzzAppendXMLText(f *testing.F) {
	for _, s := range []string{"a<b", "\xff", "\t\n\r", "é\x00"} {
		f.Add(s)
	}
	f.Fuzz(checkXMLText)
}

func checkXMLText(t *testing.T, s string) {
	var want bytes.Buffer
	if err := xml.EscapeText(&want, []byte(s)); err != nil {
		t.Fatal(err)
	}
	if got := appendXMLText([]byte("pre"), s); string(got) != "pre"+want.String() {
		t.Fatalf("appendXMLText(%q) = %q, want %q", s, got[3:], want.String())
	}
}
