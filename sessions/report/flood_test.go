package report

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
)

// repeatReader streams body n times without holding more than one copy:
// a flood test's input must not be what fills the heap.
type repeatReader struct {
	body []byte
	n    int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:], r.body[r.off:])
		k += c
		r.off += c
		if r.off == len(r.body) {
			r.off = 0
			r.n--
		}
	}
	return k, nil
}

// TestFloodListingMatchesUnlimited: check makes messages only for the
// alarms its report lists (Options.ListLimit); the reports must be the
// same bytes as when every alarm gets its message (EveryMessage, as
// connect prints them) — in every format, for floods of one rule, of
// several, across turns and in other dialects.
func TestFloodListingMatchesUnlimited(t *testing.T) {
	pc3Turn := func(rid string) string {
		env := `{"event_type":"%s","version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"` + rid + `"`
		f := func(typ, rest string) string {
			return "event: " + typ + "\ndata: " + strings.Replace(env, "%s", typ, 1) + rest + "}\n\n"
		}
		return f("response_id", "") + strings.Repeat("data: x\n\n", 150) + strings.Repeat("data: [1]\n\n", 120) +
			strings.Repeat("data: {}\n\n", 130) + f("completed", "") + "data: [DONE]\n\n"
	}
	cases := []struct{ name, dialect, body string }{
		{"pc3 data: x", "pc3", strings.Repeat("data: x\n\n", 5000)},
		{"pc3 data: {}", "pc3", strings.Repeat("data: {}\n\n", 3000)},
		{"pc3 turns of mixed floods", "pc3", pc3Turn("resp_a") + pc3Turn("resp_b") + strings.Repeat("data: x\n\n", 300)},
		{"openai-chat data: x", "openai-chat", strings.Repeat("data: x\n\n", 3000)},
		{"anthropic data: {}", "anthropic-messages", strings.Repeat("data: {}\n\n", 3000)},
		{"ag-ui data: [1]", "ag-ui", strings.Repeat("data: [1]\n\n", 3000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			open := func() sessions.Capture {
				c, err := capture.OpenReader("flood.sse", strings.NewReader(tc.body), capture.OpenOptions{Entry: -1})
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			limited, err := Check(open(), invariants.Options{Dialect: tc.dialect})
			if err != nil {
				t.Fatal(err)
			}
			told := 0 // unlisted alarms with their message
			full, err := CheckWith(open(), invariants.Options{Dialect: tc.dialect, EveryMessage: true}, pipeline.Handler{OnItem: func(it *pipeline.Item) {
				for _, a := range it.Alarms {
					if a.Unlisted && a.Message != "" {
						told++
					}
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if told == 0 {
				t.Fatalf("EveryMessage: no unlisted alarm has its message")
			}
			if len(limited.Suppressed) == 0 {
				t.Fatalf("no alarm suppressed: not a flood (counts %+v)", limited.Counts)
			}
			for _, format := range []string{"json", "text", "junit"} {
				var a, b bytes.Buffer
				sessiontest.WriteReport(t, limited, format, &a)
				sessiontest.WriteReport(t, full, format, &b)
				if !bytes.Equal(a.Bytes(), b.Bytes()) {
					t.Errorf("%s report differs with listing limited:\n%s\nunlimited:\n%s", format, sessiontest.Clip(a.String()), sessiontest.Clip(b.String()))
				}
			}
		})
	}
}

// TestCheckFloodHeapBounded: checking two million broken frames (every one
// an alarm) keeps the heap bounded: sampled every 200,000 frames while the
// stream is read, it never grows by more than a few batches' worth, and
// the report lists at most MaxListed of them.
func TestCheckFloodHeapBounded(t *testing.T) {
	const frames = 2_000_000
	c, err := capture.OpenReader("flood.sse", &repeatReader{body: []byte("data: x\n\n"), n: frames}, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, uint64(0)
	n := 0
	opts := invariants.Options{Dialect: "pc3", ListLimit: MaxListed}
	rep, err := CheckWith(c, opts, pipeline.Handler{OnItem: func(*pipeline.Item) {
		if n++; n%200_000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Every frame is a frame-json alarm; a few alarms about the stream's
	// turns come on top, and the frames before the first turn are a
	// turn of their own for the listing.
	if rep.Frames != frames || rep.Counts.Error < frames || rep.Suppressed["frame-json"] < frames-2*MaxListed || len(rep.Alarms) > 2*MaxListed+10 {
		t.Fatalf("frames %d, counts %+v, suppressed %v, listed %d", rep.Frames, rep.Counts, rep.Suppressed, len(rep.Alarms))
	}
	const bound = 24 << 20
	if peak < base || peak-base > bound {
		t.Fatalf("heap in use grew from %d to %d bytes while checking %d flood frames (bound %d)", base, peak, frames, bound)
	}
	t.Logf("heap in use: %.1f MB before, at most %.1f MB while checking %d flood frames", float64(base)/1e6, float64(peak)/1e6, frames)
}
