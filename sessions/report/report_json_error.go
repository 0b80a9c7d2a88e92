package report

import (
	"encoding/json"
	"io"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// WriteJSONError writes the JSON report line of an input that could not
// be read: the keys of every report (format and dialect null, nothing
// checked) plus "error", so a consumer counting one line per input sees
// every input, and one reading "error" knows why it holds nothing.
func WriteJSONError(w io.Writer, name string, reason error) error {
	var b []byte
	b = append(b, `{"source":`...)
	b = decode.AppendJSONString(b, decode.Sanitize(name))
	b = append(b, `,"format":null,"dialect":null,"frames":0,"turns":[],"alarms":[],"counts":`...)
	counts, _ := json.Marshal(invariants.Counts{})
	b = append(b, counts...)
	b = append(b, `,"end":null,"error":`...)
	b = decode.AppendJSONString(b, decode.Sanitize(reason.Error()))
	b = append(b, `,"version":`...)
	b = decode.AppendJSONString(b, sessions.Version)
	b = append(b, "}\n"...)
	_, err := w.Write(b)
	return err
}
