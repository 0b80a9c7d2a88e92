package capture

import (
	"strings"
	"testing"

	"framescope/sessions/internal/sessiontest"
)

// TestJSONLHeaderTooLong: a header line over maxLineSize is skipped as
// lost bytes (capture-corrupt, error), naming what is missing; the chunks
// after it are still read. (maxLineSize is lowered: no 64 MiB line.)
func TestJSONLHeaderTooLong(t *testing.T) {
	defer func(n int) { maxLineSize = n }(maxLineSize)
	maxLineSize = 1 << 20
	in := `{"framescope_capture":1,"url":"http://x/mcp","method":"POST","request_body":"` + strings.Repeat("a", 2<<20) + `"}` + "\n" +
		`{"t":0.1,"data":"data: {}\n\n"}` + "\n" + `{"t":0.2,"end":"eof"}` + "\n"
	c, err := openString(t, in, OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Meta(); m.URL != "" || m.RequestBody != nil {
		t.Errorf("meta from a skipped header: %+v", m)
	}
	d := sessiontest.Drain(t, c)
	if string(d.Data) != "data: {}\n\n" {
		t.Errorf("data %q", d.Data)
	}
	if len(d.Probs) != 1 || !d.Probs[0].Lost || d.Probs[0].Line != 1 ||
		!strings.Contains(d.Probs[0].Message, "capture header line is longer than 1 MiB; skipped, so the request and response it recorded") {
		t.Errorf("problems %+v, want one lost-bytes problem on line 1 naming the header", d.Probs)
	}
}
