package report

import (
	"encoding/xml"
	"io"

	"framescope/decode"
)

// WriteJUnitError writes the JUnit testsuite of an input that could not be
// read: one errored testcase naming the input and the reason, so a CI
// report never loses an input silently.
func WriteJUnitError(w io.Writer, name string, reason error) error {
	type errElem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string  `xml:"name,attr"`
		Classname string  `xml:"classname,attr"`
		Time      string  `xml:"time,attr"`
		Error     errElem `xml:"error"`
	}
	type testsuite struct {
		XMLName  xml.Name `xml:"testsuite"`
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Time     string   `xml:"time,attr"`
		Case     testcase `xml:"testcase"`
	}
	n := decode.Sanitize(name)
	msg := decode.SanitizeMultiline(reason.Error())
	s := testsuite{Name: n, Tests: 1, Errors: 1, Time: "0", Case: testcase{
		Name: "read " + n, Classname: JUnitClass(name), Time: "0",
		Error: errElem{Message: decode.Sanitize(reason.Error()), Type: "unreadable", Body: msg},
	}}
	b, err := xml.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
