package pipeline_test

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// fuzzDialects: the stages under PC3's checker, a few others', and with
// the dialect detected (blocks held back while it is unknown).
var fuzzDialects = []string{"pc3", "", "openai-chat", "anthropic-messages", "ag-ui", "typed-lines"}

// smallReads hands out at most n bytes a Read, so a fuzz input arrives in
// many chunks (the stages decide how blocks travel after each chunk).
type smallReads struct {
	r io.Reader
	n int
}

func (s *smallReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// FuzzStagesMatchInline: whatever the stream, the two stages hand on the
// same items, alarms and report as one stage. Windows of 4 blocks make the
// reader stage switch between full and tiny batches (and hand over) within
// a short input; the input is repeated so that runs of identical blocks
// form, and read a few bytes at a time.
func FuzzStagesMatchInline(f *testing.F) {
	if runtime.GOMAXPROCS(0) < 2 {
		f.Skip("the two stages need a second core")
	}
	for _, s := range []string{
		"data: x\n\n",
		"data: {}\n\ndata: x\n\n: c\n\n",
		"id: 1\ndata: x\n\ndata: x\n\ndata:\n\ndata: [DONE]\n\n",
		"data: \xff\n\ndata: x\r\n\r\ndata: y\rdata: z\r\r",
		`data: {"event_type":"text","version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"r","chunk":"a"}` + "\n\n",
		"event: text\ndata: x\n\nretry: 5\ndata: x\n\nfoo: 1\ndata: x\n\ndata: a\ndata: b\n\n",
		"data: x\n\ndata: {\"a\":tru}\n\ndata: {",
	} {
		for d := range fuzzDialects {
			f.Add([]byte(s), uint8(3), uint8(5), uint8(d))
		}
	}
	prev := *pipeline.TinyWindow
	f.Cleanup(func() { *pipeline.TinyWindow = prev })
	*pipeline.TinyWindow = 4
	f.Fuzz(func(t *testing.T, data []byte, reps, read, dialect uint8) {
		d := fuzzDialects[int(dialect)%len(fuzzDialects)]
		if len(data) > 1<<10 {
			data = data[:1<<10]
		}
		body := bytes.Repeat(data, 1+int(reps%16))
		run := func(oneStage bool) string {
			c, err := capture.OpenReader("fuzz", &smallReads{bytes.NewReader(body), 1 + int(read%64)}, capture.OpenOptions{Entry: -1})
			if err != nil {
				return "open: " + err.Error() // not a capture: nothing to run
			}
			var out strings.Builder
			rep, err := report.CheckWith(c, invariants.Options{Dialect: d}, itemWriter(&out, oneStage))
			if err != nil {
				return out.String() + "error: " + err.Error()
			}
			for _, format := range []string{"json", "text", "junit"} {
				sessiontest.WriteReport(t, rep, format, &out)
			}
			return out.String()
		}
		if inline, staged := run(true), run(false); inline != staged {
			il, sl := strings.Split(inline, "\n"), strings.Split(staged, "\n")
			for i := range min(len(il), len(sl)) {
				if il[i] != sl[i] {
					t.Fatalf("line %d differs:\n inline %s\n staged %s", i, il[i], sl[i])
				}
			}
			t.Fatalf("inline has %d lines, staged %d", len(il), len(sl))
		}
	})
}
